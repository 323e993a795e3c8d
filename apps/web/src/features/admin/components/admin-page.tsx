import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableProps } from '../../../components/data-table.tsx';
import { KeysetLoadMore } from '../../../components/load-more.tsx';
import type { KeysetList } from '../../../lib/use-keyset-list.ts';

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

/** Loading, failed and empty states of a list. */
export function ListState(props: { isLoading: boolean; isError: boolean; isEmpty: boolean; onRetry: () => void }) {
  const { t } = useTranslation('admin');
  if (props.isLoading)
    return (
      <Center py="xl">
        <Loader aria-label={t('list.loading')} />
      </Center>
    );
  if (props.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert" title={t('list.failed')}>
        <Button size="xs" variant="outline" color="red.9" mt="xs" onClick={props.onRetry}>
          {t('list.retry')}
        </Button>
      </Alert>
    );
  if (props.isEmpty)
    return (
      <Text c="dimmed" ta="center" py="xl" data-testid="admin-list-empty">
        {t('list.empty')}
      </Text>
    );
  return null;
}

/**
 * A keyset-paged admin list: the table (stacked cards on a phone), its loading, failed and empty states, and "Load
 * more" with how many rows are shown.
 */
export function AdminList<T>({ list, ...table }: { list: KeysetList<T> } & Omit<DataTableProps<T>, 'rows'>) {
  return (
    <>
      <DataTable rows={list.items} cardsBelow="sm" {...table} />
      <ListState
        isLoading={list.query.isLoading}
        isError={list.query.isError}
        isEmpty={list.items.length === 0}
        onRetry={() => void list.query.refetch()}
      />
      <KeysetLoadMore list={list} />
    </>
  );
}
