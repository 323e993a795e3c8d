import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EttnSupportingDocument } from '@portal/contracts';
import { renderApp } from '../../../test/render-app.tsx';
import { NOTE_ID, ettnRoutes, ettnSession, ettnView, refusal } from '../ettn-test-data.ts';

const DOC_ID = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const doc = (overrides: Partial<EttnSupportingDocument> = {}): EttnSupportingDocument => ({
  id: DOC_ID,
  type: 'Certificate_of_quality',
  status: 'SIGNED',
  fileName: 'quality.pdf',
  size: 1024,
  attachedBy: 'CZ',
  signedBy: ['CZ'],
  createdAt: '2026-11-20T09:00:00.000Z',
  ...overrides,
});

async function openSection(routes: Parameters<typeof ettnRoutes>[0]) {
  const app = await renderApp({ path: `/ettn/${NOTE_ID}`, session: ettnSession(), routes: ettnRoutes(routes) });
  const dialog = await app.screen.findByRole('dialog', { name: 'e-TTN TTN-0001' });
  return { app, section: await within(dialog).findByTestId('ettn-supporting') };
}

describe("the e-TTN's supporting documents", () => {
  it('lists them by translated type, status and signers, and countersigns one as the company’s role', async () => {
    const { app, section } = await openSection({
      'POST /api/ettns/documentView': { body: ettnView({ supportingDocuments: [doc()] }) },
      [`POST /api/ettns/supportingDocuments/${DOC_ID}/sign`]: { body: doc({ signedBy: ['CZ', 'CA'] }) },
    });
    const item = within(section).getByTestId('ettn-supporting-document');
    expect(within(item).getByText('Certificate of quality')).toBeTruthy();
    expect(within(item).getByText('quality.pdf')).toBeTruthy();
    expect(within(item).getByText('Signed by: Consignor')).toBeTruthy();
    // Attached by the consignor: the carrier may countersign it, not withdraw it.
    expect(within(item).queryByTestId('ettn-supporting-cancel')).toBeNull();
    await app.user.click(within(item).getByRole('button', { name: 'Sign the Certificate of quality' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.path === `/api/ettns/supportingDocuments/${DOC_ID}/sign`)?.body).toEqual({
        signingPartyRoleCode: 'CA',
      }),
    );
  });

  it("withdraws the company's own document, and says a refusal in its e-TTN code's words", async () => {
    const { app, section } = await openSection({
      'POST /api/ettns/documentView': {
        body: ettnView({ supportingDocuments: [doc({ attachedBy: 'CA', signedBy: ['CA'] })] }),
      },
      [`POST /api/ettns/supportingDocuments/${DOC_ID}/cancel`]: refusal('ettn.12'),
    });
    const item = within(section).getByTestId('ettn-supporting-document');
    expect(within(item).queryByTestId('ettn-supporting-sign')).toBeNull();
    await app.user.click(within(item).getByTestId('ettn-supporting-cancel'));
    expect((await within(section).findByTestId('ettn-supporting-action-error')).textContent).toBe(
      'Incorrect transition between states of supporting documents',
    );
    expect(app.api.calls.find((c) => c.path === `/api/ettns/supportingDocuments/${DOC_ID}/cancel`)?.body).toEqual({
      signingPartyRoleCode: 'CA',
    });
  });

  it('asks for a type and a PDF before attaching', async () => {
    const { app, section } = await openSection({});
    expect(within(section).getByText('No supporting documents.')).toBeTruthy();
    await app.user.click(within(section).getByTestId('ettn-supporting-attach-button'));
    expect(within(section).getByRole('alert').textContent).toBe('Choose the document type.');
  });
});
