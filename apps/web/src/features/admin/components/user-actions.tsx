import { ActionIcon, Alert, Button, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import {
  IconCircleCheck,
  IconDots,
  IconKey,
  IconLock,
  IconLockOpen,
  IconShieldCog,
  IconUserShare,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '@portal/contracts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useImpersonate, useUserAction, type UserAction } from '../api/admin-mutations.ts';
import { UserRolesModal } from './user-roles-modal.tsx';

/** Admins, disabled and unverified users cannot be impersonated (the server refuses them too). */
export function canImpersonate(user: AdminUser): boolean {
  return !user.roles.includes('admin') && !user.disabledAt && Boolean(user.emailVerifiedAt);
}

const displayName = (user: AdminUser) => [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

export function UserActions({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const action = useUserAction();
  const impersonate = useImpersonate();
  const [editingRoles, setEditingRoles] = useState(false);
  const [confirmImpersonation, setConfirmImpersonation] = useState(false);
  const name = displayName(user);

  async function run(kind: UserAction) {
    try {
      await action.mutateAsync({ id: user.id, action: kind });
      showSuccess({ message: t(`users.actions.done.${kind}`, { email: user.email }) });
    } catch (error) {
      showError({ message: errorText(error, 'admin') });
    }
  }

  function confirmDisable() {
    confirmAction({
      title: t('users.actions.disableTitle'),
      text: t('users.actions.disableText', { name, email: user.email }),
      confirmLabel: t('users.actions.disable'),
      color: 'red',
      onConfirm: () => void run('disable'),
    });
  }

  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      {canImpersonate(user) ? (
        <Button
          size="xs"
          variant="light"
          c="blue.9"
          leftSection={<IconUserShare size={16} aria-hidden />}
          onClick={() => setConfirmImpersonation(true)}
          aria-label={t('users.impersonate.buttonFor', { name })}
        >
          {t('users.impersonate.button')}
        </Button>
      ) : null}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            c="gray.8"
            size="lg"
            aria-label={t('users.actions.menuFor', { name })}
          >
            <IconDots size={20} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {!user.emailVerifiedAt ? (
            <Menu.Item leftSection={<IconCircleCheck size={16} aria-hidden />} onClick={() => void run('verify')}>
              {t('users.actions.verify')}
            </Menu.Item>
          ) : null}
          <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={() => void run('send-reset')}>
            {t('users.actions.sendReset')}
          </Menu.Item>
          <Menu.Item leftSection={<IconShieldCog size={16} aria-hidden />} onClick={() => setEditingRoles(true)}>
            {t('users.actions.roles')}
          </Menu.Item>
          {user.disabledAt ? (
            <Menu.Item leftSection={<IconLockOpen size={16} aria-hidden />} onClick={() => void run('enable')}>
              {t('users.actions.enable')}
            </Menu.Item>
          ) : (
            <Menu.Item color="red.9" leftSection={<IconLock size={16} aria-hidden />} onClick={confirmDisable}>
              {t('users.actions.disable')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <UserRolesModal
        key={user.roles.join()}
        user={user}
        opened={editingRoles}
        onClose={() => setEditingRoles(false)}
      />
      <Modal
        opened={confirmImpersonation}
        onClose={() => {
          impersonate.reset();
          setConfirmImpersonation(false);
        }}
        title={t('users.impersonate.title')}
      >
        <Stack>
          <Text size="sm">
            {t('users.impersonate.text', { name, email: user.email, company: user.companyName ?? '—' })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('users.impersonate.comeBack')}
          </Text>
          {impersonate.isError ? (
            <Alert color="red" variant="light" role="alert" data-testid="impersonate-error">
              {errorText(impersonate.error, 'admin')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmImpersonation(false)}>
              {t('actions.cancel')}
            </Button>
            <Button
              loading={impersonate.isPending}
              onClick={() => impersonate.mutate(user.id)}
              leftSection={<IconUserShare size={18} aria-hidden />}
              data-testid="impersonate-confirm"
            >
              {t('users.impersonate.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
