import { Button, Modal, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/api-context.tsx';
import { publicConfigQuery } from '../api/auth-queries.ts';

/**
 * The prompt after a valid login of the old EDI system (description, section 2): a new e-mail-based user must be
 * created; the old version stays reachable.
 */
export function LegacyPrompt({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation(['auth', 'common']);
  const api = useApi();
  const config = useQuery({ ...publicConfigQuery(api), enabled: opened });
  const legacyUrl = config.data?.legacyEdiUrl ?? undefined;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('legacy.title')}
      centered
      size="md"
      data-testid="legacy-prompt"
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <Stack>
        <Text>{t('legacy.text')}</Text>
        <Text size="sm" c="dimmed">
          {t('legacy.linkNote')}
        </Text>
        <Button component={Link} to="/register" leftSection={<IconUserPlus size={18} aria-hidden />} fullWidth>
          {t('legacy.createAccount')}
        </Button>
        <Button
          component="a"
          href={legacyUrl ?? '#'}
          target="_blank"
          rel="noopener noreferrer"
          variant="default"
          leftSection={<IconExternalLink size={18} aria-hidden />}
          fullWidth
          disabled={!legacyUrl}
          data-testid="legacy-old-version"
        >
          {t('legacy.oldVersion')}
        </Button>
      </Stack>
    </Modal>
  );
}
