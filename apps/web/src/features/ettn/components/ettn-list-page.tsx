import { Anchor, Badge, Button, Collapse, Group, Stack, Text, Title } from '@mantine/core';
import { IconFilter, IconPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, Outlet, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EttnListItem } from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { ettnListQuery } from '../api/ettn-queries.ts';
import { ETTN_CONSIGNOR_ROLE } from '../ettn-roles.ts';
import { activeEttnFilterCount, validateEttnSearch, type EttnListKind, type EttnSearch } from '../ettn-search.ts';
import { EttnFilters } from './ettn-filters.tsx';
import { dayText, isMyTurn, roleLabel, stepLabel } from './ettn-labels.ts';
import { EttnStatusBadge } from './ettn-status-badge.tsx';

const registeredRoute = getRouteApi('/app/ettn');
const pendingRoute = getRouteApi('/app/ettn/pending');

/** /ettn: the registered notes naming one of the company's aliases. */
export function EttnRegisteredPage() {
  const raw = registeredRoute.useSearch();
  const search = useMemo(() => validateEttnSearch(raw), [raw]);
  return <EttnListPage kind="registered" search={search} />;
}

/** /ettn/pending: the company's uploads not yet signed and sent. */
export function EttnPendingPage() {
  const raw = pendingRoute.useSearch();
  const search = useMemo(() => validateEttnSearch(raw), [raw]);
  return <EttnListPage kind="pending" search={search} />;
}

type Party = EttnListItem['consignor'];

function PartyCell({ party }: { party: Party }) {
  if (!party) return <>—</>;
  return (
    <Stack gap={0}>
      <Text size="sm">{party.name ?? '—'}</Text>
      {party.edrpou ? (
        <Text size="xs" c="dimmed">
          {party.edrpou}
        </Text>
      ) : null}
    </Stack>
  );
}

function NumberLink({ row, kind, search }: { row: EttnListItem; kind: EttnListKind; search: EttnSearch }) {
  const { t } = useTranslation('ettn');
  const label = row.number ?? t('noNumber');
  return (
    <Anchor
      fw={600}
      aria-label={t('open', { number: label })}
      renderRoot={(props) =>
        kind === 'pending' ? (
          <Link {...props} to="/ettn/pending/$id" params={{ id: row.id }} search={search} />
        ) : (
          <Link {...props} to="/ettn/$id" params={{ id: row.id }} search={search} />
        )
      }
    >
      {label}
    </Anchor>
  );
}

function StepCell({ row }: { row: EttnListItem }) {
  const { t } = useTranslation('ettn');
  if (!row.currentStep && row.mustAct.length === 0) return <Text size="sm">{t('finished')}</Text>;
  return (
    <Stack gap={2}>
      {row.currentStep ? <Text size="sm">{stepLabel(t, row.currentStep)}</Text> : null}
      {row.mustAct.length > 0 ? (
        <Text size="xs" c="dimmed">
          {t('mustAct', { roles: row.mustAct.map((r) => roleLabel(t, r)).join(', ') })}
        </Text>
      ) : null}
      {isMyTurn(row.mustAct, row.myRoles) ? (
        <Badge size="sm" color="orange" c="dark.7" variant="light" tt="none" data-testid="ettn-your-turn">
          {t('yourTurn')}
        </Badge>
      ) : null}
    </Stack>
  );
}

/**
 * The registered or the pending notes: status, number, date, parties, vehicle, route and the step the note waits for
 * (and who must take it); filters in the address, keyset "Load more", cards on a phone. A note opens over the list.
 */
export function EttnListPage({ kind, search }: { kind: EttnListKind; search: EttnSearch }) {
  const { t, i18n } = useTranslation('ettn');
  const api = useApi();
  const navigate = useNavigate();
  const canCreate = usePermissions().hasRole(ETTN_CONSIGNOR_ROLE);
  const list = useKeysetList(useInfiniteQuery({ ...ettnListQuery(api, kind, search), ...LOADED_BY_ROUTE }));
  const filterCount = activeEttnFilterCount(search);
  const [filtersOpen, setFiltersOpen] = useState(filterCount > 0);
  const setSearch = (next: EttnSearch) =>
    void navigate({ to: kind === 'pending' ? '/ettn/pending' : '/ettn', search: next, replace: true });

  const columns: DataColumn<EttnListItem>[] = [
    {
      key: 'number',
      header: t('columns.number'),
      card: 'title',
      cell: (row) => <NumberLink {...{ row, kind, search }} />,
    },
    {
      key: 'status',
      header: t('columns.status'),
      card: 'actions',
      cell: (row) => <EttnStatusBadge status={row.status} />,
    },
    { key: 'date', header: t('columns.date'), cell: (row) => dayText(row.issueDate, i18n.language) },
    { key: 'consignor', header: t('columns.consignor'), cell: (row) => <PartyCell party={row.consignor} /> },
    { key: 'consignee', header: t('columns.consignee'), cell: (row) => <PartyCell party={row.consignee} /> },
    { key: 'carrier', header: t('columns.carrier'), cell: (row) => <PartyCell party={row.carrier} /> },
    { key: 'vehicle', header: t('columns.vehicle'), cell: (row) => row.vehicle ?? '—' },
    {
      key: 'route',
      header: t('columns.route'),
      // Addresses are long: the route wraps in a column of its own width rather than widening the table.
      cellProps: { style: { minWidth: 160, maxWidth: 260 } },
      cell: (row) =>
        row.route.from || row.route.to ? (
          <Text size="sm">{t('routeText', { from: row.route.from ?? '—', to: row.route.to ?? '—' })}</Text>
        ) : (
          '—'
        ),
    },
    { key: 'step', header: t('columns.step'), cell: (row) => <StepCell row={row} /> },
  ];

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t(`${kind}.title`)}</Title>
        <Group gap="xs" wrap="wrap">
          {canCreate ? (
            <Button
              leftSection={<IconPlus size={18} aria-hidden />}
              renderRoot={(props) => <Link {...props} to="/ettn/new" />}
              data-testid="ettn-new"
            >
              {t('create.open')}
            </Button>
          ) : null}
          <Button
            variant={filtersOpen ? 'filled' : 'light'}
            leftSection={<IconFilter size={18} aria-hidden />}
            rightSection={
              filterCount > 0 ? (
                <Badge size="sm" color="dark" variant="white" aria-label={t('filters.active', { count: filterCount })}>
                  {filterCount}
                </Badge>
              ) : null
            }
            aria-expanded={filtersOpen}
            aria-controls="ettn-filters"
            onClick={() => setFiltersOpen((o) => !o)}
          >
            {t('filters.toggle')}
          </Button>
        </Group>
      </Group>
      <Collapse expanded={filtersOpen} id="ettn-filters">
        {filtersOpen ? <EttnFilters search={search} onApply={setSearch} /> : null}
      </Collapse>
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-testid': `ettn-row-${row.number ?? row.id}` })}
        minWidth={1000}
        aria-label={t(`${kind}.title`)}
        data-testid="ettn-table"
        emptyText={filterCount > 0 ? t('noMatches') : t(`${kind}.empty`)}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'ettn') }}
      />
      <Outlet />
    </Stack>
  );
}
