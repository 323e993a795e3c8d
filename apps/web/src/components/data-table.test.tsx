import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataColumn } from './data-table.tsx';

type Row = { id: string; name: string; count: number };
const rows: Row[] = [
  { id: 'a', name: 'Alpha', count: 1 },
  { id: 'b', name: 'Beta', count: 2 },
];
const columns: DataColumn<Row>[] = [
  { key: 'name', header: 'Name', card: 'title', cell: (row) => row.name },
  { key: 'count', header: 'Count', alignEnd: true, cell: (row) => row.count },
  {
    key: 'actions',
    header: 'Actions',
    hideHeader: true,
    card: 'actions',
    cell: (row) => <button>Edit {row.name}</button>,
  },
];

function renderTable(props: { rows?: Row[]; empty?: string } = {}) {
  return render(
    <MantineProvider env="test">
      <DataTable
        columns={columns}
        rows={props.rows ?? rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-testid': `row-${row.id}` })}
        minWidth={600}
        aria-label="Things"
        data-testid="things"
        empty={props.empty}
        cardsBelow="sm"
      />
    </MantineProvider>,
  );
}

/** Makes every `max-width` media query match, as on a phone (or none, as on a desktop). */
function onPhone(matches: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    Object.assign(new EventTarget(), {
      matches: matches && query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
    }),
  );
}

describe('DataTable', () => {
  it('is a table with column headers on a wide screen, the actions header for screen readers only', () => {
    onPhone(false);
    renderTable();
    const table = screen.getByRole('table', { name: 'Things' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Count', 'Actions']);
    expect(within(screen.getByTestId('row-b')).getByRole('button', { name: 'Edit Beta' })).toBeTruthy();
  });

  it('shows the empty text in a full-width row', () => {
    onPhone(false);
    renderTable({ rows: [], empty: 'Nothing yet' });
    expect(screen.getByRole('cell', { name: 'Nothing yet' }).getAttribute('colspan')).toBe('3');
  });

  it('becomes a list of cards on a phone: title and actions on top, other columns as labelled lines', () => {
    onPhone(true);
    renderTable();
    expect(screen.queryByRole('table')).toBeNull();
    const list = screen.getByRole('list', { name: 'Things' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    const card = screen.getByTestId('row-a');
    expect(within(card).getByText('Alpha')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Edit Alpha' })).toBeTruthy();
    expect(within(card).getByRole('term').textContent).toBe('Count');
    expect(within(card).getByRole('definition').textContent).toBe('1');
  });

  it('leaves out a card line whose cell is empty, rather than a bare label', () => {
    onPhone(true);
    render(
      <MantineProvider env="test">
        <DataTable
          columns={[
            ...columns,
            { key: 'note', header: 'Note', cell: (row: Row) => (row.id === 'a' ? 'Overdue' : null) },
          ]}
          rows={rows}
          rowKey={(row) => row.id}
          rowAttributes={(row) => ({ 'data-testid': `row-${row.id}` })}
          minWidth={600}
          cardsBelow="sm"
        />
      </MantineProvider>,
    );
    expect(
      within(screen.getByTestId('row-a'))
        .getAllByRole('term')
        .map((dt) => dt.textContent),
    ).toEqual(['Count', 'Note']);
    expect(
      within(screen.getByTestId('row-b'))
        .getAllByRole('term')
        .map((dt) => dt.textContent),
    ).toEqual(['Count']);
  });

  it('says the empty text instead of an empty list on a phone', () => {
    onPhone(true);
    renderTable({ rows: [], empty: 'Nothing yet' });
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByText('Nothing yet')).toBeTruthy();
  });
});
