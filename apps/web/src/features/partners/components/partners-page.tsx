import { Anchor, Badge, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconLink, IconPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PARTNER_SORTS, PARTNER_STATUSES, type Partner } from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { ListToolbar } from '../../../components/list-toolbar.tsx';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { useDeletePartnerMutation } from '../api/partners-mutations.ts';
import { partnersQuery } from '../api/partners-queries.ts';
import { partnersFilter, type PartnersSearch } from '../partners-search.ts';
import { confirmDeletePartner } from './confirm-delete.ts';
import { PartnerBadges, PartnerDocTypes } from './partner-badges.tsx';
import { EditPartnerModal, PartnerFormModal } from './partner-form-modal.tsx';
import { PartnerRowActions } from './row-actions.tsx';

const route = getRouteApi('/app/partners');

/** /partners: the company's trading partners; adding, editing and deleting with COMPANY_PROFILE_MODIFY. */
export function PartnersPage() {
  const { t, i18n } = useTranslation('partners');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('COMPANY_PROFILE_MODIFY');
  const search = route.useSearch();
  const navigate = useNavigate();
  const filter = partnersFilter(search);
  const list = useKeysetList(useInfiniteQuery({ ...partnersQuery(api, filter), ...LOADED_BY_ROUTE }));
  const [editing, setEditing] = useState<Partner | 'new' | undefined>();
  const remove = useDeletePartnerMutation();
  const date = (iso: string | null) => (iso ? formatDateTime(i18n.language, iso) : t('never'));
  const setSearch = (next: PartnersSearch) =>
    navigate({ to: '/partners', search: { ...search, ...next }, replace: true });

  const columns: DataColumn<Partner>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      card: 'title',
      cell: (p) => (
        <Stack gap={2}>
          <Anchor
            fw={600}
            size="sm"
            renderRoot={(props) => <Link to="/partners/$partnerId" params={{ partnerId: p.id }} {...props} />}
          >
            {p.name}
          </Anchor>
          {p.linkedCompany ? (
            <Badge
              variant="light"
              color="blue"
              c="dark.7"
              tt="none"
              size="sm"
              leftSection={<IconLink size={12} aria-hidden />}
              data-testid="partner-linked"
            >
              {t('linked')}
            </Badge>
          ) : null}
        </Stack>
      ),
    },
    { key: 'gln', header: t('columns.gln'), cell: (p) => <Text size="sm">{p.gln}</Text> },
    { key: 'status', header: t('columns.status'), cell: (p) => <PartnerBadges partner={p} /> },
    { key: 'docTypes', header: t('columns.docTypes'), cell: (p) => <PartnerDocTypes partner={p} /> },
    { key: 'createdAt', header: t('columns.createdAt'), cell: (p) => <Text size="sm">{date(p.createdAt)}</Text> },
    {
      key: 'lastExchangeAt',
      header: t('columns.lastExchangeAt'),
      cell: (p) => <Text size="sm">{date(p.lastExchangeAt)}</Text>,
    },
  ];
  if (canModify)
    columns.push({
      key: 'actions',
      header: t('columns.actions'),
      hideHeader: true,
      card: 'actions',
      cell: (p) => (
        <PartnerRowActions
          name={p.name}
          onEdit={() => setEditing(p)}
          onDelete={() => confirmDeletePartner(p, (id, handlers) => remove.mutate(id, handlers))}
        />
      ),
    });

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        {canModify ? (
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        ) : null}
      </Group>
      <Text c="dimmed" size="sm" maw={760}>
        {t('intro')}
      </Text>
      <ListToolbar searchLabel={t('search')} search={search.search} onSearch={(value) => setSearch({ search: value })}>
        <Select
          label={t('filters.status')}
          w={160}
          clearable
          placeholder={t('filters.any')}
          data={PARTNER_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={search.status ?? null}
          onChange={(value) => setSearch({ status: PARTNER_STATUSES.find((s) => s === value) })}
        />
        <Select
          label={t('filters.testMode')}
          w={160}
          clearable
          placeholder={t('filters.any')}
          data={[
            { value: 'true', label: t('filters.testOnly') },
            { value: 'false', label: t('filters.productionOnly') },
          ]}
          value={search.testMode === undefined ? null : String(search.testMode)}
          onChange={(value) => setSearch({ testMode: value === null ? undefined : value === 'true' })}
        />
        <Select
          label={t('filters.sort')}
          w={190}
          allowDeselect={false}
          data={PARTNER_SORTS.map((s) => ({ value: s, label: t(`sort.${s}`) }))}
          value={filter.sort}
          onChange={(value) => setSearch({ sort: PARTNER_SORTS.find((s) => s === value) })}
        />
        <Select
          label={t('filters.order')}
          w={150}
          allowDeselect={false}
          data={[
            { value: 'asc', label: t('order.asc') },
            { value: 'desc', label: t('order.desc') },
          ]}
          value={filter.order}
          onChange={(value) => setSearch({ order: value === 'desc' ? 'desc' : 'asc' })}
        />
      </ListToolbar>
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(p) => p.id}
        rowAttributes={(p) => ({ 'data-testid': `partner-row-${p.gln}` })}
        minWidth={860}
        aria-label={t('caption')}
        data-testid="partners-table"
        emptyText={search.search || search.status || search.testMode !== undefined ? t('noMatches') : t('empty')}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'partners') }}
      />
      {editing === 'new' ? <PartnerFormModal onClose={() => setEditing(undefined)} /> : null}
      {editing && editing !== 'new' ? (
        <EditPartnerModal partnerId={editing.id} name={editing.name} onClose={() => setEditing(undefined)} />
      ) : null}
    </Stack>
  );
}
