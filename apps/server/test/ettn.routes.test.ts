import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoSigner, readEttn, verifyChain, type EttnDocument } from '@portal/ettn';
import { login, type TestApp } from './helper.ts';
import {
  CARRIER,
  code,
  demoNote,
  ettnApp,
  ettnCalls,
  noteXml,
  RETAILER,
  signedNoteXml,
  SUPPLIER,
  UNKNOWN,
  type Res,
} from './ettn-fixtures.ts';

/**
 * e-TTN over the registry simulator (issue 14 §2, §3): every /api/ettns call with success and bad input, the codes of
 * refusals (29, 30, 20, 21, 7), another company's note (404), no role ettn (403), and the demo's whole chain:
 * Demo Supplier sends a note to Demo Retailer carried by Demo Transport, the carrier signs the pick-up, the retailer
 * starts a disagreement act and signs the arrival; each party sees the statuses move, and subscribers get events.
 */

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const KSEF = { login: 'ksef@demo.example.com', password: 'Ksef#Demo2026' };

let t: TestApp;
let supplier: string;
let retailer: string;
let carrier: string;

const { post, get, form } = ettnCalls(() => t);

const register = (token: string, xml: string, role = 'CZ') =>
  form('registerEttn', token, { fileName: 'note.xml', signingPartyRoleCode: role }, { name: 'note.xml', content: xml });

/** An e-TTN refusal: its code, and the text of every language in data.messages. */
function expectEttn(res: Res, ettnCode: number, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { error: { code: string; data: { ettnCode: number; messages: Record<string, string> } } };
  expect(body.error.code).toBe(`ettn.${ettnCode}`);
  expect(body.error.data.ettnCode).toBe(ettnCode);
  expect(Object.keys(body.error.data.messages)).toHaveLength(11);
  return body.error;
}

