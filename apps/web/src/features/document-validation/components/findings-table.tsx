import { Button, Group, Pagination, Select, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconArrowsSort, IconSearch, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EdifactFinding } from '@portal/contracts';
import { describeFinding } from './finding-text.ts';
import { SeverityBadge, type Severity } from './severity-badge.tsx';

export const FINDINGS_PAGE_SIZE = 50;

const COLUMNS = [
  'path',
  'fieldName',
  'type',
  'version',
  'documentNumber',
  'status',
  'line',
  'message',
  'errorMessage',
  'format',
  'fieldValue',
] as const;
type Column = (typeof COLUMNS)[number];
type Sort = { column: Column; direction: 'ascending' | 'descending' } | undefined;
type Level = EdifactFinding['level'];

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const LEVEL_RANK: Record<Level, number> = { syntax: 0, specification: 1, map: 2 };

/** A finding with its translated text and its place in the server's order (by position in the document). */
type Row = { finding: EdifactFinding; text: string; index: number };

function sortValue(row: Row, column: Column): string | number {
  const f = row.finding;
  switch (column) {
    case 'path':
      return f.path;
    case 'fieldName':
      return f.fieldName ?? '';
    case 'type':
      return f.messageType ?? '';
    case 'version':
      return f.version ?? '';
    case 'documentNumber':
      return f.documentNumber ?? '';
    case 'status':
      return SEVERITY_RANK[f.severity];
    case 'line':
      return f.offset;
    case 'message':
      return LEVEL_RANK[f.level];
    case 'errorMessage':
      return row.text;
    case 'format':
      return f.expected ?? '';
    case 'fieldValue':
      return f.actual ?? '';
  }
}

