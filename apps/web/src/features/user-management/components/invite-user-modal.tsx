import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { InviteUserRequestSchema, LANGUAGES, isLanguage, type InviteUserRequest } from '@portal/contracts';
import { LOCALES } from '@portal/i18n';
import type { z } from 'zod';
import { showSuccess } from '../../../lib/notify.ts';
import { useInviteUserMutation } from '../api/user-management-mutations.ts';
import { fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { GroupMultiSelect } from './member-pickers.tsx';

type InviteForm = z.input<typeof InviteUserRequestSchema>;

/** Invites a user by e-mail: the e-mailed link lets them set a password (`POST /api/company-users/invite`). */
export function InviteUserModal({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation(['user-management', 'validation']);
  const invite = useInviteUserMutation();
  const form = useForm<InviteForm, unknown, InviteUserRequest>({
    resolver: zodResolver(InviteUserRequestSchema),
    defaultValues: {
      email: '',
      firstName: '',
      lastName: '',
      language: isLanguage(i18n.language) ? i18n.language : 'en',
      groupIds: [],
    },
    // Checked on submit, then as the user types: checking the autofocused e-mail when it loses focus would put its
    // error under it during the press on Send invitation, move the button away from the pointer and lose the click,
    // so an empty form showed only the e-mail error and none of the others.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  function onValid(values: InviteUserRequest) {
    invite.mutate(values, {
      onSuccess: (user) => {
        showSuccess({ message: t('user-management:users.invite.sent', { email: user.email }) });
        onClose();
      },
      onError: (error) =>
        showSaveFailure(error, 'user-management', {
          fields: ['email', 'firstName', 'lastName', 'language', 'groupIds'],
          setError: form.setError,
        }),
    });
  }

  return (
    <Modal opened onClose={onClose} title={t('user-management:users.invite.title')} size="lg">
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="md">
          <TextInput
            label={t('user-management:users.fields.email')}
            type="email"
            dir="ltr"
            required
            data-autofocus
            autoComplete="off"
            error={fieldErrorText(errors.email?.message, 'user-management')}
            {...form.register('email')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('user-management:users.fields.firstName')}
              required
              autoComplete="off"
              error={fieldErrorText(errors.firstName?.message, 'user-management')}
              {...form.register('firstName')}
            />
            <TextInput
              label={t('user-management:users.fields.lastName')}
              required
              autoComplete="off"
              error={fieldErrorText(errors.lastName?.message, 'user-management')}
              {...form.register('lastName')}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="language"
            render={({ field }) => (
              <Select
                label={t('user-management:users.fields.language')}
                description={t('user-management:users.invite.languageHint')}
                data={LANGUAGES.map((code) => ({ value: code, label: LOCALES[code].name }))}
                value={field.value ?? null}
                onChange={(v) => field.onChange(isLanguage(v) ? v : undefined)}
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          <Controller
            control={form.control}
            name="groupIds"
            render={({ field }) => (
              <GroupMultiSelect
                label={t('user-management:users.fields.groups')}
                value={field.value ?? []}
                onChange={field.onChange}
                error={fieldErrorText(errors.groupIds?.message, 'user-management')}
              />
            )}
          />
          <FormActions
            onCancel={onClose}
            saving={invite.isPending}
            submitLabel={t('user-management:users.invite.submit')}
          />
        </Stack>
      </form>
    </Modal>
  );
}
