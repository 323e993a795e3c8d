import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiKeyCreateRequestSchema, type ApiKeyCreateRequest, type ApiKeyCreated } from '@portal/contracts';
import { FormActions } from '../../../components/form-actions.tsx';
import { fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { useCreateApiKeyMutation } from '../api/api-keys-mutations.ts';

/**
 * Names a new API key, then shows its secret this once, with a copy button and the warning that it will not be shown
 * again. While the secret is shown a click beside the dialog does not close it (the secret would be lost).
 */
export function CreateApiKeyModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['profile', 'validation']);
  const create = useCreateApiKeyMutation();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const form = useForm<ApiKeyCreateRequest>({
    resolver: zodResolver(ApiKeyCreateRequestSchema),
    defaultValues: { name: '' },
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  function onValid(values: ApiKeyCreateRequest) {
    create.mutate(values, {
      onSuccess: setCreated,
      onError: (error) => showSaveFailure(error, 'profile', { fields: ['name'], setError: form.setError }),
    });
  }

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      closeOnClickOutside={!created}
      title={created ? t('profile:apiKeys.createdTitle', { name: created.name }) : t('profile:apiKeys.createTitle')}
    >
      {created ? (
        <Stack gap="md" data-testid="api-key-created">
          <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
            {t('profile:apiKeys.createdWarning')}
          </Alert>
          <TextInput
            label={t('profile:apiKeys.secretLabel')}
            value={created.secret}
            readOnly
            dir="ltr"
            ff="monospace"
            data-autofocus
            onFocus={(event) => event.currentTarget.select()}
            data-testid="api-key-secret"
          />
          <Group justify="flex-end">
            <CopyButton value={created.secret}>
              {({ copied, copy }) => (
                <Button
                  variant="light"
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
                  onClick={copy}
                >
                  {copied ? t('profile:apiKeys.copied') : t('profile:apiKeys.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>{t('profile:apiKeys.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form noValidate onSubmit={form.handleSubmit(onValid)} data-testid="api-key-form">
          <Stack gap="md">
            <TextInput
              label={t('profile:apiKeys.fields.name')}
              description={t('profile:apiKeys.nameHint')}
              required
              data-autofocus
              autoComplete="off"
              error={fieldErrorText(errors.name?.message, 'profile')}
              {...form.register('name')}
            />
            <FormActions onCancel={onClose} saving={create.isPending} submitLabel={t('profile:apiKeys.createSubmit')} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
