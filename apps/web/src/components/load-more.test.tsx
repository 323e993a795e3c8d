import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LoadMore, type LoadMoreProps } from './load-more.tsx';

function renderLoadMore(props: Partial<LoadMoreProps>) {
  const onLoadMore = vi.fn();
  const view = render(
    <MantineProvider env="test">
      <div data-testid="under-list">
        <LoadMore shown={0} total={undefined} hasMore={false} loading={false} onLoadMore={onLoadMore} {...props} />
      </div>
    </MantineProvider>,
  );
  return { ...view, onLoadMore };
}

describe('LoadMore', () => {
  it('shows nothing under an empty list: no "Showing 0 of 0" below its empty text', () => {
    renderLoadMore({ shown: 0, total: 0 });
    expect(screen.getByTestId('under-list').textContent).toBe('');
    expect(screen.queryByText(/Showing/)).toBeNull();
  });

  it('says how many of how many when the API counted them, and loads more while there are further pages', async () => {
    const { onLoadMore } = renderLoadMore({ shown: 50, total: 120, hasMore: true });
    expect(screen.getByText('Showing 50 of 120')).toBeTruthy();
    screen.getByRole('button', { name: 'Load more' }).click();
    expect(onLoadMore).toHaveBeenCalledOnce();
  });

  it('without a count from the API, knows the total only once the last page is in', () => {
    const { rerender } = renderLoadMore({ shown: 50, hasMore: true });
    expect(screen.getByTestId('list-count').textContent).toBe('');
    expect(screen.getByRole('button', { name: 'Load more' })).toBeTruthy();
    rerender(
      <MantineProvider env="test">
        <LoadMore shown={63} total={undefined} hasMore={false} loading={false} onLoadMore={() => {}} />
      </MantineProvider>,
    );
    expect(screen.getByText('Showing 63 of 63')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});
