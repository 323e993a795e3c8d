import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  NameSchema,
  UpdateCompanyUserRequestSchema,
  type CompanyUser,
  type UpdateCompanyUserRequest,
} from '@portal/contracts';
import { z } from 'zod';
import { showSuccess } from '../../../lib/notify.ts';
import { useUpdateUserMutation } from '../api/user-management-mutations.ts';
import { fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { GroupMultiSelect } from './member-pickers.tsx';

/** The update request with the names required (the form always sends them). */
const EditUserSchema = UpdateCompanyUserRequestSchema.extend({
  firstName: NameSchema,
  lastName: NameSchema,
  groupIds: z.array(z.string()),
});
type EditUserForm = z.input<typeof EditUserSchema>;

/** Names, telephone and groups of a user (`PATCH /api/company-users/:id`). */
export function EditUserModal({ user, onClose }: { user: CompanyUser; onClose: () => void }) {
  const { t } = useTranslation(['user-management', 'validation']);
  const update = useUpdateUserMutation();
  const [lockOut, setLockOut] = useState<string | undefined>();
  const form = useForm<EditUserForm, unknown, z.output<typeof EditUserSchema>>({
    resolver: zodResolver(EditUserSchema),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      telephone: user.telephone ?? '',
      groupIds: user.groups.map((g) => g.id),
    },
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  function onValid(values: z.output<typeof EditUserSchema>) {
    setLockOut(undefined);
    const body: UpdateCompanyUserRequest = { ...values, telephone: values.telephone ? values.telephone : null };
    update.mutate(
      { userId: user.id, body },
      {
        onSuccess: () => {
          showSuccess({ message: t('user-management:users.edit.saved') });
          onClose();
        },
        onError: (error) =>
          showSaveFailure(error, 'user-management', {
            fields: ['firstName', 'lastName', 'telephone', 'groupIds'],
            setError: form.setError,
            onLockOut: setLockOut,
          }),
      },
    );
  }

  return (
    <Modal opened onClose={onClose} title={t('user-management:users.edit.title', { email: user.email })} size="lg">
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="md">
          {lockOut ? (
            <Alert color="red" role="alert" data-testid="lock-out-alert">
              {lockOut}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('user-management:users.fields.firstName')}
              required
              data-autofocus
              error={fieldErrorText(errors.firstName?.message, 'user-management')}
              {...form.register('firstName')}
            />
            <TextInput
              label={t('user-management:users.fields.lastName')}
              required
              error={fieldErrorText(errors.lastName?.message, 'user-management')}
              {...form.register('lastName')}
            />
          </SimpleGrid>
          <TextInput
            label={t('user-management:users.fields.telephone')}
            type="tel"
            dir="ltr"
            error={fieldErrorText(errors.telephone?.message, 'user-management')}
            {...form.register('telephone')}
          />
          <Controller
            control={form.control}
            name="groupIds"
            render={({ field }) => (
              <GroupMultiSelect
                label={t('user-management:users.fields.groups')}
                known={user.groups.map((g) => ({ value: g.id, label: g.name }))}
                value={field.value}
                onChange={field.onChange}
                error={fieldErrorText(errors.groupIds?.message, 'user-management')}
              />
            )}
          />
          <FormActions onCancel={onClose} saving={update.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
