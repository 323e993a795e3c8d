import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

/**
 * The document view's server side (issue 11, part 4): code names from the directory, the original named and
 * encoded as the user's profile says, the PDF in the reader's language, and the additional status Printed.
 */
const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';

/** An EANCOM D96A order in UTF-8 (UNOW) with Polish text: the retailer sends, the supplier receives. */
function order(control: string, number: string): string {
  const body = [
    `BGM+220+${number}+9'`,
    "DTM+137:20261116:102'",
    "DTM+2:20261120:102'",
    "FTX+AAI+++Zażółć gęślą jaźń'",
    `NAD+BY+${RETAILER}::9++Sklep Łódź'`,
    `NAD+SU+${SUPPLIER}::9'`,
    "LIN+1++4000862141404:EN'",
    "IMD+F++:::Mąka pszenna'",
    "QTY+21:48:PCE'",
    "UNS+S'",
  ];
  return [
    "UNA:+.? '",
    `UNB+UNOW:4+${RETAILER}:14+${SUPPLIER}:14+20261116:1000+${control}'`,
    `UNH+1+ORDERS:D:96A:UN:EAN008'`,
    ...body,
    `UNT+${body.length + 2}+1'`,
    `UNZ+1+${control}'`,
  ].join('\n');
}

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;

const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const settings = (token: string, values: { fileEncoding: string; fileNamingFormat: string }) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/users/settings',
    headers: bearer(token),
    payload: { vatAlgorithm: 'invoice-summary', ...values },
  });

async function upload(token: string, name: string, content: string): Promise<string> {
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
  // The answer says what became of the file (queued, its findings) when no document came of it.
  expect(res.json().files[0].documents, res.body).toHaveLength(1);
  return res.json().files[0].documents[0].id as string;
}

/** The supplier's inbox copy of an order the retailer sent. */
async function received(control: string, number: string): Promise<{ inId: string; outId: string; text: string }> {
  const text = order(control, number);
  const outId = await upload(buyer, `${number}.edi`, text);
  const inbox = await get(`/api/documents?direction=in&documentNumber=${number}`, user);
  expect(inbox.json().items, inbox.body).toHaveLength(1);
  return { inId: inbox.json().items[0].id, outId, text };
}

/** The text of every page of a PDF, as pdf.js reads it. */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return pages.join('\n');
}

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A } });
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
});
afterAll(() => t.close());

describe('code names from the directory', () => {
  it('names the codes of a D96A order and the elements of its segments', async () => {
    const { inId } = await received('V0001', 'PV-1001');
    const res = await get(`/api/documents/${inId}/codes`, user);
    expect(res.statusCode, res.body).toBe(200);
    const codes = res.json();
    expect(codes.directory).toBe('D96A');
    expect(codes.codeNames['1001']).toEqual({ '220': 'Order' });
    expect(codes.codeNames['2005']['137']).toBe('Document/message date/time');
    expect(codes.codeNames['1225']['9']).toBe('Original');
    expect(codes.codeNames['3035']).toMatchObject({ BY: 'Buyer', SU: 'Supplier' });
    expect(codes.codeNames['6063']['21']).toBe('Ordered quantity');
    expect(codes.segments.NAD.name).toBe('NAME AND ADDRESS');
    expect(codes.segments.NAD.elements[0]).toEqual({ id: '3035', name: 'Party qualifier' });
    expect(codes.segments.NAD.elements[1]).toMatchObject({
      id: 'C082',
      name: 'PARTY IDENTIFICATION DETAILS',
      components: [{ id: '3039', name: 'Party id. identification' }, expect.anything(), expect.anything()],
    });
    expect(codes.segments.BGM).toBeDefined();
    // The envelope, which no directory holds, from ISO 9735.
    expect(codes.segments.UNH.name).toBe('MESSAGE HEADER');
    expect(codes.segments.UNH.elements[0]).toEqual({ id: '0062', name: 'Message reference number' });
    expect(codes.segments.UNB.elements[1]).toMatchObject({
      id: 'S002',
      name: 'Interchange sender',
      components: [
        { id: '0004', name: 'Interchange sender identification' },
        expect.anything(),
        expect.anything(),
        expect.anything(),
      ],
    });
  });

  it('answers 404 for another company’s document', async () => {
    const { inId, outId } = await received('V0002', 'PV-1002');
    expect((await get(`/api/documents/${inId}/codes`, buyer)).statusCode).toBe(404);
    expect((await get(`/api/documents/${outId}/codes`, user)).statusCode).toBe(404);
  });
});

