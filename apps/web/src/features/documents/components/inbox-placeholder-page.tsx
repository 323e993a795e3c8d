import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSignedInUser } from '../../../app/session/use-signed-in-user.ts';

/** /documents/in inside the main layout, until the document list arrives with its own issue. */
export function InboxPlaceholderPage() {
  const { t } = useTranslation('common');
  const user = useSignedInUser();
  return (
    <Stack gap="md" p="md">
      <Title order={1}>{t('inbox.title')}</Title>
      <Paper withBorder p="lg" radius="md">
        {user ? (
          <Text data-testid="signed-in-name" fw={600}>
            {user.name}
          </Text>
        ) : null}
        <Text c="dimmed">{t('inbox.comingSoon')}</Text>
      </Paper>
    </Stack>
  );
}
