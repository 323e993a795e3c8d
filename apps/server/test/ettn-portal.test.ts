import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { ETTN_SUPPORTING_DOCUMENT_MAX_BYTES } from '@portal/contracts';
import { readEttn, validateEttn } from '@portal/ettn';
import { bearer, login, type TestApp } from './helper.ts';
import { code, ettnApp, ettnCalls, SUPPLIER, UNKNOWN, type Res } from './ettn-fixtures.ts';

/**
 * The portal's e-TTN extensions for the screens: a note composed from the create form (pending, then signed and
 * sent), the form filled from a despatch advice of the documents, and supporting documents (PDF) with their rules.
 */

/** Demo Supplier's and Demo Retailer's GLNs (the documents feature knows the companies by them). */
const SUPPLIER_GLN = '5901234000017';
const RETAILER_GLN = '4012345000016';

let t: TestApp;
let supplier: string;
let retailer: string;
let carrier: string;

const { post, get, form } = ettnCalls(() => t);
const fields = (res: Res) =>
  ((res.json() as { error: { details?: { field: string; code: string }[] } }).error.details ?? []).map(
    (d) => `${d.field}:${d.code}`,
  );
function expectEttn(res: Res, ettnCode: number) {
  expect(code(res), res.body).toBe(`ettn.${ettnCode}`);
}

const composeForm = (overrides: Record<string, unknown> = {}) => ({
  number: 'TTN-FORM-1',
  issueDate: '2026-11-16',
  consignee: { edrpou: '00032129', name: 'Demo Retailer', address: '79008, Львів, пл. Ринок, 1' },
  carrier: { edrpou: '32855961', name: 'Demo Transport', address: '01001, Київ, вул. Хрещатик, 22' },
  driverName: 'Іван Водій',
  driverRnokpp: '3184710691',
  driverLicence: 'ВХМ123456',
  vehicle: 'АА1234ВВ',
  vehicleBrand: 'DAF',
  vehicleModel: 'XF 480',
  loadingAddress: 'Україна, м. Київ, вул. Хрещатик, 22',
  loadingKatottg: 'UA80000000000093317',
  unloadingAddress: 'Україна, м. Львів, пл. Ринок, 1',
  unloadingKatottg: 'UA46060250010015970',
  unloadingGln: RETAILER_GLN,
  items: [
    { name: 'Молоко 2,5 %', quantity: '12', packageType: 'PX', grossWeightKg: '1000.5', amount: '40000' },
    { name: 'Кефір', uktzed: '0403', quantity: '3', grossWeightKg: '250', amount: '8000.25' },
  ],
  ...overrides,
});

/** Composes, then sends as the consignor: the registered note's process id. */
async function composedAndSent(overrides: Record<string, unknown> = {}) {
  const composed = await post('compose', supplier, composeForm(overrides));
  expect(composed.statusCode, composed.body).toBe(200);
  const sent = await post('signAndSend', supplier, {
    registeredFileId: composed.json().id,
    signingPartyRoleCode: 'CZ',
  });
  expect(sent.statusCode, sent.body).toBe(200);
  return sent.json().processId as string;
}

/** A PDF as the `file` part of a form. */
const pdf = (file: { name: string; bytes: Buffer }) => ({
  name: file.name,
  content: file.bytes,
  type: 'application/pdf',
});

const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n% a test document\n'),
  Buffer.alloc(2048, 0x41),
  Buffer.from('\n%%EOF\n'),
]);
const attach = (token: string, processId: string, role = 'CZ', file = { name: 'cert.pdf', bytes: PDF }) =>
  form(
    'supportingDocuments',
    token,
    { processId, type: 'Certificate_of_quality', signingPartyRoleCode: role },
    pdf(file),
  );

