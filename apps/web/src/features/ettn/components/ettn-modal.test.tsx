import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { NOTE_ID, ettnRoutes, ettnSession, ettnView, refusal } from '../ettn-test-data.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('e-TTN view', () => {
  it('shows the parties, route, cargo, vehicles with seals, signatures, acts, history and the progression', async () => {
    const app = await renderApp({ path: `/ettn/${NOTE_ID}`, session: ettnSession(), routes: ettnRoutes() });
    const dialog = await app.screen.findByRole('dialog', { name: 'e-TTN TTN-0001' });
    const view = await within(dialog).findByTestId('ettn-view');
    const parties = within(view).getByTestId('ettn-parties');
    expect(within(parties).getByText('Demo Supplier')).toBeTruthy();
    expect(within(parties).getByText('Demo Transport')).toBeTruthy();
    expect(within(parties).getByText('Consignee')).toBeTruthy();
    expect(within(view).getByText('Kyiv warehouse')).toBeTruthy();
    expect(within(view).getByText('1. Sunflower oil')).toBeTruthy();
    expect(within(view).getByText('S-001, S-002')).toBeTruthy();
    const signatures = within(view).getAllByTestId('ettn-signature');
    expect(signatures).toHaveLength(2);
    expect(within(signatures[1]!).getByText('Taras Carrier')).toBeTruthy();
    expect(within(signatures[1]!).getByText('Carrier')).toBeTruthy();
    const act = within(view).getByTestId('ettn-act');
    expect(within(act).getByText('Disagreement act')).toBeTruthy();
    expect(within(act).getByText('Awaiting signature')).toBeTruthy();
    expect(within(within(view).getByTestId('ettn-history')).getByText('14360570')).toBeTruthy();
    // PICKUP: Planned is passed, Picked up is the current step.
    const progress = within(view).getByTestId('ettn-progress');
    expect(progress.querySelector('[aria-current="step"]')?.textContent).toContain('Picked up');
    expect(app.api.calls.find((c) => c.path === '/api/ettns/documentView')?.body).toMatchObject({
      ettnDocumentId: { procId: NOTE_ID },
      isPending: false,
      language: 'en',
    });
  });

  it('asks for a pending upload as pending', async () => {
    const app = await renderApp({
      path: `/ettn/pending/${NOTE_ID}`,
      session: ettnSession(),
      routes: ettnRoutes({
        'POST /api/ettns/documentView': { body: ettnView({ isPending: true, status: 'PENDING' }) },
      }),
    });
    const dialog = await app.screen.findByRole('dialog', { name: 'e-TTN TTN-0001' });
    expect(within(dialog).getByText('Outside the usual progression: Pending.')).toBeTruthy();
    expect(app.api.calls.find((c) => c.path === '/api/ettns/documentView')?.body).toMatchObject({ isPending: true });
  });

  it('downloads the PDF from documentPdf under the note number', async () => {
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const app = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(),
      routes: ettnRoutes({
        'POST /api/ettns/documentPdf': { body: '%PDF-1.7', headers: { 'Content-Type': 'application/pdf' } },
      }),
    });
    // Files come through the authorized fetch (not the JSON client): the browser's fetch answers.
    vi.stubGlobal('fetch', app.api.fetch);
    const dialog = await app.screen.findByRole('dialog', { name: 'e-TTN TTN-0001' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saved).toEqual(['e-TTN_TTN-0001.pdf']));
    expect(app.api.calls.find((c) => c.path === '/api/ettns/documentPdf')?.body).toEqual({
      ettnDocumentId: { procId: NOTE_ID, isCurrent: true },
      isPending: false,
      language: 'en',
    });
  });

  it("says a refused PDF by its e-TTN code's text", async () => {
    const app = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(),
      routes: ettnRoutes({ 'POST /api/ettns/documentPdf': refusal('ettn.9') }),
    });
    // Files come through the authorized fetch (not the JSON client): the browser's fetch answers.
    vi.stubGlobal('fetch', app.api.fetch);
    const dialog = await app.screen.findByRole('dialog', { name: 'e-TTN TTN-0001' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Download PDF' }));
    expect((await within(dialog).findByTestId('ettn-pdf-error')).textContent).toBe(
      'Downloading in the current state is not allowed',
    );
  });

  it("says a refused view by its e-TTN code's text, and another company's note as not found", async () => {
    const refused = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(),
      routes: ettnRoutes({ 'POST /api/ettns/documentView': refusal('ettn.6', 404) }),
    });
    expect((await refused.screen.findByTestId('ettn-view-error')).textContent).toBe('TTN object not found');
    refused.unmount();

    const foreign = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(),
      routes: ettnRoutes({ 'POST /api/ettns/documentView': refusal('documents.not_found', 404) }),
    });
    expect((await foreign.screen.findByTestId('ettn-view-error')).textContent).toBe(
      'This e-TTN was not found, or your company is not one of its parties.',
    );
  });
});