/** A format or value: monospace, left to right, at most three lines (a guide's code list can be long); all of it on hover. */
function CodeText({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <Text ff="monospace" fz="sm" dir="ltr" lineClamp={3} title={text} style={{ overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

export type FindingsTableProps = {
  findings: readonly EdifactFinding[];
  /** Index (in `findings`) of the finding whose line is shown in the paste area. */
  selectedIndex: number | undefined;
  onSelect: (finding: EdifactFinding, index: number) => void;
};

/** The result list: every finding with the columns of the description, sortable, filterable and paged. */
export function FindingsTable({ findings, selectedIndex, onSelect }: FindingsTableProps) {
  const { t, i18n } = useTranslation('edifact');
  const [sort, setSort] = useState<Sort>(undefined);
  const [severity, setSeverity] = useState<Severity | 'all'>('all');
  const [level, setLevel] = useState<Level | 'all'>('all');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);

  const rows = useMemo<Row[]>(() => {
    const translator = {
      t,
      exists: (key: string) => i18n.exists(key, { ns: 'edifact' }),
      isolate: i18n.dir() === 'rtl',
    };
    return findings.map((finding, index) => ({ finding, text: describeFinding(translator, finding), index }));
  }, [findings, t, i18n]);

  const collator = useMemo(
    () => new Intl.Collator(i18n.language, { numeric: true, sensitivity: 'base' }),
    [i18n.language],
  );

  const visible = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase(i18n.language);
    const filtered = rows.filter(({ finding: f, text }) => {
      if (severity !== 'all' && f.severity !== severity) return false;
      if (level !== 'all' && f.level !== level) return false;
      if (!needle) return true;
      return [
        f.path,
        f.fieldName,
        f.messageType,
        f.version,
        f.documentNumber,
        f.expected,
        f.actual,
        f.code,
        text,
        String(f.line),
      ].some((v) => v?.toLocaleLowerCase(i18n.language).includes(needle));
    });
    if (!sort) return filtered;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    return [...filtered].sort((a, b) => {
      const x = sortValue(a, sort.column);
      const y = sortValue(b, sort.column);
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
      return order * sign || a.index - b.index;
    });
  }, [rows, severity, level, search, sort, collator, i18n.language]);

  const pages = Math.max(1, Math.ceil(visible.length / FINDINGS_PAGE_SIZE));
  const current = Math.min(page, pages);
  const pageRows = visible.slice((current - 1) * FINDINGS_PAGE_SIZE, current * FINDINGS_PAGE_SIZE);
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n);

  const toggleSort = (column: Column) => {
    setPage(1);
    setSort((previous) =>
      previous?.column !== column
        ? { column, direction: 'ascending' }
        : previous.direction === 'ascending'
          ? { column, direction: 'descending' }
          : undefined,
    );
  };
  const filtersOn = severity !== 'all' || level !== 'all' || search !== '';
  const clearFilters = () => {
    setSeverity('all');
    setLevel('all');
    setSearch('');
    setPage(1);
  };
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, row: Row) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(row.finding, row.index);
    }
  };

  return (
    <Stack gap="sm">
      <Group align="end" gap="sm" wrap="wrap" role="group" aria-label={t('results.filters')}>
        <TextInput
          label={t('results.search')}
          placeholder={t('results.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', sm: 280 }}
          size="sm"
        />
        <Select
          label={t('results.severity')}
          data={[
            { value: 'all', label: t('results.all') },
            ...(['error', 'warning', 'info'] as const).map((s) => ({ value: s, label: t(`severity.${s}`) })),
          ]}
          value={severity}
          onChange={(value) => {
            setSeverity((value as Severity | 'all' | null) ?? 'all');
            setPage(1);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 180 }}
          size="sm"
        />
        <Select
          label={t('results.level')}
          data={[
            { value: 'all', label: t('results.all') },
            ...(['syntax', 'specification', 'map'] as const).map((l) => ({ value: l, label: t(`level.${l}`) })),
          ]}
          value={level}
          onChange={(value) => {
            setLevel((value as Level | 'all' | null) ?? 'all');
            setPage(1);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 180 }}
          size="sm"
        />
        {filtersOn && (
          <Button variant="subtle" size="sm" onClick={clearFilters}>
            {t('results.clearFilters')}
          </Button>
        )}
      </Group>

      <Group gap="md" wrap="wrap">
        <Text size="sm" c="gray.7" aria-live="polite">
          {visible.length === 0
            ? t('results.noMatch')
            : t('results.shown', {
                from: number((current - 1) * FINDINGS_PAGE_SIZE + 1),
                to: number((current - 1) * FINDINGS_PAGE_SIZE + pageRows.length),
                total: number(visible.length),
              })}
        </Text>
        {visible.length > 0 && (
          <Text size="sm" c="gray.7">
            {t('results.rowHint')}
          </Text>
        )}
      </Group>

      <Table.ScrollContainer minWidth={1200} type="native">
        <Table
          striped
          highlightOnHover
          withTableBorder
          verticalSpacing="xs"
          fz="sm"
          aria-label={t('results.title')}
          data-testid="findings-table"
        >
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => {
                const active = sort?.column === column ? sort.direction : undefined;
                const Icon =
                  active === 'ascending'
                    ? IconSortAscending
                    : active === 'descending'
                      ? IconSortDescending
                      : IconArrowsSort;
                return (
                  <Table.Th key={column} aria-sort={active ?? 'none'} style={{ whiteSpace: 'nowrap' }}>
                    <UnstyledButton
                      onClick={() => toggleSort(column)}
                      fw={700}
                      fz="sm"
                      title={t('results.sortBy', { column: t(`columns.${column}`) })}
                    >
                      <Group gap={4} wrap="nowrap">
                        {t(`columns.${column}`)}
                        <Icon size={14} aria-hidden />
                      </Group>
                    </UnstyledButton>
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pageRows.map((row) => {
              const f = row.finding;
              const selected = row.index === selectedIndex;
              return (
                <Table.Tr
                  key={row.index}
                  tabIndex={0}
                  onClick={() => onSelect(f, row.index)}
                  onKeyDown={(event) => onRowKey(event, row)}
                  data-selected={selected || undefined}
                  data-testid="finding-row"
                  data-line={f.line}
                  style={{ cursor: 'pointer', ...(selected ? { background: 'var(--mantine-color-yellow-1)' } : {}) }}
                >
                  <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }} dir="ltr">
                    {f.path}
                  </Table.Td>
                  <Table.Td>{f.fieldName}</Table.Td>
                  <Table.Td>{f.messageType}</Table.Td>
                  <Table.Td>{f.version}</Table.Td>
                  <Table.Td>{f.documentNumber}</Table.Td>
                  <Table.Td>
                    <SeverityBadge severity={f.severity} />
                  </Table.Td>
                  <Table.Td>{number(f.line)}</Table.Td>
                  <Table.Td>{t(`level.${f.level}`)}</Table.Td>
                  <Table.Td miw={260}>{row.text}</Table.Td>
                  <Table.Td miw={160} maw={260}>
                    <CodeText text={f.expected} />
                  </Table.Td>
                  <Table.Td miw={120} maw={260}>
                    <CodeText text={f.actual} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      {pages > 1 && (
        <nav aria-label={t('results.pagination')}>
          <Pagination
            total={pages}
            value={current}
            onChange={setPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': t(`results.page.${control}`) })}
            getItemProps={(n) => ({ 'aria-label': t('results.page.number', { page: number(n) }) })}
          />
        </nav>
      )}
    </Stack>
  );
}