/** A UN/EDIFACT interchange of one message from Demo Supplier to Demo Retailer. */
function edifact(control: string, type: 'DESADV' | 'ORDERS', number: string): string {
  const body = [
    `BGM+${type === 'DESADV' ? '351' : '220'}+${number}+9'`,
    "DTM+137:20261116:102'",
    `NAD+BY+${RETAILER_GLN}::9++Demo Retailer+Rynok 1+Lviv++79008+UA'`,
    `NAD+SU+${SUPPLIER_GLN}::9++Demo Supplier+Khreshchatyk 22+Kyiv++01001+UA'`,
    "LIN+1++4000862141404:EN'",
    "IMD+F++:::Milk 2.5%'",
    `QTY+${type === 'DESADV' ? '12' : '21'}:48'`,
    "UNS+S'",
  ];
  const unh = `UNH+1+${type}:D:96A:UN:EAN008'`;
  return [
    "UNA:+.? '",
    `UNB+UNOC:3+${SUPPLIER_GLN}:14+${RETAILER_GLN}:14+261116:1000+${control}'`,
    unh,
    ...body,
    `UNT+${body.length + 2}+1'`,
    `UNZ+1+${control}'`,
  ].join('');
}

async function uploadOut(token: string, name: string, content: string): Promise<string> {
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
  const id = res.json().files[0].documents[0]?.id as string | undefined;
  expect(id, res.body).toBeDefined();
  return id!;
}

beforeAll(async () => {
  ({ t, supplier, retailer, carrier } = await ettnApp({ EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A }));
});
afterAll(async () => {
  await t?.close();
});

