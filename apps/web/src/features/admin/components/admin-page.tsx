import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BelowTableStates } from '../../../components/keyset-table.tsx';

/** One admin screen: its heading, what it is for, its main actions, then its content. */
export function AdminPage(props: { title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 20rem' }}>
          <Title order={2}>{props.title}</Title>
          {props.description ? (
            <Text c="dimmed" size="sm">
              {props.description}
            </Text>
          ) : null}
        </Stack>
        {props.actions ? <Group gap="sm">{props.actions}</Group> : null}
      </Group>
      {props.children}
    </Stack>
  );
}

/** How every admin list shows its states: under the table's headers, a failure with a retry. */
export function useAdminListStates(): { emptyText: string; states: BelowTableStates } {
  const { t } = useTranslation('admin');
  return {
    emptyText: t('list.empty'),
    states: {
      placement: 'below',
      loadingLabel: t('list.loading'),
      failedTitle: t('list.failed'),
      retryLabel: t('list.retry'),
      emptyTestId: 'admin-list-empty',
    },
  };
}