describe('downloading the original', () => {
  it('names the file by the user’s format and keeps the bytes when the encoding is the file’s own', async () => {
    const { inId, text } = await received('V0003', 'PV-1003');
    const res = await get(`/api/documents/${inId}/original`, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(Buffer.from(text))).toBe(true);
    expect(res.headers['content-disposition']).toContain("UTF-8''ORDERS_Demo-Retailer_PV-1003.edi");
    expect(
      (await settings(user, { fileEncoding: 'utf-8', fileNamingFormat: 'PartnerName_DocType_DocDate_DocNumber' }))
        .statusCode,
    ).toBe(200);
    const named = await get(`/api/documents/${inId}/original`, user);
    expect(named.headers['content-disposition']).toContain("UTF-8''Demo-Retailer_ORDERS_2026-11-16_PV-1003.edi");
    await settings(user, { fileEncoding: 'utf-8', fileNamingFormat: 'DocType_DocNumber' });
    expect((await get(`/api/documents/${inId}/original`, user)).headers['content-disposition']).toContain(
      "UTF-8''ORDERS_PV-1003.edi",
    );
  });

  it('converts to ISO 8859-2 when the profile says so: the Polish text round-trips', async () => {
    const { inId, text } = await received('V0004', 'PV-1004');
    await settings(user, { fileEncoding: 'iso-8859-2', fileNamingFormat: 'DocType_PartnerName_DocNumber' });
    const res = await get(`/api/documents/${inId}/original`, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(Buffer.from(text))).toBe(false);
    expect(res.rawPayload.length).toBe(Number(res.headers['content-length']));
    expect(iconv.decode(res.rawPayload, 'iso-8859-2')).toBe(text);
    // The way out for a user whose encoding does not fit: UTF-8 (or the bytes as received) on request.
    const utf8 = await get(`/api/documents/${inId}/original?encoding=utf-8`, user);
    expect(utf8.rawPayload.equals(Buffer.from(text))).toBe(true);
    const asReceived = await get(`/api/documents/${inId}/original?encoding=original`, user);
    expect(asReceived.rawPayload.equals(Buffer.from(text))).toBe(true);
  });

  it('converts to IBM 852', async () => {
    const { inId, text } = await received('V0005', 'PV-1005');
    await settings(user, { fileEncoding: 'ibm852', fileNamingFormat: 'DocType_PartnerName_DocNumber' });
    const res = await get(`/api/documents/${inId}/original`, user);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.includes(0x88)).toBe(true); // ł
    expect(iconv.decode(res.rawPayload, 'ibm852')).toBe(text);
  });

  it('refuses an encoding that cannot hold a character with 422, naming the character and its place', async () => {
    const { inId } = await received('V0006', 'PV-1006');
    await settings(user, { fileEncoding: 'iso-8859-1', fileNamingFormat: 'DocType_PartnerName_DocNumber' });
    const res = await get(`/api/documents/${inId}/original`, user);
    expect(res.statusCode).toBe(422);
    const error = res.json().error;
    expect(error.code).toBe('documents.unencodable');
    expect(error.details).toEqual([
      {
        field: 'encoding',
        code: 'unencodable',
        params: { encoding: 'iso-8859-1', character: 'ż', codePoint: 'U+017C', line: 7, column: 13 },
      },
    ]);
    await settings(user, { fileEncoding: 'utf-8', fileNamingFormat: 'DocType_PartnerName_DocNumber' });
  });

  it('refuses an unknown encoding with the field, and another company’s id with 404', async () => {
    const { inId } = await received('V0007', 'PV-1007');
    const bad = await get(`/api/documents/${inId}/original?encoding=ebcdic`, user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('encoding');
    expect((await get(`/api/documents/${inId}/original`, buyer)).statusCode).toBe(404);
  });
});

describe('the PDF and the Printed status', () => {
  it('renders a PDF in the reader’s language with the number, the labels and the code names', async () => {
    const { inId } = await received('V0008', 'PV-1008');
    const res = await get(`/api/documents/${inId}/pdf?language=pl`, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain("UTF-8''ORDERS_Demo-Retailer_PV-1008.pdf");
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('PV-1008');
    expect(text).toContain('Zamówienie'); // the kind, in Polish
    expect(text).toContain('Strony'); // "Parties"
    expect(text).toContain('Nazwa dokumentu');
    expect(text).toContain('220 · Order'); // BGM 1001 with its name from D96A
    expect(text).toContain('Sklep Łódź');
    expect(text).toContain('Mąka pszenna');
    expect(text).toContain('Strona 1 z 1');
  });

  it('renders Arabic, Thai and Ukrainian too', async () => {
    const { inId } = await received('V0009', 'PV-1009');
    for (const [language, word] of [
      ['uk', 'Сторони'],
      ['th', 'PV-1009'],
      ['ar', 'PV-1009'],
    ] as const) {
      const res = await get(`/api/documents/${inId}/pdf?language=${language}`, clerk);
      expect(res.statusCode, res.body).toBe(200);
      expect(await pdfText(res.rawPayload)).toContain(word);
    }
  });

  it('sets Printed with a history row when the reader may modify the inbox, once', async () => {
    const { inId } = await received('V0010', 'PV-1010');
    expect((await get(`/api/documents/${inId}/pdf`, user)).statusCode).toBe(200);
    const doc = (await get(`/api/documents/${inId}`, user)).json();
    expect(doc.additionalStatus).toBe('printed');
    const rows = doc.history.filter((h: { field: string }) => h.field === 'additionalStatus');
    expect(rows).toEqual([
      expect.objectContaining({ from: null, to: 'printed', reason: 'pdf_downloaded', userId: expect.any(String) }),
    ]);
    expect((await get(`/api/documents/${inId}/pdf?purpose=print`, user)).statusCode).toBe(200);
    const again = (await get(`/api/documents/${inId}`, user)).json();
    expect(again.history.filter((h: { field: string }) => h.field === 'additionalStatus')).toHaveLength(1);
  });

  it('gives the PDF to a reader who may not modify, without changing the status', async () => {
    const { inId } = await received('V0011', 'PV-1011');
    const res = await get(`/api/documents/${inId}/pdf?purpose=print`, clerk);
    expect(res.statusCode).toBe(200);
    const doc = (await get(`/api/documents/${inId}`, clerk)).json();
    expect(doc.additionalStatus).toBeNull();
    expect(doc.history.some((h: { field: string }) => h.field === 'additionalStatus')).toBe(false);
  });

  it('answers 404 for another company’s document and 400 for a bad language', async () => {
    const { inId, outId } = await received('V0012', 'PV-1012');
    expect((await get(`/api/documents/${inId}/pdf`, buyer)).statusCode).toBe(404);
    // The clerk reads the inbox only: the outbox copy is not in its scope.
    expect((await get(`/api/documents/${outId}/pdf`, clerk)).statusCode).toBe(404);
    const bad = await get(`/api/documents/${inId}/pdf?language=xx`, user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('language');
  });
});