describe('compose', () => {
  it('writes a valid note as a pending upload, which the consignor signs and sends', async () => {
    const composed = await post('compose', supplier, composeForm());
    expect(composed.statusCode, composed.body).toBe(200);
    const { id } = composed.json() as { id: string };
    const pending = await get('/pending', supplier);
    const item = (pending.json().items as { id: string; number: string; mustAct: string[] }[]).find((i) => i.id === id);
    expect(item).toMatchObject({ number: 'TTN-FORM-1', mustAct: ['CZ'] });

    // What the server wrote holds to the v3 table, with the totals of the lines.
    const body = await post('pendingPartGet', supplier, { registeredFileId: id, partType: 'BODY' });
    const xml = Buffer.from(body.json().bodyPartContent, 'base64').toString('utf8');
    const read = readEttn(xml);
    expect(read.ok).toBe(true);
    if (!read.ok || read.document.model.kind !== 'ettn') throw new Error('not a note');
    expect(validateEttn(read.document.model)).toEqual([]);
    const c = read.document.model.consignment;
    expect(c).toMatchObject({ grossWeight: '1250.5', amount: '48000.25', itemQuantity: '2' });
    expect(c.consignor).toMatchObject({
      id: '14360570',
      roleCode: 'CZ',
      registrations: [{ id: SUPPLIER_GLN, typeCode: 'TRADEPARTY_GLN' }],
    });
    // The driver and the truck as stated, no stand-ins.
    expect(c.carrier).toMatchObject({
      id: '32855961',
      personName: 'Іван Водій',
      taxId: '3184710691',
      registrations: [{ id: 'ВХМ123456' }],
    });
    expect(c.equipment[0]).toMatchObject({
      id: 'АА1234ВВ',
      notes: [
        { code: 'BRAND', content: 'DAF' },
        { code: 'MODEL', content: 'XF 480' },
      ],
    });
    // The places by their КАТОТТГ codes; the loading place's GLN is the company's own when not stated.
    expect(c.loading).toMatchObject({
      id: 'UA80000000000093317',
      idScheme: 'КАТОТТГ',
      typeCode: '10',
      gln: SUPPLIER_GLN,
    });
    expect(c.unloading).toMatchObject({
      id: 'UA46060250010015970',
      idScheme: 'КАТОТТГ',
      typeCode: '5',
      gln: RETAILER_GLN,
    });
    // The customer of the carriage (OB, mandatory) is the consignor.
    expect(c.notified).toEqual([expect.objectContaining({ id: '14360570', roleCode: 'OB' })]);
    for (const stated of ['3184710691', 'ВХМ123456', 'UA80000000000093317', 'UA46060250010015970', 'XF 480'])
      expect(xml).toContain(stated);
    for (const standIn of ['0000000000', 'ААА000000', 'UA00000000000000000', '0000000000000', 'н/д'])
      expect(xml).not.toContain(`>${standIn}<`);

    const sent = await post('signAndSend', supplier, { registeredFileId: id, signingPartyRoleCode: 'CZ' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().status).toBe('PLANNED');
    const after = await get('/pending', supplier);
    expect((after.json().items as { id: string }[]).some((i) => i.id === id)).toBe(false);
    // The consignee sees it among its notes.
    const list = await t.app.inject({ method: 'GET', url: '/api/ettns', headers: bearer(retailer) });
    expect((list.json().items as { id: string }[]).some((i) => i.id === sent.json().processId)).toBe(true);
  });

  it('refuses bad input with the fields: a missing EDRPOU, a wrong check digit, no lines', async () => {
    const missing = await post('compose', supplier, composeForm({ consignee: { name: 'X', address: 'Київ' } }));
    expect(missing.statusCode).toBe(400);
    expect(fields(missing)).toContain('consignee.edrpou:required');
    const checksum = await post(
      'compose',
      supplier,
      composeForm({ carrier: { edrpou: '32855962', name: 'Demo Transport', address: 'Київ' }, items: [] }),
    );
    expect(checksum.statusCode).toBe(400);
    expect(fields(checksum)).toEqual(expect.arrayContaining(['carrier.edrpou:edrpou', 'items:required']));
  });

  it('refuses a bad RNOKPP, licence, КАТОТТГ code or GLN, and a missing brand, on their fields', async () => {
    const res = await post(
      'compose',
      supplier,
      composeForm({
        driverRnokpp: '3184710692',
        driverLicence: 'ВХ1234567',
        vehicleBrand: ' ',
        loadingKatottg: 'UA8000000000009331',
        unloadingKatottg: '80000000000093317',
        loadingGln: '5901234000018',
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(fields(res)).toEqual(
      expect.arrayContaining([
        'driverRnokpp:rnokpp',
        'driverLicence:licence',
        'vehicleBrand:required',
        'loadingKatottg:katottg',
        'unloadingKatottg:katottg',
        'loadingGln:gln',
      ]),
    );
    const missing = await post('compose', supplier, composeForm({ driverRnokpp: undefined, unloadingGln: undefined }));
    expect(missing.statusCode).toBe(400);
    expect(fields(missing)).toEqual(expect.arrayContaining(['driverRnokpp:required', 'unloadingGln:required']));
  });

  it('writes a stated loading GLN, and takes a lower-case licence and КАТОТТГ code in capitals', async () => {
    const composed = await post(
      'compose',
      supplier,
      composeForm({
        number: 'TTN-FORM-2',
        loadingGln: '4821234000019',
        driverLicence: 'вхм123456',
        loadingKatottg: 'ua80000000000093317',
      }),
    );
    expect(composed.statusCode, composed.body).toBe(200);
    const body = await post('pendingPartGet', supplier, { registeredFileId: composed.json().id, partType: 'BODY' });
    const read = readEttn(Buffer.from(body.json().bodyPartContent, 'base64').toString('utf8'));
    if (!read.ok || read.document.model.kind !== 'ettn') throw new Error('not a note');
    expect(validateEttn(read.document.model)).toEqual([]);
    expect(read.document.model.consignment.loading).toMatchObject({ id: 'UA80000000000093317', gln: '4821234000019' });
    expect(read.document.model.consignment.carrier?.registrations).toEqual([{ id: 'ВХМ123456' }]);
  });

  it('needs the role ETTN_CZ (20)', async () => {
    expectEttn(await post('compose', retailer, composeForm()), 20);
  });
});

describe('compose from a despatch advice', () => {
  let desadv: string;
  let order: string;
  beforeAll(async () => {
    desadv = await uploadOut(supplier, 'desadv.edi', edifact('ETTNDES1', 'DESADV', 'DES-77'));
    order = await uploadOut(supplier, 'orders.edi', edifact('ETTNORD1', 'ORDERS', 'ORD-77'));
  });

  it('fills number, date, lines and the consignee', async () => {
    const res = await get(`/compose/fromDespatchAdvice/${desadv}`, supplier);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      number: 'DES-77',
      issueDate: '2026-11-16',
      despatchAdviceId: desadv,
      consignee: { name: 'Demo Retailer', address: '79008, Lviv, Rynok 1' },
      loadingAddress: '01001, Kyiv, Khreshchatyk 22',
      // The places' GLNs as the parties give them; the КАТОТТГ codes, the driver and the truck are the user's.
      loadingGln: SUPPLIER_GLN,
      unloadingGln: RETAILER_GLN,
      items: [{ name: 'Milk 2.5%', quantity: '48' }],
    });
    expect(res.json().driverRnokpp).toBeUndefined();
    expect(res.json().loadingKatottg).toBeUndefined();
    expect(res.json().consignee.edrpou).toBeUndefined();
  });

  it('is a 404 for another company and an unknown id, a 400 on documentId for another kind', async () => {
    expect((await get(`/compose/fromDespatchAdvice/${desadv}`, retailer)).statusCode).toBe(404);
    expect((await get(`/compose/fromDespatchAdvice/${UNKNOWN}`, supplier)).statusCode).toBe(404);
    const notDesadv = await get(`/compose/fromDespatchAdvice/${order}`, supplier);
    expect(notDesadv.statusCode).toBe(400);
    expect(fields(notDesadv)).toEqual(['documentId:despatchAdvice']);
    expect(code(await get('/compose/fromDespatchAdvice/nope', supplier))).toBe('validation.failed');
  });
});

describe('supporting documents', () => {
  let processId: string;
  beforeAll(async () => {
    processId = await composedAndSent({ number: 'TTN-SUPPORT' });
  });

  it('attaches a PDF signed by its party; the view lists it and the download is the same bytes', async () => {
    const res = await attach(supplier, processId);
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json() as { id: string; status: string; signedBy: string[]; size: number };
    expect(doc).toMatchObject({ status: 'SIGNED', signedBy: ['CZ'], attachedBy: 'CZ', size: PDF.length });

    t.clock.advance(1); // newest first: the second one a second later
    const second = await attach(supplier, processId, 'CZ', { name: 'invoice.pdf', bytes: PDF });
    const view = await post('documentView', retailer, { ettnDocumentId: { procId: processId } });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().supportingDocuments.map((d: { id: string }) => d.id)).toEqual([second.json().id, doc.id]);

    const file = await get(`/supportingDocuments/${doc.id}/file`, retailer);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain('cert.pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);

    // The consignee countersigns; a second signature of the same role is 12.
    const signed = await post(`supportingDocuments/${doc.id}/sign`, retailer, { signingPartyRoleCode: 'CN' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ status: 'SIGNED', signedBy: ['CZ', 'CN'] });
    expectEttn(await post(`supportingDocuments/${doc.id}/sign`, retailer, { signingPartyRoleCode: 'CN' }), 12);
  });

  it('refuses a file that is not a PDF (400) and one too large (413)', async () => {
    const text = await attach(supplier, processId, 'CZ', { name: 'a.pdf', bytes: Buffer.from('hello, not a pdf') });
    expect(text.statusCode).toBe(400);
    expect(fields(text)).toEqual(['file:pdf']);
    const none = await form('supportingDocuments', supplier, {
      processId,
      type: 'Other',
      signingPartyRoleCode: 'CZ',
    });
    expect(fields(none)).toEqual(['file:required']);
    const big = Buffer.concat([PDF, Buffer.alloc(ETTN_SUPPORTING_DOCUMENT_MAX_BYTES, 0x20)]);
    const tooLarge = await attach(supplier, processId, 'CZ', { name: 'big.pdf', bytes: big });
    expect(tooLarge.statusCode).toBe(413);
    expect(code(tooLarge)).toBe('request.too_large');
    const badType = await form(
      'supportingDocuments',
      supplier,
      { processId, type: 'Nonsense', signingPartyRoleCode: 'CZ' },
      pdf({ name: 'a.pdf', bytes: PDF }),
    );
    expect(fields(badType)).toEqual(['type:oneOf']);
  });

  it('holds the roles: one the user does not hold, or the company is not (21)', async () => {
    expectEttn(await attach(supplier, processId, 'CN'), 21);
    expectEttn(await attach(carrier, processId, 'CN'), 21);
  });

  it('cancel by the attaching party, then sign is 12; cancel by another party is 21', async () => {
    const doc = (await attach(supplier, processId)).json() as { id: string };
    expectEttn(await post(`supportingDocuments/${doc.id}/cancel`, retailer, { signingPartyRoleCode: 'CN' }), 21);
    const canceled = await post(`supportingDocuments/${doc.id}/cancel`, supplier, { signingPartyRoleCode: 'CZ' });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().status).toBe('CANCELED');
    expectEttn(await post(`supportingDocuments/${doc.id}/sign`, carrier, { signingPartyRoleCode: 'CA' }), 12);
    expectEttn(await post(`supportingDocuments/${doc.id}/cancel`, supplier, { signingPartyRoleCode: 'CZ' }), 12);
  });

  it('another company’s note, an unknown document and a pending upload are 404', async () => {
    const other = await composedAndSent({
      number: 'TTN-SUPPORT-OTHER',
      consignee: { edrpou: '20300922', name: 'Other Buyer', address: 'Одеса, вул. Дерибасівська, 1' },
    });
    const mine = (await attach(supplier, other)).json() as { id: string };
    expect((await attach(retailer, other, 'CN')).statusCode).toBe(404);
    expect((await get(`/supportingDocuments/${mine.id}/file`, retailer)).statusCode).toBe(404);
    expect(
      (await post(`supportingDocuments/${mine.id}/sign`, retailer, { signingPartyRoleCode: 'CN' })).statusCode,
    ).toBe(404);
    expect((await get(`/supportingDocuments/${UNKNOWN}/file`, supplier)).statusCode).toBe(404);
    const pending = (await post('compose', supplier, composeForm({ number: 'TTN-PENDING' }))).json() as { id: string };
    expect((await attach(supplier, pending.id)).statusCode).toBe(404);
    const view = await post('documentView', supplier, { ettnDocumentId: { procId: pending.id }, isPending: true });
    expect(view.json().supportingDocuments).toEqual([]);
  });

  it('a canceled note takes no supporting documents (24)', async () => {
    const canceledId = await composedAndSent({ number: 'TTN-SUPPORT-CANCELED' });
    const rejected = await form('signAndSend', carrier, {
      processId: canceledId,
      signingPartyRoleCode: 'CA',
      decision: 'reject',
      reason: 'Vehicle broke down',
    });
    expect(rejected.json().status, rejected.body).toBe('CANCELED');
    expectEttn(await attach(supplier, canceledId), 24);
  });
});

describe('a company without a GLN', () => {
  it('cannot compose: the consignor needs its TRADEPARTY_GLN (29, naming the field), no GLN is made up', async () => {
    const url = '/api/company/locations';
    const list = await t.app.inject({ method: 'GET', url: `${url}?kind=company`, headers: bearer(supplier) });
    const own = list.json().items as { gln: string; kind: string; name: string }[];
    expect(own.map((l) => l.gln)).toContain(SUPPLIER_GLN);
    for (const l of own) {
      const res = await t.app.inject({ method: 'DELETE', url: `${url}/${l.gln}`, headers: bearer(supplier) });
      expect(res.statusCode, res.body).toBe(204);
    }
    try {
      const res = await post('compose', supplier, composeForm({ number: 'TTN-NO-GLN' }));
      expectEttn(res, 29);
      expect(fields(res)).toEqual([
        'eCMR/SpecifiedSupplyChainConsignment/ram:ConsignorTradeParty/ram:SpecifiedGovernmentRegistration[ram:TypeCode=TRADEPARTY_GLN]/ram:ID:required',
      ]);
    } finally {
      for (const { gln, kind, name } of own) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: bearer(supplier),
          payload: { gln, kind, name },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
    }
  });
});

describe('a company without a live alias', () => {
  it('cannot compose: the registry does not know it as a party (5)', async () => {
    // Well over a year on, every demo alias has expired (the seed registers them for a year from today).
    t.clock.set(new Date(Date.now() + 400 * 86_400_000));
    const token = (await login(t.app, SUPPLIER)).access_token;
    expectEttn(await post('compose', token, composeForm({ number: 'TTN-NO-ALIAS' })), 5);
  });
});
