/**
 * KSeF for the API tests: Demo KSeF (NIP 7010002139) and Demo Supplier (NIP 5260001246) as the demo's companies name
 * them, an EANCOM invoice from Demo KSeF to Demo Supplier as the portal's own writer makes it, the test app with the
 * embedded simulator, and the steps its tests share (upload to the outbox, wait for the submission, read a PDF).
 */
import { expect } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { DraftLineSchema, emptyDraftForm, type DraftForm, type DraftParty } from '@portal/contracts';
import { buildInterchange, formToCanonical, writeEancomMessage } from '@portal/documents';
import { serializeInterchange, shippedDirectoryZips } from '@portal/edifact/node';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

export const KSEF = { login: 'ksef@demo.example.com', password: 'Ksef#Demo2026' };
export const KSEF_NIP = '7010002139';
export const SUPPLIER_NIP = '5260001246';
export const KSEF_GLN = '5901234000024';
export const SUPPLIER_GLN = '5901234000017';

/** The simulator answers at once: no delay between an invoice's stages. */
export const SIMULATOR_AT_ONCE = { KSEF_SIMULATOR_DELAY_MS: '0' };
/** The shipped EANCOM D96A directory, which reads and writes the invoices of {@link ksefInvoice}. */
export const EANCOM_D96A = { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A };

/** Demo KSeF as an invoice names it. */
export const DEMO_KSEF: Partial<DraftParty> = {
  gln: KSEF_GLN,
  name: 'Demo KSeF Sp. z o.o.',
  street: 'ul. Prosta 1',
  city: 'Warszawa',
  postalCode: '00-001',
  country: 'PL',
  vatId: `PL${KSEF_NIP}`,
};
/** Demo Supplier as an invoice names it. */
export const DEMO_SUPPLIER: Partial<DraftParty> = {
  gln: SUPPLIER_GLN,
  name: 'Demo Supplier',
  street: 'ul. Krzywa 2',
  city: 'Warszawa',
  postalCode: '00-002',
  country: 'PL',
  vatId: `PL${SUPPLIER_NIP}`,
};

type LineInput = Parameters<typeof DraftLineSchema.parse>[0];
/** Ten bottles of mineral water at 1.29, VAT 8 %. */
export const WATER_LINE = {
  gtin: '4000862141404',
  description: 'Woda mineralna',
  quantity: '10',
  unit: 'PCE',
  price: '1.29',
  vatRate: '8',
} satisfies LineInput;

/**
 * An invoice's draft: by default from Demo KSeF to Demo Supplier, of {@link WATER_LINE}, dated 2026-11-16 (the test
 * clock's day).
 */
export function invoiceForm(
  number: string,
  options: { date?: string; supplier?: Partial<DraftParty>; buyer?: Partial<DraftParty>; lines?: LineInput[] } = {},
): DraftForm {
  const form = emptyDraftForm();
  form.number = number;
  form.documentDate = options.date ?? '2026-11-16';
  form.supplier = { ...form.supplier, ...(options.supplier ?? DEMO_KSEF) };
  form.buyer = { ...form.buyer, ...(options.buyer ?? DEMO_SUPPLIER) };
  form.lines = (options.lines ?? [WATER_LINE]).map((line) => DraftLineSchema.parse(line));
  return form;
}

/**
 * An EANCOM (D96A) invoice from Demo KSeF to Demo Supplier, as the portal's own writer makes it: the draft of
 * {@link invoiceForm} dated `date`, after `change` (when given) altered it.
 */
export function ksefInvoice(
  number: string,
  control: string,
  options: { date?: string; change?: (form: DraftForm) => void } = {},
): string {
  const form = invoiceForm(number, { date: options.date });
  options.change?.(form);
  return ksefInterchange(control, [{ kind: 'invoice', form }]);
}

/**
 * A credit note's draft (FA(3) KOR): {@link invoiceForm} of two bottles returned, correcting the invoice `invoice`
 * of `invoiceDate` (its IV reference).
 */
