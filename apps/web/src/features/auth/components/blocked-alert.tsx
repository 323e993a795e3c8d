import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { VindicationInfoResponse } from '@portal/contracts';
import { VindicationDetails } from './vindication-details.tsx';

/** 'Login failure. Account has been blocked.' with the More dialog (description, sections 4 and 8). */
export function BlockedAlert({
  code,
  vindication,
}: {
  code: string;
  vindication: VindicationInfoResponse | undefined;
}) {
  const { t } = useTranslation(['auth', 'errors', 'common']);
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Alert
        color="red"
        variant="light"
        icon={<IconLock size={20} />}
        role="alert"
        data-testid="login-blocked"
        title={t('auth:login.blocked')}
      >
        {code === 'auth.system_disabled' ? <Text size="sm">{t('errors:auth.system_disabled')}</Text> : null}
        <Group justify="flex-end" mt="xs">
          <Button size="xs" variant="outline" color="red.9" onClick={open}>
            {t('auth:login.more')}
          </Button>
        </Group>
      </Alert>
      <Modal
        opened={opened}
        onClose={close}
        title={t('auth:vindication.title')}
        centered
        closeButtonProps={{ 'aria-label': t('common:close') }}
      >
        <VindicationDetails vindication={vindication} />
        <Group justify="flex-end" mt="lg">
          <Button onClick={close}>{t('common:close')}</Button>
        </Group>
      </Modal>
    </>
  );
}
