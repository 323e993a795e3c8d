import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Group, Modal, SimpleGrid, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { documentTypeLabel } from '../../../i18n/document-type-label.ts';
import {
  DOCUMENT_DIRECTIONS,
  DOCUMENT_TYPE_CODES,
  RestrictionRequestSchema,
  type DocumentDirection,
  type DocumentTypeCode,
  type Restriction,
  type RestrictionRequest,
} from '@portal/contracts';
import type { z } from 'zod';
import { showSuccess } from '../../../lib/notify.ts';
import { useSaveRestrictionMutation } from '../api/user-management-mutations.ts';
import { userOptionLabel } from '../api/user-management-queries.ts';
import { fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { GlnTagsInput } from './gln-tags-input.tsx';
import { GroupMultiSelect, UserMultiSelect } from './member-pickers.tsx';

type RestrictionForm = z.input<typeof RestrictionRequestSchema>;

function toForm(restriction: Restriction | undefined): RestrictionForm {
  return {
    name: restriction?.name ?? '',
    description: restriction?.description ?? '',
    partners: restriction?.partners ?? [],
    deliveryPointGlns: restriction?.deliveryPointGlns ?? [],
    documentTypes: restriction?.documentTypes ?? [],
    directions: restriction?.directions ?? [],
    assignees: {
      userIds: restriction?.assignees.users.map((u) => u.id) ?? [],
      groupIds: restriction?.assignees.groups.map((g) => g.id) ?? [],
    },
  };
}

const isDocumentType = (v: string): v is DocumentTypeCode => DOCUMENT_TYPE_CODES.some((c) => c === v);
const isDirection = (v: string): v is DocumentDirection => DOCUMENT_DIRECTIONS.some((d) => d === v);

/** The first field error under a list field (`deliveryPointGlns.2` → its message). */
function listError(errors: unknown): string | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const record = errors as { message?: unknown } & Record<string, unknown>;
  if (typeof record.message === 'string') return record.message;
  for (const value of Object.values(record)) {
    const found = listError(value);
    if (found) return found;
  }
  return undefined;
}

/** Creates or edits a restriction: name, description, what it narrows, and whom it applies to. */
export function RestrictionFormModal({ restriction, onClose }: { restriction?: Restriction; onClose: () => void }) {
  const { t } = useTranslation(['user-management', 'validation']);
  const { t: common } = useTranslation('common');
  const save = useSaveRestrictionMutation();
  const form = useForm<RestrictionForm, unknown, RestrictionRequest>({
    resolver: zodResolver(RestrictionRequestSchema),
    defaultValues: toForm(restriction),
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  function onValid(values: RestrictionRequest) {
    const body: RestrictionRequest = { ...values, description: values.description ? values.description : null };
    save.mutate(
      { restrictionId: restriction?.id, body },
      {
        onSuccess: (saved) => {
          showSuccess({ message: t('user-management:restrictions.saved', { name: saved.name }) });
          onClose();
        },
        onError: (error) =>
          showSaveFailure(error, 'user-management', {
            fields: [
              'name',
              'description',
              'partners',
              'deliveryPointGlns',
              'documentTypes',
              'directions',
              'assignees.userIds',
              'assignees.groupIds',
            ],
            setError: form.setError,
            // List items come back as `deliveryPointGlns.3`; the list field shows them.
            field: (path) => path.replace(/\.\d+$/, ''),
          }),
      },
    );
  }

  const title = restriction
    ? t('user-management:restrictions.edit.title', { name: restriction.name })
    : t('user-management:restrictions.create.title');
  return (
    <Modal opened onClose={onClose} title={title} size="xl">
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="md">
          <TextInput
            label={t('user-management:restrictions.fields.name')}
            required
            data-autofocus
            error={fieldErrorText(errors.name?.message, 'user-management')}
            {...form.register('name')}
          />
          <Textarea
            label={t('user-management:restrictions.fields.description')}
            rows={3}
            resize="vertical"
            error={fieldErrorText(errors.description?.message, 'user-management')}
            {...form.register('description')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="partners"
              render={({ field }) => (
                <TagsInput
                  label={t('user-management:restrictions.fields.partners')}
                  description={t('user-management:restrictions.fields.partnersHint')}
                  value={field.value ?? []}
                  onChange={field.onChange}
                  splitChars={[',', ';']}
                  clearable
                  acceptValueOnBlur
                  error={fieldErrorText(listError(errors.partners), 'user-management')}
                />
              )}
            />
            <Controller
              control={form.control}
              name="deliveryPointGlns"
              render={({ field }) => (
                <GlnTagsInput
                  label={t('user-management:restrictions.fields.deliveryPointGlns')}
                  description={t('user-management:restrictions.fields.glnHint')}
                  value={field.value ?? []}
                  onChange={field.onChange}
                  error={fieldErrorText(listError(errors.deliveryPointGlns), 'user-management')}
                />
              )}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="documentTypes"
            render={({ field }) => (
              <Checkbox.Group
                label={t('user-management:restrictions.fields.documentTypes')}
                description={t('user-management:restrictions.fields.emptyMeansAll')}
                value={field.value ?? []}
                onChange={(next) => field.onChange(next.filter(isDocumentType))}
                error={fieldErrorText(listError(errors.documentTypes), 'user-management')}
              >
                <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mt="xs" spacing="xs">
                  {DOCUMENT_TYPE_CODES.map((code) => (
                    <Checkbox key={code} value={code} label={documentTypeLabel(common, code)} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            )}
          />
          <Controller
            control={form.control}
            name="directions"
            render={({ field }) => (
              <Checkbox.Group
                label={t('user-management:restrictions.fields.directions')}
                description={t('user-management:restrictions.fields.emptyMeansAll')}
                value={field.value ?? []}
                onChange={(next) => field.onChange(next.filter(isDirection))}
                error={fieldErrorText(listError(errors.directions), 'user-management')}
              >
                <Group mt="xs">
                  {DOCUMENT_DIRECTIONS.map((direction) => (
                    <Checkbox key={direction} value={direction} label={t(`user-management:directions.${direction}`)} />
                  ))}
                </Group>
              </Checkbox.Group>
            )}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="assignees.userIds"
              render={({ field }) => (
                <UserMultiSelect
                  label={t('user-management:restrictions.fields.users')}
                  known={restriction?.assignees.users.map((u) => ({ value: u.id, label: userOptionLabel(u) }))}
                  value={field.value ?? []}
                  onChange={field.onChange}
                  error={fieldErrorText(listError(errors.assignees?.userIds), 'user-management')}
                />
              )}
            />
            <Controller
              control={form.control}
              name="assignees.groupIds"
              render={({ field }) => (
                <GroupMultiSelect
                  label={t('user-management:restrictions.fields.groups')}
                  known={restriction?.assignees.groups.map((g) => ({ value: g.id, label: g.name }))}
                  value={field.value ?? []}
                  onChange={field.onChange}
                  error={fieldErrorText(listError(errors.assignees?.groupIds), 'user-management')}
                />
              )}
            />
          </SimpleGrid>
          <FormActions onCancel={onClose} saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
