import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KSEF_PORTAL_CODES, type KsefSubmissionView } from '@portal/contracts';
import { AppProviders } from '../../../app/providers.tsx';
import { createServices } from '../../../app/services.ts';
import { createFetchMock } from '../../../test/fetch-mock.ts';
import { KsefSubmission } from './ksef-submission.tsx';

const DOC_ID = '44444444-4444-4444-8444-444444444444';

/** A submission KSeF refused as semantically wrong (450), with the Ministry's reasons in Polish. */
const refused: KsefSubmissionView = {
  state: 'rejected',
  ksefNumber: null,
  acquisitionDate: null,
  sessionReference: '20261116-SO-0000000001-0000000001-01',
  elementReference: '20261116-EE-0000000001-0000000001-02',
  tokenReference: '20261116-AU-0000000001-0000000001-03',
  errorCode: 450,
  errorDetails: ['Błąd weryfikacji semantyki dokumentu faktury: data wystawienia jest późniejsza niż data przyjęcia.'],
  hasUpo: false,
  updatedAt: '2026-11-16T10:00:06.000Z',
};

/** The document view's KSeF panel alone, the API answering the document's submission. */
async function renderPanel(submission: KsefSubmissionView) {
  const api = createFetchMock({ [`GET /api/documents/${DOC_ID}/ksef`]: { body: submission } });
  const services = createServices({
    fetch: api.fetch,
    storage: window.localStorage,
    now: () => Date.now(),
    onErrorToast: vi.fn(),
  });
  render(
    <AppProviders services={services} dir="ltr" env="test">
      <KsefSubmission documentId={DOC_ID} />
    </AppProviders>,
  );
  return screen.findByTestId('ksef-submission');
}

// The catalog before the first render (`useTranslation` would load it on first use, the texts a moment later).
beforeAll(async () => {
  await i18next.loadNamespaces('ksef');
});

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe("KsefSubmission: the code's meaning in the user's language, the details as they came", () => {
  it("a 450 leads with what it means, then the Ministry's reasons unchanged under the KSeF code", async () => {
    const panel = await renderPanel(refused);
    expect(within(panel).getByText('Refused')).toBeTruthy();
    const reasons = within(panel).getByTestId('ksef-submission-reasons');
    expect(within(reasons).getByTestId('ksef-submission-lead').textContent).toBe(
      "KSeF refused the invoice: its content does not meet KSeF's rules (a semantic error). The Ministry's reasons " +
        'are listed below.',
    );
    expect(reasons.textContent).toContain('Reasons (KSeF code 450)');
    expect(within(reasons).getByText(refused.errorDetails[0]!)).toBeTruthy();
    // The sentence comes first, the Ministry's own text after it.
    expect(reasons.textContent!.indexOf('semantic error')).toBeLessThan(
      reasons.textContent!.indexOf(refused.errorDetails[0]!),
    );
  });

  it("in Polish the sentence is Polish, the Ministry's reasons the same", async () => {
    await i18next.changeLanguage('pl');
    const panel = await renderPanel(refused);
    expect(within(panel).getByText('Odrzucona')).toBeTruthy();
    expect(within(panel).getByTestId('ksef-submission-lead').textContent).toBe(
      'KSeF odrzucił fakturę: jej treść nie spełnia reguł KSeF (błąd semantyczny). Przyczyny podane przez ' +
        'Ministerstwo są wymienione poniżej.',
    );
    expect(within(panel).getByTestId('ksef-submission-reasons').textContent).toContain('Przyczyny (kod KSeF 450)');
    expect(within(panel).getByText(refused.errorDetails[0]!)).toBeTruthy();
  });

  it('in Arabic too, the reasons kept in their own direction', async () => {
    await i18next.changeLanguage('ar');
    const panel = await renderPanel(refused);
    expect(within(panel).getByTestId('ksef-submission-lead').textContent).toContain('رفض KSeF الفاتورة');
    expect(within(panel).getByText(refused.errorDetails[0]!).closest('[dir="auto"]')).toBeTruthy();
  });

  it('a correction waiting for its invoice (9001) says so, naming the invoice, with no KSeF code', async () => {
    const panel = await renderPanel({
      ...refused,
      state: 'queued',
      sessionReference: null,
      elementReference: null,
      tokenReference: null,
      errorCode: KSEF_PORTAL_CODES.correctionWaiting,
      errorDetails: ['FV/1 (2026-11-16)'],
    });
    expect(within(panel).getByText('Waiting to be sent to KSeF')).toBeTruthy();
    const reasons = within(panel).getByTestId('ksef-submission-reasons');
    expect(within(reasons).getByTestId('ksef-submission-lead').textContent).toBe(
      'Waiting for the KSeF number of the corrected invoice: the correction is sent once that invoice is in KSeF.',
    );
    expect(within(reasons).getByText('FV/1 (2026-11-16)')).toBeTruthy();
    expect(reasons.textContent).not.toContain('KSeF code');
  });

  it('a portal code without details shows its sentence alone; every code has a sentence', async () => {
    const panel = await renderPanel({
      ...refused,
      state: 'failed',
      errorCode: KSEF_PORTAL_CODES.documentGone,
      errorDetails: [],
    });
    expect(within(panel).getByTestId('ksef-submission-lead').textContent).toBe(
      'The invoice could not be sent: the document is no longer in the portal.',
    );
    expect(within(panel).queryByTestId('ksef-submission-details')).toBeNull();
    // KSeF's invoice codes a refused or failed invoice can carry (NOTES §5) and the portal's own (every language has
    // the keys English has: `npm run i18n:check`).
    const codes = [405, 410, 415, 430, 435, 440, 450, 500, 550, ...Object.values(KSEF_PORTAL_CODES)];
    expect(codes.filter((code) => !i18next.exists(`submission.code.${code}`, { ns: 'ksef' }))).toEqual([]);
  });

  it('a code without a sentence keeps the heading with its code above the reasons', async () => {
    const panel = await renderPanel({ ...refused, errorCode: 21405, errorDetails: ['Nieprawidłowe dane.'] });
    expect(within(panel).queryByTestId('ksef-submission-lead')).toBeNull();
    expect(within(panel).getByTestId('ksef-submission-reasons').textContent).toContain('Reasons (KSeF code 21405)');
    expect(within(panel).getByText('Nieprawidłowe dane.')).toBeTruthy();
  });
});
