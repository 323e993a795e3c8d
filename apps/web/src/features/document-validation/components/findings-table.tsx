import {
  Box,
  Button,
  Group,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  useMantineTheme,
  type MantineBreakpoint,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowsSort, IconSearch, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { Fragment, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EdifactFinding } from '@portal/contracts';
import { ExplainButton } from '../../chat/index.ts';
import { describeFinding } from './finding-text.ts';
import classes from './findings-table.module.css';
import { SeverityBadge, type Severity } from './severity-badge.tsx';

export const FINDINGS_PAGE_SIZE = 50;
// Below this the findings are cards: with the navigation beside it, the table would leave the message a sliver.
const CARDS_BELOW: MantineBreakpoint = 'md';

/** Whether the result lists show as cards (narrow screens) rather than tables. */
export function useResultCards(): boolean {
  const theme = useMantineTheme();
  // Read at once: a phone should not flash the wide table first.
  return useMediaQuery(`(max-width: calc(${theme.breakpoints[CARDS_BELOW]} - 0.1px))`, false, {
    getInitialValueInEffect: false,
  });
}

// What is wrong comes first: the verdict, the line and the message need no sideways scrolling at a laptop's width,
// and the columns after them go from the finding's place and value to what all findings of a message share.
const COLUMNS = [
  'status',
  'line',
  'errorMessage',
  'path',
  'fieldName',
  'fieldValue',
  'format',
  'message',
  'type',
  'version',
  'documentNumber',
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

/** A path that may break after each `/` (`SG2[1]/NAD[1]/C082/3039`), so it never widens its column much. */
function PathText({ path }: { path: string }) {
  const parts = path.split('/');
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}

// Below this the table scrolls sideways inside its box; the first three columns still fit a laptop's content column.
const TABLE_MIN_WIDTH = 900;
const SELECTED = { background: 'var(--mantine-color-yellow-1)' };

type CardsProps = {
  rows: Row[];
  selectedIndex: number | undefined;
  onSelect: (finding: EdifactFinding, index: number) => void;
  onKey: (event: KeyboardEvent<HTMLElement>, row: Row) => void;
};

/** On a phone: one card a finding, what is wrong first, then every other column as a labelled line. */
function FindingCards({ rows, selectedIndex, onSelect, onKey }: CardsProps) {
  const { t, i18n } = useTranslation('edifact');
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  return (
    <Stack
      component="ul"
      gap="sm"
      className={classes.cards}
      aria-label={t('results.title')}
      data-testid="findings-cards"
    >
      {rows.map((row) => {
        const f = row.finding;
        const selected = row.index === selectedIndex;
        const lines: [Column, ReactNode][] = [
          ['path', f.path ? <PathText path={f.path} /> : null],
          ['fieldName', f.fieldName],
          ['fieldValue', f.actual ? <CodeText text={f.actual} /> : null],
          ['format', f.expected ? <CodeText text={f.expected} /> : null],
          ['type', f.messageType],
          ['version', f.version],
          ['documentNumber', f.documentNumber],
        ];
        return (
          <Paper
            component="li"
            key={row.index}
            withBorder
            p="sm"
            tabIndex={0}
            onClick={() => onSelect(f, row.index)}
            onKeyDown={(event: KeyboardEvent<HTMLElement>) => onKey(event, row)}
            data-selected={selected || undefined}
            data-testid="finding-row"
            data-line={f.line}
            className={classes.card}
            style={selected ? SELECTED : undefined}
          >
            <Group gap="xs" wrap="wrap">
              <SeverityBadge severity={f.severity} />
              <Text size="sm" c="gray.7">
                {t(`level.${f.level}`)}
              </Text>
              <Text size="sm" c="gray.7">
                {t('columns.line')}: {number(f.line)}
              </Text>
            </Group>
            <Group gap="xs" mt="xs" align="flex-start" wrap="nowrap" justify="space-between">
              <Text size="sm" fw={500} data-testid="finding-message">
                {row.text}
              </Text>
              <ExplainButton finding={f} text={row.text} />
            </Group>
            <dl className={classes.lines}>
              {lines.map(([column, value]) =>
                value ? (
                  <div key={column} className={classes.line}>
                    <Text component="dt" size="sm" c="gray.7">
                      {t(`columns.${column}`)}
                    </Text>
                    <Box component="dd" fz="sm" miw={0} {...(column === 'path' ? { ff: 'monospace', dir: 'ltr' } : {})}>
                      {value}
                    </Box>
                  </div>
                ) : null,
              )}
            </dl>
          </Paper>
        );
      })}
    </Stack>
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
  const cards = useResultCards();
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
  const onRowKey = (event: KeyboardEvent<HTMLElement>, row: Row) => {
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
        {cards && (
          // The cards have no column headings to sort by: the same sorts, ascending, from a list.
          <Select
            label={t('results.sortLabel')}
            data={[
              { value: 'document', label: t('results.documentOrder') },
              ...COLUMNS.map((column) => ({ value: column, label: t(`columns.${column}`) })),
            ]}
            value={sort?.column ?? 'document'}
            onChange={(value) => {
              setPage(1);
              const column = COLUMNS.find((c) => c === value);
              setSort(column ? { column, direction: 'ascending' } : undefined);
            }}
            allowDeselect={false}
            w={{ base: '100%', xs: 220 }}
            size="sm"
          />
        )}
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

      {cards ? (
        <FindingCards rows={pageRows} selectedIndex={selectedIndex} onSelect={onSelect} onKey={onRowKey} />
      ) : (
        <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} type="native">
          <Table
            striped
            highlightOnHover
            withTableBorder
            verticalSpacing="xs"
            horizontalSpacing={8}
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
                    <Table.Th key={column} aria-sort={active ?? 'none'} style={{ verticalAlign: 'bottom' }}>
                      <UnstyledButton
                        onClick={() => toggleSort(column)}
                        fw={700}
                        fz="sm"
                        title={t('results.sortBy', { column: t(`columns.${column}`) })}
                      >
                        {/* A long heading wraps between its words rather than widening its column. */}
                        <Group gap={4} wrap="nowrap" align="flex-end">
                          <span>{t(`columns.${column}`)}</span>
                          <Icon size={14} aria-hidden style={{ flex: 'none' }} />
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
                    style={{ cursor: 'pointer', ...(selected ? SELECTED : {}) }}
                  >
                    <Table.Td>
                      <SeverityBadge severity={f.severity} />
                    </Table.Td>
                    <Table.Td>{number(f.line)}</Table.Td>
                    <Table.Td miw={240}>
                      <Stack gap={4} align="flex-start">
                        <span data-testid="finding-message">{row.text}</span>
                        <ExplainButton finding={f} text={row.text} />
                      </Stack>
                    </Table.Td>
                    <Table.Td ff="monospace" dir="ltr">
                      <PathText path={f.path} />
                    </Table.Td>
                    <Table.Td miw={120}>{f.fieldName}</Table.Td>
                    <Table.Td maw={200}>
                      <CodeText text={f.actual} />
                    </Table.Td>
                    <Table.Td maw={220}>
                      <CodeText text={f.expected} />
                    </Table.Td>
                    <Table.Td>{t(`level.${f.level}`)}</Table.Td>
                    <Table.Td>{f.messageType}</Table.Td>
                    <Table.Td>{f.version}</Table.Td>
                    <Table.Td>{f.documentNumber}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

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
