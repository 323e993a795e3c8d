import { Anchor, Group, Text, Timeline, Title } from '@mantine/core';
import { IconArrowDownLeft, IconArrowUpRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { DocumentStatus } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { documentChainQuery } from '../api/documents-queries.ts';
import { kindLabel } from './document-columns.tsx';
import { DocumentStatusBadge, businessStatusLabel } from './document-status-badge.tsx';

/**
 * The document's chain as one timeline (issue 12, part 4): the order, its responses, despatch advices, invoices and
 * acknowledgements, oldest first, each with its direction, status and business status; this document marked.
 */
export function DocumentChain({ id }: { id: string }) {
  const { t, i18n } = useTranslation('documents');
  const api = useApi();
  const chain = useQuery(documentChainQuery(api, id));
  const items = chain.data?.items ?? [];
  const current = items.findIndex((item) => item.id === id);
  return (
    <section aria-labelledby="doc-chain">
      <Title order={3} size="h4" id="doc-chain" mb="xs">
        {t('view.chain')}
      </Title>
      {items.length <= 1 ? (
        <Text c="dimmed">{t('view.chainEmpty')}</Text>
      ) : (
        <Timeline active={current} bulletSize={22} lineWidth={2} data-testid="document-chain">
          {items.map((item) => {
            const Icon = item.direction === 'in' ? IconArrowDownLeft : IconArrowUpRight;
            const title = `${kindLabel(t, item.kind)} ${item.number ?? ''}`.trim();
            return (
              <Timeline.Item
                key={item.id}
                bullet={<Icon size={14} aria-hidden />}
                title={
                  item.id === id ? (
                    <Text fw={700} size="sm" aria-current="page">
                      {title} ({t('view.chainCurrent')})
                    </Text>
                  ) : (
                    <Anchor
                      size="sm"
                      fw={600}
                      renderRoot={(props) => <Link {...props} to="/documents/$id" params={{ id: item.id }} />}
                    >
                      {title}
                    </Anchor>
                  )
                }
                data-testid="chain-item"
              >
                <Group gap="xs" wrap="wrap" mt={4}>
                  <Text size="xs" c="dimmed">
                    {t(item.direction === 'in' ? 'view.chainReceived' : 'view.chainSent')} ·{' '}
                    {formatDateTime(i18n.language, item.timestamp)}
                  </Text>
                  <DocumentStatusBadge status={item.status as DocumentStatus} />
                  {item.businessStatus ? <Text size="xs">{businessStatusLabel(t, item.businessStatus)}</Text> : null}
                </Group>
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </section>
  );
}
