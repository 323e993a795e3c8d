import { ActionIcon, Badge, Button, Code, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '@portal/contracts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { errorText, showFailure } from '../../../lib/error-text.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useKeysetList } from '../../../lib/use-keyset-list.ts';
import { useRevokeApiKeyMutation } from '../api/api-keys-mutations.ts';
import { apiKeysQuery } from '../api/api-keys-queries.ts';
import { CreateApiKeyModal } from './create-api-key-modal.tsx';

/** The call an ERP makes, with this portal's address (a key's secret is never put here). */
function curlExample(origin: string): string {
  return [
    `curl -X POST "${origin}/api/documents/inbound?direction=out" \\`,
    '  -H "X-API-Key: edi_…" \\',
    '  -H "Content-Type: application/edifact" \\',
    '  --data-binary @orders.edi',
  ].join('\n');
}

/**
 * The company's API keys (issue 11, decision 0023), for company administrators: how to call the inbound endpoint, the
 * list (cards on a phone), create (the secret shown once) and revoke with a confirmation.
 */
export function ApiKeysSection() {
  const { t, i18n } = useTranslation(['profile', 'validation']);
  const api = useApi();
  const list = useKeysetList(useInfiniteQuery(apiKeysQuery(api)));
  const revoke = useRevokeApiKeyMutation();
  const [creating, setCreating] = useState(false);
  const language = i18n.language;

  function confirmRevoke(key: ApiKey) {
    confirmAction({
      title: t('profile:apiKeys.revokeTitle', { name: key.name }),
      text: t('profile:apiKeys.revokeText', { prefix: key.prefix }),
      confirmLabel: t('profile:apiKeys.revoke'),
      color: 'red',
      onConfirm: () =>
        revoke.mutate(key.id, {
          onSuccess: () => showSuccess({ message: t('profile:apiKeys.revoked', { name: key.name }) }),
          onError: (error) => showFailure(error, 'profile'),
        }),
    });
  }

  const columns: DataColumn<ApiKey>[] = [
    {
      key: 'name',
      header: t('profile:apiKeys.fields.name'),
      card: 'title',
      cell: (k) => <Text fw={600}>{k.name}</Text>,
    },
    {
      key: 'prefix',
      header: t('profile:apiKeys.fields.prefix'),
      cell: (k) => (
        <Text span dir="ltr" ff="monospace">
          {k.prefix}…
        </Text>
      ),
    },
    {
      key: 'created',
      header: t('profile:apiKeys.fields.created'),
      cell: (k) => (
        <>
          {formatDateTime(language, k.createdAt)}
          {k.createdBy ? (
            <Text size="xs" c="dimmed">
              {t('profile:apiKeys.createdBy', { email: k.createdBy })}
            </Text>
          ) : null}
        </>
      ),
    },
    {
      key: 'lastUsed',
      header: t('profile:apiKeys.fields.lastUsed'),
      cell: (k) => (k.lastUsedAt ? formatDateTime(language, k.lastUsedAt) : t('profile:apiKeys.never')),
    },
    {
      key: 'status',
      header: t('profile:apiKeys.fields.status'),
      cell: (k) =>
        k.revokedAt ? (
          <Badge variant="dot" color="gray">
            {t('profile:apiKeys.revokedOn', { date: formatDateTime(language, k.revokedAt) })}
          </Badge>
        ) : (
          <Badge variant="dot" color="teal">
            {t('profile:apiKeys.active')}
          </Badge>
        ),
    },
    {
      key: 'actions',
      header: t('profile:apiKeys.actions'),
      hideHeader: true,
      card: 'actions',
      cell: (k) =>
        k.revokedAt ? null : (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label={t('profile:apiKeys.revoke')}>
              <ActionIcon
                variant="subtle"
                color="red"
                onClick={() => confirmRevoke(k)}
                aria-label={t('profile:apiKeys.revokeLabel', { name: k.name })}
              >
                <IconKey size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
    },
  ];

  return (
    <Stack gap="md" component="section" aria-labelledby="api-keys-title" data-testid="api-keys">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={3} size="h4" id="api-keys-title">
            {t('profile:apiKeys.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('profile:apiKeys.description')}
          </Text>
        </div>
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setCreating(true)}>
          {t('profile:apiKeys.create')}
        </Button>
      </Group>
      <div>
        <Text size="sm" id="api-keys-how-to">
          {t('profile:apiKeys.howTo')}
        </Text>
        <Code
          block
          dir="ltr"
          mt="xs"
          aria-describedby="api-keys-how-to"
          data-testid="api-keys-example"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {curlExample(window.location.origin)}
        </Code>
      </div>
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(k) => k.id}
        rowAttributes={(k) => ({ 'data-key-id': k.id })}
        minWidth={720}
        aria-label={t('profile:apiKeys.title')}
        emptyText={t('profile:apiKeys.empty')}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'profile') }}
      />
      {creating ? <CreateApiKeyModal onClose={() => setCreating(false)} /> : null}
    </Stack>
  );
}