type ListItem = { id: string; status: string; currentStep: string | null; mustAct: string[]; myRoles: string[] };
const listOf = async (token: string, query = '') => {
  const res = await get(`${query ? `?${query}` : ''}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: ListItem[]; nextCursor: string | null };
};
const view = async (token: string, procId: string, extra: Record<string, unknown> = {}) =>
  post('documentView', token, { ettnDocumentId: { procId }, ...extra });

const tokenOf = async (c: { login: string; password: string }) => (await login(t.app, c)).access_token;

beforeAll(async () => {
  ({ t, supplier, retailer, carrier } = await ettnApp());
});
afterAll(async () => {
  await t?.close();
});

describe('access', () => {
  it('refuses a user without the role ettn (403), and one with the role but not the permission ETTN', async () => {
    const ksef = (await login(t.app, KSEF)).access_token;
    expect(code(await post('aliasRegistrationGet', ksef, {}))).toBe('auth.forbidden');
    expect((await get('', ksef)).statusCode).toBe(403);
    expect((await register(ksef, noteXml())).statusCode).toBe(403);
    const clerk = (await login(t.app, CLERK)).access_token;
    expect((await post('aliasRegistrationGet', clerk, {})).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/ettns' })).statusCode).toBe(401);
  });
});

describe('aliases and subscriptions', () => {
  it('aliasRegistrationGet: the company’s alias and its subscription, the supplier’s expiring in 10 days', async () => {
    const res = await post('aliasRegistrationGet', supplier, {});
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.aliases).toEqual([
      expect.objectContaining({ qualifier: 'EDRPOU', value: '14360570', isRegistered: true }),
    ]);
    const [subscription] = body.subscriptions;
    const days = (Date.parse(subscription.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.9);
    expect(days).toBeLessThanOrEqual(10);
    expect((await post('aliasRegistrationGet', carrier, { aliasValue: '32855961' })).json().aliases).toHaveLength(1);
    expect(code(await post('aliasRegistrationGet', carrier, { aliasValue: '123' }))).toBe('validation.failed');
  });

  it('aliasRegistrationSet registers and renews an alias (multipart); another company’s alias is 25', async () => {
    const res = await form('aliasRegistrationSet', carrier, { aliasQualifier: 'EDRPOU', aliasValue: '20087109' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ value: '20087109', isRegistered: true });
    const renewed = await form('aliasRegistrationSet', carrier, {
      aliasQualifier: 'EDRPOU',
      aliasValue: '20087109',
      isRegistered: 'true',
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const taken = expectEttn(
      await form('aliasRegistrationSet', retailer, { aliasQualifier: 'EDRPOU', aliasValue: '14360570' }),
      25,
      409,
    );
    expect(taken.data.messages['en']).toBe('Incorrect operation to update representatives');
    const bad = await form('aliasRegistrationSet', carrier, { aliasQualifier: 'GLN', aliasValue: '20087108' });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['aliasQualifier', 'aliasValue']);
  });
});

describe('registerEttn and the pending list', () => {
  it('takes a note of the company as consignor, refuses bad XML (29), a role not held (20), a bad signature (30)', async () => {
    const ok = await register(supplier, noteXml());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().id).toMatch(/^[0-9a-f-]{36}$/);

    expectEttn(await register(supplier, '<UAECMR><eCMR>'), 29, 422);
    const invalid = demoNote();
    invalid.consignment.consignor!.id = '14360571';
    const findings = expectEttn(await register(supplier, noteXml(invalid)), 29, 422) as unknown as {
      details: { field: string; code: string }[];
    };
    expect(findings.details.map((d) => d.code)).toContain('edrpou_checksum');

    expectEttn(await register(supplier, noteXml(), 'CN'), 20, 403);
    // The carrier holds ETTN_CA, but the carrier of this note is another company.
    expectEttn(await register(carrier, noteXml(demoNote({ carrier: '20403869' })), 'CA'), 20, 403);

    const signed = await signedNoteXml(demoNote({ number: 'TTN-SIGNED' }), t.clock.now());
    expect((await register(supplier, signed)).statusCode).toBe(200);
    const tampered = signed.replace('Молоко 2,5 %', 'Молоко 3,2 %');
    expect(tampered).not.toBe(signed);
    expectEttn(await register(supplier, tampered), 30, 422);

    expect(code(await form('registerEttn', supplier, { fileName: 'x.xml', signingPartyRoleCode: 'CZ' }))).toBe(
      'validation.failed',
    );
    expect(code(await register(supplier, noteXml(), 'XX'))).toBe('validation.failed');
    const tooBig = await register(supplier, noteXml(demoNote({ items: 2500 })));
    expect(tooBig.statusCode).toBe(413);
    // A big note (over 64 KiB) is read, checked and verified on the CPU pool.
    const before = t.app.services.cpu.completed();
    const big = noteXml(demoNote({ number: 'TTN-BIG', items: 200 }));
    expect(big.length).toBeGreaterThan(64 * 1024);
    expect((await register(supplier, big)).statusCode).toBe(200);
    expect(t.app.services.cpu.completed()).toBe(before + 1);
  });

  it('pendingPartGet gives BODY and META as base64 XML; the pending list shows the upload; others get 404', async () => {
    const { id } = (await register(supplier, noteXml(demoNote({ number: 'TTN-PENDING' })))).json();
    const body = await post('pendingPartGet', supplier, { registeredFileId: id, partType: 'BODY' });
    expect(body.statusCode, body.body).toBe(200);
    expect(Buffer.from(body.json().bodyPartContent, 'base64').toString('utf8')).toContain('TTN-PENDING');
    expect(body.json().processDocumentStatus).toBe('PENDING');
    const meta = await post('pendingPartGet', supplier, { registeredFileId: id, partType: 'META' });
    expect(Buffer.from(meta.json().bodyPartContent, 'base64').toString('utf8')).toContain('<PendingDocumentMeta>');
    expect((await post('pendingPartGet', retailer, { registeredFileId: id })).statusCode).toBe(404);
    expect(code(await post('pendingPartGet', supplier, { registeredFileId: id, partType: 'XML' }))).toBe(
      'validation.failed',
    );

    const pending = await listOf(supplier, '');
    expect(pending.items.some((i) => i.id === id)).toBe(false);
    const res = await get('/pending?limit=1', supplier);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toHaveLength(1);
    expect(res.json().nextCursor).not.toBeNull();
    const all = (await get('/pending?limit=100', supplier)).json().items as (ListItem & { number: string })[];
    expect(all.find((i) => i.id === id)).toMatchObject({ status: 'PENDING', mustAct: ['CZ'], myRoles: ['CZ'] });
    expect((await view(supplier, id, { isPending: true })).json()).toMatchObject({
      isPending: true,
      number: 'TTN-PENDING',
    });
    expect((await get('/pending?cursor=forged!', supplier)).statusCode).toBe(400);
  });
});

describe('the demo chain', () => {
  let processId: string;
  let actId: string;

  it('Demo Supplier signs and sends its upload: the registry simulator registers it PLANNED', async () => {
    const { id } = (await register(supplier, noteXml())).json();
    const res = await form('signAndSend', supplier, {
      aliasQualifier: 'EDRPOU',
      aliasValue: '14360570',
      registeredFileId: id,
      signingPartyRoleCode: 'CZ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'PLANNED', documentStatus: null, processDocumentStatus: 'OK' });
    processId = res.json().processId;
    // Sent once: the upload leaves the pending list, a second send is refused.
    const again = await form('signAndSend', supplier, { registeredFileId: id, signingPartyRoleCode: 'CZ' });
    expectEttn(again, 7, 409);
    expect(code(await form('signAndSend', supplier, { signingPartyRoleCode: 'CZ' }))).toBe('validation.failed');
    expect(code(await form('signAndSend', supplier, { registeredFileId: 'x', signingPartyRoleCode: 'CZ' }))).toBe(
      'validation.failed',
    );
  });

  it('each party lists it PLANNED, waiting for the carrier', async () => {
    for (const [token, role] of [
      [supplier, 'CZ'],
      [retailer, 'CN'],
      [carrier, 'CA'],
    ] as const) {
      const item = (await listOf(token)).items.find((i) => i.id === processId);
      expect(item, role).toMatchObject({
        status: 'PLANNED',
        currentStep: 'pickup_sign',
        mustAct: ['CA'],
        myRoles: [role],
      });
    }
    expect((await listOf(retailer, 'status=PICKUP')).items.some((i) => i.id === processId)).toBe(false);
    expect((await listOf(retailer, 'search=demo%20trans')).items.some((i) => i.id === processId)).toBe(true);
    expect((await listOf(retailer, 'role=CA')).items).toEqual([]);
    expect((await listOf(carrier, 'role=CA&dateFrom=2026-11-16&dateTo=2026-11-16')).items.length).toBeGreaterThan(0);
    expect((await get('?status=LOST', supplier)).statusCode).toBe(400);
  });

  it('refuses steps out of order (7), roles not held (20) and a note that moved on (7, 31)', async () => {
    const arrival = await form('signAndSend', retailer, { processId, signingPartyRoleCode: 'CN' });
    expect(expectEttn(arrival, 7, 409).data.messages['uk']).toBe('Некоректний перехід між станами ТТН');
    expectEttn(await form('signAndSend', retailer, { processId, signingPartyRoleCode: 'CA' }), 20, 403);
    expectEttn(
      await form('signAndSend', carrier, { processId, signingPartyRoleCode: 'DR', actualStatus: 'PICKUP' }),
      7,
      409,
    );
    expectEttn(
      await form('signAndSend', carrier, { processId, signingPartyRoleCode: 'DR', actualVersion: '3' }),
      31,
      422,
    );
  });

  it('Demo Transport’s driver signs the pick-up: PICKUP', async () => {
    const res = await form('signAndSend', carrier, {
      processId,
      signingPartyRoleCode: 'DR',
      actualStatus: 'PLANNED',
      actualVersion: '0',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('PICKUP');
    const item = (await listOf(supplier)).items.find((i) => i.id === processId);
    expect(item).toMatchObject({ status: 'PICKUP', mustAct: ['CN'] });
  });

  it('Demo Retailer starts a disagreement act (21 for a role that cannot start it); the carrier countersigns', async () => {
    expectEttn(
      await form('signAndSend', carrier, { processId, signingPartyRoleCode: 'CA', actType: 'DisagreementAct' }),
      21,
      403,
    );
    expectEttn(
      await form('signAndSend', retailer, { processId, signingPartyRoleCode: 'OB', actType: 'DisagreementAct' }),
      21,
      403,
    );
    const started = await form('signAndSend', retailer, {
      processId,
      signingPartyRoleCode: 'CN',
      actType: 'DisagreementAct',
      reason: 'Two pallets damaged',
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'PICKUP', documentStatus: 'SIGNATURE_PENDING' });
    actId = started.json().documentId;
    expect((await listOf(supplier)).items.find((i) => i.id === processId)?.mustAct.sort()).toEqual(['CA', 'CN']);
    // The act waits for the carrier, not the consignor.
    expectEttn(
      await form('signAndSend', supplier, { processId, documentId: actId, signingPartyRoleCode: 'CZ' }),
      21,
      403,
    );
    const countersigned = await form('signAndSend', carrier, {
      processId,
      documentId: actId,
      signingPartyRoleCode: 'CA',
    });
    expect(countersigned.statusCode, countersigned.body).toBe(200);
    expect(countersigned.json().documentStatus).toBe('SIGNATURE_PENDING');
    const act = await view(carrier, processId, { act: true, ettnDocumentId: { procId: processId, docId: actId } });
    expect(act.statusCode, act.body).toBe(200);
    expect(act.json()).toMatchObject({ kind: 'act', actType: 'DisagreementAct', status: 'SIGNATURE_PENDING' });
  });

  it('Demo Retailer signs the arrival: ARRIVED, seen by every party with its signatures, acts and history', async () => {
    const res = await form('signAndSend', retailer, { processId, signingPartyRoleCode: 'CN', actualStatus: 'PICKUP' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('ARRIVED');
    for (const token of [supplier, retailer, carrier]) {
      const v = await view(token, processId);
      expect(v.statusCode, v.body).toBe(200);
      const body = v.json();
      expect(body).toMatchObject({ status: 'ARRIVED', version: 2, kind: 'ettn', number: 'TTN-2026-0001' });
      expect(body.signatures.map((s: { roleCode: string }) => s.roleCode)).toEqual(['CZ', 'DR', 'CN']);
      expect(body.signatures[0]).toMatchObject({ signerName: 'Uma User', verified: true, signerKind: 'demo' });
      expect(body.acts).toEqual([
        expect.objectContaining({
          documentId: actId,
          type: 'DisagreementAct',
          signedBy: ['CN', 'CA'],
          nextSigner: 'CZ',
        }),
      ]);
      expect(
        body.transactions.map((x: { transactionNo: number; kind: string }) => `${x.kind}${x.transactionNo}`),
      ).toEqual(['ettn0', 'ettn1', 'act0', 'act1', 'ettn2']);
      expect(body.items[0]).toMatchObject({ name: 'Молоко 2,5 %', uktzed: '0401201100' });
      expect(body.route.loading.name).toBe('Склад відправника');
      expect(body.history.map((h: { entityStatus: string }) => h.entityStatus)).toEqual([
        'PLANNED',
        'PICKUP',
        'SIGNATURE_PENDING',
        'SIGNATURE_PENDING',
        'ARRIVED',
      ]);
    }
  });

  it('processDocumentPartGet gives each transaction’s signed XML and META; the chain verifies', async () => {
    const body = await post('processDocumentPartGet', retailer, { processId, partType: 'BODY' });
    expect(body.statusCode, body.body).toBe(200);
    const xml = Buffer.from(body.json().bodyPartContent, 'base64').toString('utf8');
    const last = readEttn(xml);
    expect(last.ok && last.document.model.header.transactionId).toBe('2');
    const meta = await post('processDocumentPartGet', retailer, { processId, partType: 'META' });
    expect(Buffer.from(meta.json().bodyPartContent, 'base64').toString('utf8')).toContain('registry="simulator"');

    const transactions = (await view(retailer, processId)).json().transactions as {
      documentDetId: string;
      kind: string;
      fileUrl: string;
    }[];
    const chain: EttnDocument[] = [];
    for (const x of transactions.filter((x) => x.kind === 'ettn')) {
      const part = await post('processDocumentPartGet', carrier, { processId, documentDetId: x.documentDetId });
      const read = readEttn(Buffer.from(part.json().bodyPartContent, 'base64').toString('utf8'));
      if (read.ok) chain.push(read.document);
    }
    expect(chain).toHaveLength(3);
    const checked = await verifyChain(new DemoSigner(), chain, { at: t.clock.now() });
    expect(checked.ok, checked.reason).toBe(true);

    const download = await form('downloadSignedEttn', supplier, {
      fileUrl: transactions[0]!.fileUrl,
      fileName: 'ttn.xml',
    });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toContain('application/xml');
    expect(download.headers['content-disposition']).toContain('ttn.xml');
    expect(download.body).toContain('<SigningPartyRoleCode>CZ</SigningPartyRoleCode>');
    expect(code(await form('downloadSignedEttn', supplier, { fileUrl: 'nope' }))).toBe('validation.failed');
    expect((await form('downloadSignedEttn', supplier, { fileUrl: UNKNOWN })).statusCode).toBe(404);
    expect(code(await post('processDocumentPartGet', supplier, { processId: 'x' }))).toBe('validation.failed');
    expect((await post('processDocumentPartGet', supplier, { processId: UNKNOWN })).statusCode).toBe(404);
  });

  it('documentPdf: the paper copy of the note with its QR code, for each party', async () => {
    const before = t.app.services.cpu.completed();
    const res = await post('documentPdf', carrier, { ettnDocumentId: { procId: processId }, language: 'uk' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('ettn_TTN-2026-0001.pdf');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(t.app.services.cpu.completed()).toBeGreaterThan(before);
    expect(code(await post('documentPdf', carrier, { ettnDocumentId: { procId: 'x' } }))).toBe('validation.failed');
    expect((await post('documentPdf', carrier, { ettnDocumentId: { procId: UNKNOWN } })).statusCode).toBe(404);
  });

  it('the registry’s events reach the subscribed companies', async () => {
    for (const token of [supplier, retailer, carrier]) {
      const res = await get(`/events?processId=${processId}`, token);
      expect(res.statusCode, res.body).toBe(200);
      const events = res.json().items as { entityStatus: string; entityType: string; actorIdentifier: string }[];
      expect(events.map((e) => `${e.entityType}:${e.entityStatus}`).reverse()).toEqual([
        'ettn:PLANNED',
        'ettn:PICKUP',
        'act:SIGNATURE_PENDING',
        'act:SIGNATURE_PENDING',
        'ettn:ARRIVED',
      ]);
      expect(events[0]?.actorIdentifier).toBe('00032129');
    }
    const page = await get('/events?limit=2', retailer);
    expect(page.json().items).toHaveLength(2);
    const next = await get(`/events?limit=2&cursor=${page.json().nextCursor}`, retailer);
    expect(next.statusCode).toBe(200);
    expect((await get('/events?cursor=abc', retailer)).statusCode).toBe(400);
  });

  it('an expired subscription gets no more events; the consignor’s countersignature signs the act', async () => {
    // Demo Supplier's subscription ends 10 days after the seed: move past it (new tokens for the new time).
    t.clock.set(new Date(Date.now() + 11 * 86_400_000));
    supplier = await tokenOf(SUPPLIER);
    retailer = await tokenOf(RETAILER);
    const signed = await form('signAndSend', supplier, { processId, documentId: actId, signingPartyRoleCode: 'CZ' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ documentStatus: 'SIGNED', status: 'ARRIVED' });
    const supplierEvents = (await get(`/events?processId=${processId}`, supplier)).json().items;
    const retailerEvents = (await get(`/events?processId=${processId}`, retailer)).json().items;
    expect(supplierEvents).toHaveLength(5);
    expect(retailerEvents).toHaveLength(6);
    expect(retailerEvents[0]).toMatchObject({ entityType: 'act', entityStatus: 'SIGNED', actorIdentifier: '14360570' });
    const aliases = (await post('aliasRegistrationGet', supplier, {})).json();
    expect(aliases.subscriptions[0].expired).toBe(true);
  });
});

describe('a rejected step', () => {
  it('the carrier rejects a planned note: CANCELED, and nothing moves it on (7)', async () => {
    carrier = await tokenOf(CARRIER); // the clock moved on above
    const xml = noteXml(demoNote({ number: 'TTN-REJECTED' }));
    const sent = await form('signAndSend', supplier, { signingPartyRoleCode: 'CZ' }, { name: 'n.xml', content: xml });
    expect(sent.statusCode, sent.body).toBe(200);
    const processId = sent.json().processId as string;
    const rejected = await form('signAndSend', carrier, {
      processId,
      signingPartyRoleCode: 'CA',
      decision: 'reject',
      reason: 'Vehicle broke down',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().status).toBe('CANCELED');
    expectEttn(await form('signAndSend', carrier, { processId, signingPartyRoleCode: 'DR' }), 7, 409);
    expect((await view(supplier, processId)).json()).toMatchObject({
      status: 'CANCELED',
      mustAct: [],
      currentStep: null,
    });
  });
});

describe('another company’s note', () => {
  it('is a 404 for every call, as an unknown one', async () => {
    const other = noteXml(demoNote({ number: 'TTN-OTHER', consignee: '20300922', carrier: '20403869' }));
    const { id } = (await register(supplier, other)).json();
    const sent = await form('signAndSend', supplier, { registeredFileId: id, signingPartyRoleCode: 'CZ' });
    expect(sent.statusCode, sent.body).toBe(200);
    const processId = sent.json().processId as string;
    expect((await view(retailer, processId)).statusCode).toBe(404);
    expect((await post('processDocumentPartGet', retailer, { processId })).statusCode).toBe(404);
    expect((await form('signAndSend', retailer, { processId, signingPartyRoleCode: 'CN' })).statusCode).toBe(404);
    const transactions = (await view(supplier, processId)).json().transactions;
    expect((await form('downloadSignedEttn', retailer, { fileUrl: transactions[0].fileUrl })).statusCode).toBe(404);
    expect((await listOf(retailer)).items.some((i) => i.id === processId)).toBe(false);
    expect(code(await view(retailer, 'not-a-uuid'))).toBe('validation.failed');
  });
});