export function creditNoteForm(number: string, invoice: string, invoiceDate = '2026-11-16'): DraftForm {
  const form = invoiceForm(number, { lines: [{ ...WATER_LINE, quantity: '-2' }] });
  form.invoiceNumber = invoice;
  form.invoiceDate = invoiceDate;
  return form;
}

/**
 * An EANCOM (D96A) interchange from Demo KSeF to Demo Supplier of these drafts, one message each in this order (as the
 * portal's own writer makes them).
 */
export function ksefInterchange(
  control: string,
  drafts: readonly { kind: 'invoice' | 'credit_note'; form: DraftForm }[],
): string {
  const messages = drafts.map(
    (d, i) =>
      writeEancomMessage(formToCanonical(d.kind, d.form, 'lines'), { directory: 'D96A', reference: String(i + 1) })
        .message,
  );
  return serializeInterchange(
    buildInterchange({
      messages,
      sender: { id: KSEF_GLN },
      recipient: { id: SUPPLIER_GLN },
      controlReference: control,
      preparedAt: '2026-11-16T10:00',
      test: false,
      una: true,
      syntax: 'UNOC',
      applicationReference: messages[0]!.type,
    }),
    { una: 'always' },
  );
}

/**
 * A test app whose simulator answers at once and which reads EANCOM D96A (unless `eancom` is false), `env` added to
 * that, with the access tokens of Demo KSeF and of Demo Supplier.
 */
export async function ksefApp(
  options: { env?: Record<string, string>; eancom?: boolean } = {},
): Promise<{ t: TestApp; ksef: string; supplier: string }> {
  const t = await createTestApp({
    env: { ...SIMULATOR_AT_ONCE, ...(options.eancom === false ? {} : EANCOM_D96A), ...options.env },
  });
  try {
    const ksef = (await login(t.app, KSEF)).access_token;
    const supplier = (await login(t.app)).access_token;
    return { t, ksef, supplier };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** Uploads an interchange to the outbox: the document's id (the ingest writes its submission and `ksef.send` job). */
export async function uploadOut(t: TestApp, token: string, name: string, content: string): Promise<string> {
  return (await uploadOutAll(t, token, name, content))[0]!;
}

/** Uploads an interchange to the outbox: the ids of its documents, in the interchange's order. */
export async function uploadOutAll(t: TestApp, token: string, name: string, content: string): Promise<string[]> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'application/edifact' }), name);
  const request = new Request('http://x', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/documents/upload?direction=out',
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(token) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  expect(res.statusCode, res.body).toBe(200);
  const documents = res.json().files[0].documents as { id: string; status: string }[];
  for (const document of documents) expect(document.status, res.body).not.toBe('error');
  return documents.map((d) => d.id);
}

/** A document's KSeF submission, as `token`'s company asks for it. */
export const submission = async (t: TestApp, token: string, id: string) =>
  t.app.inject({ url: `/api/documents/${id}/ksef`, headers: bearer(token) });

/**
 * Runs the due jobs until the submission is final, and returns it: a job worker polling beside the test may hold it
 * meanwhile. A long drain: the first send builds and checks the XML on the CPU pool, slow on a busy machine.
 */
export async function settled(t: TestApp, token: string, id: string) {
  for (let i = 0; i < 100; i++) {
    await t.jobs.drain({ timeoutMs: 60_000 });
    const body = (await submission(t, token, id)).json();
    if (body && body.state !== 'queued' && body.state !== 'sending') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the submission did not settle');
}

/** The rows a query of the app's database returns. */
export const rows = async <T>(t: TestApp, query: SQL): Promise<T[]> =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** The id of the demo's company of that name. */
export const companyId = async (t: TestApp, name: string): Promise<string> =>
  (await rows<{ id: string }>(t, sql`select id from companies where name = ${name}`))[0]!.id;

/** The text of every page of a PDF, as pdf.js reads it. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return pages.join('\n');
}
