import { Button, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconFilePlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DraftKind } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { draftKindsQuery, useCreateDraftMutation } from '../api/drafts-queries.ts';

/**
 * The outbox's "New document" menu: the kinds some partner may receive. A kind with one partner starts addressed to
 * it; with several, the form asks.
 */
export function NewDocumentMenu() {
  const { t, ready } = useTranslation('drafts');
  const api = useApi();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const kinds = useQuery({ ...draftKindsQuery(api), enabled: opened });
  const create = useCreateDraftMutation();
  if (!ready) return null;
  const start = async (kind: DraftKind, partners: { id: string }[]) => {
    const draft = await create.mutateAsync({ kind, partnerId: partners.length === 1 ? partners[0]!.id : null });
    void navigate({ to: '/drafts/$id', params: { id: draft.id } });
  };
  const offered = kinds.data?.kinds ?? [];
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          leftSection={<IconFilePlus size={18} aria-hidden />}
          rightSection={<IconChevronDown size={16} aria-hidden />}
          loading={create.isPending}
          aria-label={t('menu.label')}
          data-testid="new-document"
        >
          {t('menu.open')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {kinds.isPending ? <Menu.Label>…</Menu.Label> : null}
        {kinds.isSuccess && offered.length === 0 ? (
          <>
            <Text size="sm" p="xs" maw={280}>
              {t('menu.none')}
            </Text>
            <Menu.Item renderRoot={(props) => <Link {...props} to="/partners" />}>{t('menu.partners')}</Menu.Item>
          </>
        ) : null}
        {offered.map((k) => (
          <Menu.Item key={k.kind} onClick={() => void start(k.kind, k.partners)} data-testid={`new-${k.kind}`}>
            {t(`kinds.${k.kind}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
