import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "Load more" for keyset pages, with how many of how many are shown. */
export function LoadMore(props: { shown: number; total: number | undefined; hasMore: boolean; loading: boolean; onLoadMore: () => void }) {
  const { t } = useTranslation('user-management');
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {props.total === undefined ? null : t('list.shown', { shown: props.shown, total: props.total })}
      </Text>
      {props.hasMore ? (
        <Button variant="light" onClick={props.onLoadMore} loading={props.loading}>
          {t('list.loadMore')}
        </Button>
      ) : null}
    </Group>
  );
}
