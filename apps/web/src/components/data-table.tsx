import {
  Box,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  VisuallyHidden,
  useMantineTheme,
  type MantineBreakpoint,
  type TableTdProps,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import classes from './data-table.module.css';

export type DataColumn<T> = {
  key: string;
  header: string;
  /** The header is for screen readers only (an actions column). */
  hideHeader?: boolean;
  /** End-aligned header and cells (numbers). */
  alignEnd?: boolean;
  cell: (row: T) => ReactNode;
  /** Further props of this column's cells (weight, width, style). */
  cellProps?: TableTdProps;
  /** In the phone cards: 'title' heads the card, 'actions' sits beside the title, anything else is a labelled line. */
  card?: 'title' | 'actions';
};

type RowAttributes = Record<`data-${string}`, string | undefined>;

export type DataTableProps<T> = {
  columns: DataColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** `data-*` attributes of a row (test ids), on the table row and on the card alike. */
  rowAttributes?: (row: T) => RowAttributes;
  /** Below this width the table scrolls sideways. */
  minWidth: number;
  'aria-label'?: string;
  'data-testid'?: string;
  highlightOnHover?: boolean;
  /** A full-width row (or text under the cards) when there are no rows; nothing when absent. */
  empty?: ReactNode;
  /** Below this breakpoint the rows become stacked cards, so a phone never scrolls sideways. */
  cardsBelow?: MantineBreakpoint;
};

/** A striped table over column definitions; optionally a list of cards on narrow screens. */
export function DataTable<T>(props: DataTableProps<T>) {
  const theme = useMantineTheme();
  const breakpoint = props.cardsBelow ? theme.breakpoints[props.cardsBelow] : undefined;
  // Read at once (no server rendering): a phone should not flash the wide table first.
  const narrow = useMediaQuery(breakpoint ? `(max-width: calc(${breakpoint} - 0.1px))` : '(max-width: 0px)', false, {
    getInitialValueInEffect: false,
  });
  if (breakpoint && narrow) return <DataCards {...props} />;

  const { columns, rows } = props;
  return (
    // The viewport takes focus, so a table wider than the screen scrolls with the keyboard too (axe:
    // scrollable-region-focusable).
    <Table.ScrollContainer minWidth={props.minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
      <Table
        striped
        highlightOnHover={props.highlightOnHover ?? true}
        verticalSpacing="sm"
        aria-label={props['aria-label']}
        data-testid={props['data-testid']}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} scope="col" ta={column.alignEnd ? 'end' : undefined}>
                {column.hideHeader ? <VisuallyHidden>{column.header}</VisuallyHidden> : column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && props.empty ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>{props.empty}</Table.Td>
            </Table.Tr>
          ) : null}
          {rows.map((row) => (
            <Table.Tr key={props.rowKey(row)} {...props.rowAttributes?.(row)}>
              {columns.map((column) => (
                <Table.Td key={column.key} ta={column.alignEnd ? 'end' : undefined} {...column.cellProps}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One card a row: the title column and the actions on top, every other column as a labelled line. */
function DataCards<T>(props: DataTableProps<T>) {
  const titles = props.columns.filter((c) => c.card === 'title');
  const actions = props.columns.filter((c) => c.card === 'actions');
  const lines = props.columns.filter((c) => !c.card);
  if (props.rows.length === 0) return props.empty ?? null;
  return (
    <Stack
      component="ul"
      gap="sm"
      className={classes.cards}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
    >
      {props.rows.map((row) => (
        <Paper component="li" key={props.rowKey(row)} withBorder p="sm" {...props.rowAttributes?.(row)}>
          {/* Actions too wide beside the title (a long e-mail address) wrap under it, rather than squeezing it. */}
          <Group justify="space-between" align="flex-start" gap="xs">
            <Box miw={0} className={classes.title}>
              {titles.map((column) => (
                <Box key={column.key} fw={600}>
                  {column.cell(row)}
                </Box>
              ))}
            </Box>
            {actions.map((column) => (
              <Box key={column.key} ms="auto">
                {column.cell(row)}
              </Box>
            ))}
          </Group>
          <dl className={classes.lines}>
            {lines.map((column) => {
              const value = column.cell(row);
              // An empty cell (no overdue payment) is a blank in the table, but would be a bare label in a card.
              if (value === null || value === undefined || value === false || value === '') return null;
              return (
                <div key={column.key} className={classes.line}>
                  <Text component="dt" size="sm" c="dimmed">
                    {column.header}
                  </Text>
                  <Box component="dd" fz="sm" miw={0}>
                    {value}
                  </Box>
                </div>
              );
            })}
          </dl>
        </Paper>
      ))}
    </Stack>
  );
}
