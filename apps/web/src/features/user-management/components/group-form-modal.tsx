import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Modal, Stack, TextInput, type ComboboxItem } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { GroupRequestSchema, type UserGroup, type GroupRequest } from '@portal/contracts';
import { z } from 'zod';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { showSuccess } from '../../../lib/notify.ts';
import { useSaveGroupMutation } from '../api/user-management-mutations.ts';
import { groupDetailQuery, userOptionLabel } from '../api/user-management-queries.ts';
import { fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { PermissionChecklist } from './permission-checklist.tsx';
import { UserMultiSelect } from './member-pickers.tsx';

const GroupFormSchema = GroupRequestSchema.extend({ memberIds: z.array(z.string()) });
type GroupForm = z.input<typeof GroupFormSchema>;

/** Creates a group, or edits one (name, permissions, members) after loading its members. */
export function GroupFormModal({ group, onClose }: { group?: UserGroup; onClose: () => void }) {
  const { t } = useTranslation('user-management');
  const api = useApi();
  const detail = useQuery({ ...groupDetailQuery(api, group?.id ?? ''), enabled: Boolean(group) });
  const title = group ? t('groups.edit.title', { name: group.name }) : t('groups.create.title');
  return (
    <Modal opened onClose={onClose} title={title} size="xl">
      {group && !detail.data ? (
        <PageLoader />
      ) : (
        <GroupFormBody
          groupId={group?.id}
          initial={{
            name: detail.data?.name ?? '',
            permissions: detail.data?.permissions ?? [],
            memberIds: detail.data?.members.map((m) => m.id) ?? [],
          }}
          knownMembers={detail.data?.members.map((m) => ({ value: m.id, label: userOptionLabel(m) }))}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function GroupFormBody({
  groupId,
  initial,
  knownMembers,
  onClose,
}: {
  groupId: string | undefined;
  initial: GroupForm;
  knownMembers: ComboboxItem[] | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation(['user-management', 'validation']);
  const save = useSaveGroupMutation();
  const [lockOut, setLockOut] = useState<string | undefined>();
  const form = useForm<GroupForm, unknown, z.output<typeof GroupFormSchema>>({
    resolver: zodResolver(GroupFormSchema),
    defaultValues: initial,
    mode: 'onTouched',
  });
  const { errors, dirtyFields } = form.formState;

  function onValid(values: z.output<typeof GroupFormSchema>) {
    setLockOut(undefined);
    const request: GroupRequest = { name: values.name, permissions: values.permissions };
    // Members are replaced only when they changed (or for a new group that has some).
    const memberIds = dirtyFields.memberIds || (!groupId && values.memberIds.length > 0) ? values.memberIds : undefined;
    save.mutate(
      { groupId, group: request, memberIds },
      {
        onSuccess: (saved) => {
          showSuccess({ message: t('user-management:groups.saved', { name: saved.name }) });
          onClose();
        },
        onError: (error) =>
          showSaveFailure(error, 'user-management', {
            fields: ['name', 'permissions'],
            setError: form.setError,
            onLockOut: setLockOut,
          }),
      },
    );
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)}>
      <Stack gap="md">
        {lockOut ? (
          <Alert color="red" role="alert" title={t('user-management:errors.lockOutTitle')} data-testid="lock-out-alert">
            {lockOut}
          </Alert>
        ) : null}
        <TextInput
          label={t('user-management:groups.fields.name')}
          required
          data-autofocus
          error={fieldErrorText(errors.name?.message, 'user-management')}
          {...form.register('name')}
        />
        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => (
            <PermissionChecklist
              value={field.value}
              onChange={field.onChange}
              error={fieldErrorText(errors.permissions?.message, 'user-management')}
            />
          )}
        />
        <Controller
          control={form.control}
          name="memberIds"
          render={({ field }) => (
            <UserMultiSelect
              label={t('user-management:groups.fields.members')}
              known={knownMembers}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        <FormActions onCancel={onClose} saving={save.isPending} />
      </Stack>
    </form>
  );
}
