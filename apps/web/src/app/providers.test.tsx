import { Modal } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createFetchMock } from '../test/fetch-mock.ts';
import { AppProviders } from './providers.tsx';
import { createServices } from './services.ts';

function renderWithProviders(children: React.ReactNode) {
  const api = createFetchMock({});
  const services = createServices({
    fetch: api.fetch,
    storage: window.localStorage,
    now: () => Date.now(),
    onErrorToast: vi.fn(),
  });
  return render(
    <AppProviders services={services} dir="ltr" env="test">
      {children}
    </AppProviders>,
  );
}

describe('AppProviders', () => {
  it('names the close button of a dialog that does not name it itself, in the current language', async () => {
    renderWithProviders(
      <Modal opened onClose={() => undefined} title="A dialog without its own close label">
        body
      </Modal>,
    );
    expect(await screen.findByRole('button', { name: 'Close' })).toHaveProperty('tagName', 'BUTTON');
  });

  it('keeps a label a dialog sets itself', async () => {
    renderWithProviders(
      <Modal opened onClose={() => undefined} title="Dialog" closeButtonProps={{ 'aria-label': 'Dismiss the report' }}>
        body
      </Modal>,
    );
    expect(await screen.findByRole('button', { name: 'Dismiss the report' })).toHaveProperty('tagName', 'BUTTON');
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });
});
