import { Checkbox, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROLES, type AdminUser, type Role } from '@portal/contracts';
import { FormActions } from '../../../components/form-actions.tsx';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useSetUserRoles } from '../api/admin-mutations.ts';

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** The application roles of description section 6, each with what it does. */
export function RoleCheckboxes(props: { value: string[]; onChange: (roles: Role[]) => void; error?: string }) {
  const { t } = useTranslation('admin');
  return (
    <Checkbox.Group
      label={t('roles.label')}
      value={props.value}
      onChange={(value) => props.onChange(value.filter(isRole))}
      error={props.error}
    >
      <Stack gap="xs" mt="xs">
        {ROLES.map((role) => (
          <Checkbox
            key={role}
            value={role}
            label={`${t(`roles.names.${role}`)} (${role})`}
            description={t(`roles.explain.${role}`)}
          />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

export function UserRolesModal(props: { user: AdminUser; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSetUserRoles();
  const [roles, setRoles] = useState<Role[]>(props.user.roles.filter(isRole));

  async function onSave() {
    try {
      await save.mutateAsync({ id: props.user.id, roles: ROLES.filter((role) => roles.includes(role)) });
      showSuccess({ message: t('roles.saved', { email: props.user.email }) });
      props.onClose();
    } catch (error) {
      showError({ message: errorText(error, 'admin') });
    }
  }

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t('roles.title')}>
      <Stack>
        <Text size="sm">{props.user.email}</Text>
        <RoleCheckboxes value={roles} onChange={setRoles} />
        <FormActions
          onCancel={props.onClose}
          onSubmit={() => void onSave()}
          saving={save.isPending}
          submitLabel={t('roles.save')}
        />
      </Stack>
    </Modal>
  );
}
