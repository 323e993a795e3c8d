import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTNER_NOTIFICATIONS_MAX } from '@portal/contracts';
import { bearer, createTestApp, latestAudit, login, type TestApp } from './helper.ts';
import { startSmtpReceiver } from './smtp.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
/** Demo Retailer's GLN: a company on the platform. */
const RETAILER_GLN = '4012345000016';
/** GLNs of no company on the platform. */
const GLN_A = '5901234123457';
const GLN_B = '4000001000005';
const GLN_C = '8712345678906';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let user: string;
let clerk: string;
let buyer: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(token ? { headers: bearer(token) } : {}),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
const details = (res: { json(): { error?: { details?: { field: string; code: string }[] } } }) =>
  (res.json().error?.details ?? []).map((d) => `${d.field}:${d.code}`);
const glns = async (token = user, query = '') =>
  ((await call('GET', `/api/partners${query}`, token)).json().items as { gln: string }[]).map((p) => p.gln);

const offPlatform = (over: Record<string, unknown> = {}) => ({
  gln: GLN_A,
  name: 'Hurtownia Północ Sp. z o.o.',
  vatId: 'PL5261040828',
  country: 'pl',
  contactName: 'Jan Kowalski',
  contactEmail: 'jan@hurtownia.example.com',
  contactPhone: '+48 22 123 45 67',
  status: 'active',
  testMode: true,
  docTypesIn: ['INVOIC', 'DESADV'],
  docTypesOut: ['ORDERS'],
  ...over,
});

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('partners', () => {
  let offId = '';
  let linkedId = '';

  it('adds a party off the platform with every field, normalised, and audits it', async () => {
    const res = await call('POST', '/api/partners', user, offPlatform());
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    offId = body.id;
    expect(body).toMatchObject({
      ...offPlatform(),
      country: 'PL',
      linkedCompany: null,
      lastExchangeAt: null,
      notifications: [],
    });
    const audit = await latestAudit(t.database.db, 'partners.changed');
    expect(audit?.details).toMatchObject({ change: 'created', partnerId: offId, gln: GLN_A });
  });

  it('adds a platform company by GLN alone: linked, under its name', async () => {
    const lookup = await call('GET', `/api/partners/lookup?gln=${RETAILER_GLN}`, user);
    expect(lookup.json()).toEqual({
      gln: RETAILER_GLN,
      company: { id: expect.any(String), name: 'Demo Retailer' },
      partnerId: null,
    });
    const res = await call('POST', '/api/partners', user, { gln: RETAILER_GLN });
    expect(res.statusCode, res.body).toBe(201);
    linkedId = res.json().id;
    expect(res.json()).toMatchObject({
      gln: RETAILER_GLN,
      name: 'Demo Retailer',
      linkedCompany: { id: lookup.json().company.id, name: 'Demo Retailer' },
      status: 'active',
      testMode: false,
    });
    expect((await call('GET', `/api/partners/lookup?gln=${RETAILER_GLN}`, user)).json().partnerId).toBe(linkedId);
  });

  it('refuses each bad field with its own code, and a party off the platform without a name', async () => {
    const res = await call(
      'POST',
      '/api/partners',
      user,
      offPlatform({
        gln: '5901234123458',
        country: 'XX',
        contactEmail: 'not-an-address',
        contactPhone: 'call me',
        status: 'sleeping',
        testMode: 'yes',
        docTypesIn: ['LETTER'],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(details(res).sort()).toEqual(
      [
        'gln:gln',
        'country:country',
        'contactEmail:email',
        'contactPhone:telephone',
        'status:oneOf',
        'testMode:boolean',
        'docTypesIn.0:oneOf',
      ].sort(),
    );
    const noName = await call('POST', '/api/partners', user, { gln: GLN_B });
    expect(noName.statusCode).toBe(400);
    expect(details(noName)).toEqual(['name:required']);
    expect(details(await call('GET', '/api/partners/lookup?gln=123', user))).toEqual(['gln:gln']);
    expect(await glns()).toHaveLength(2);
  });

  it('refuses a GLN the company already has (409 on the field)', async () => {
    const dup = await call('POST', '/api/partners', user, offPlatform({ name: 'Copy' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('partners.gln_taken');
    expect(details(dup)).toEqual(['gln:glnTaken']);
  });

  it('updates a partner; a linked partner keeps its company name whatever is sent', async () => {
    const { gln: _gln, ...fields } = offPlatform({ contactName: '', status: 'blocked', docTypesOut: [] });
    const res = await call('PUT', `/api/partners/${offId}`, user, fields);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ gln: GLN_A, contactName: null, status: 'blocked', docTypesOut: [] });
    const linked = await call('PUT', `/api/partners/${linkedId}`, user, { name: 'Renamed', testMode: true });
    expect(linked.json()).toMatchObject({ name: 'Demo Retailer', testMode: true });
    expect((await latestAudit(t.database.db, 'partners.changed'))?.details).toMatchObject({ change: 'updated' });
  });

  it('sets the notification recipients, checked: address, language, events, no repeats, at most 20', async () => {
    const good = [
      { email: 'Ops@Supplier.example.com', language: 'de', events: ['received', 'failed'] },
      { email: 'errors@supplier.example.com', language: 'ar', events: ['failed'] },
    ];
    const res = await call('PUT', `/api/partners/${linkedId}/notifications`, user, { notifications: good });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().notifications).toEqual([
      { email: 'ops@supplier.example.com', language: 'de', events: ['received', 'failed'] },
      { email: 'errors@supplier.example.com', language: 'ar', events: ['failed'] },
    ]);
    const bad = await call('PUT', `/api/partners/${linkedId}/notifications`, user, {
      notifications: [
        { email: 'x', language: 'xx', events: [] },
        { email: 'a@b.example.com', language: 'en', events: ['deleted'] },
        { email: 'A@b.example.com', language: 'en', events: ['failed'] },
      ],
    });
    expect(details(bad).sort()).toEqual(
      [
        'notifications.0.email:email',
        'notifications.0.language:language',
        'notifications.0.events:required',
        'notifications.1.events.0:oneOf',
      ].sort(),
    );
    const dup = await call('PUT', `/api/partners/${linkedId}/notifications`, user, {
      notifications: [good[1], good[1]],
    });
    expect(details(dup)).toEqual(['notifications.1.email:duplicate']);
    const many = Array.from({ length: PARTNER_NOTIFICATIONS_MAX + 1 }, (_, i) => ({
      email: `n${i}@x.example.com`,
      language: 'en',
      events: ['failed'],
    }));
    expect(
      details(await call('PUT', `/api/partners/${linkedId}/notifications`, user, { notifications: many })),
    ).toEqual(['notifications:tooBig']);
  });

  it('keeps every company to its own partners: another company gets 404 for the ids and sees none of them', async () => {
    expect((await call('GET', `/api/partners/${offId}`, buyer)).statusCode).toBe(404);
    expect((await call('PUT', `/api/partners/${offId}`, buyer, { name: 'X' })).statusCode).toBe(404);
    expect((await call('PUT', `/api/partners/${offId}/notifications`, buyer, { notifications: [] })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/api/partners/${offId}`, buyer)).statusCode).toBe(404);
    expect(await glns(buyer)).toEqual([]);
    // The same GLN is free for another company.
    expect((await call('POST', '/api/partners', buyer, offPlatform())).statusCode).toBe(201);
    expect((await call('GET', `/api/partners/${offId}`, user)).json().status).toBe('blocked');
  });

  it('needs PARTNERS_READ to see, COMPANY_PROFILE_MODIFY to change, PARTNERS_NOTIFICATIONS for notifications', async () => {
    expect((await call('GET', '/api/partners', clerk)).statusCode).toBe(403);
    expect((await call('GET', `/api/partners/${offId}`, clerk)).statusCode).toBe(403);
    expect((await call('GET', '/api/partners')).statusCode).toBe(401);
    // The clerk's group gets PARTNERS_READ only.
    const group = (await call('GET', '/api/groups?search=Inbox', user)).json().items[0] as { id: string };
    const put = await call('PUT', `/api/groups/${group.id}`, user, {
      name: 'Inbox readers',
      permissions: ['INBOX_READ', 'PARTNERS_READ'],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call('GET', '/api/partners', clerk)).statusCode).toBe(200);
    const detail = (await call('GET', `/api/partners/${linkedId}`, clerk)).json();
    expect(detail.name).toBe('Demo Retailer');
    expect(detail).not.toHaveProperty('notifications');
    expect((await call('POST', '/api/partners', clerk, offPlatform({ gln: GLN_C }))).statusCode).toBe(403);
    expect((await call('PUT', `/api/partners/${offId}`, clerk, { name: 'X' })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/partners/${offId}`, clerk)).statusCode).toBe(403);
    expect((await call('GET', `/api/partners/lookup?gln=${GLN_C}`, clerk)).statusCode).toBe(403);
    expect((await call('PUT', `/api/partners/${offId}/notifications`, clerk, { notifications: [] })).statusCode).toBe(
      403,
    );
  });

  it('shows a user whose restrictions name partners only those partners (by id or GLN)', async () => {
    const clerkId = (await call('GET', '/api/company-users?search=clerk', user)).json().items[0].id as string;
    const byGln = await call('POST', '/api/restrictions', user, {
      name: 'Retailer only',
      partners: [RETAILER_GLN, offId],
      assignees: { userIds: [clerkId] },
    });
    expect(byGln.statusCode, byGln.body).toBe(201);
    expect((await glns(clerk)).sort()).toEqual([GLN_A, RETAILER_GLN].sort());
    // Restrictions narrow: a second rule naming only the retailer leaves only it.
    const second = await call('POST', '/api/restrictions', user, {
      name: 'Retailer by id',
      partners: [linkedId],
      assignees: { userIds: [clerkId] },
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(await glns(clerk)).toEqual([RETAILER_GLN]);
    expect((await call('GET', `/api/partners/${offId}`, clerk)).statusCode).toBe(404);
    expect((await call('GET', `/api/partners/${linkedId}`, clerk)).statusCode).toBe(200);
    // Restricted to some partners, a user adds only a GLN their restrictions name.
    const group = (await call('GET', '/api/groups?search=Inbox', user)).json().items[0] as { id: string };
    await call('PUT', `/api/groups/${group.id}`, user, {
      name: 'Inbox readers',
      permissions: ['INBOX_READ', 'PARTNERS_READ', 'COMPANY_PROFILE_MODIFY'],
    });
    expect((await call('POST', '/api/partners', clerk, offPlatform({ gln: GLN_C }))).statusCode).toBe(403);
    await call('PUT', `/api/groups/${group.id}`, user, {
      name: 'Inbox readers',
      permissions: ['INBOX_READ', 'PARTNERS_READ'],
    });
    // The unrestricted user still sees both.
    expect((await glns(user)).sort()).toEqual([GLN_A, RETAILER_GLN].sort());
  });

  it('deletes a partner; a second delete is a 404', async () => {
    const extra = (await call('POST', '/api/partners', user, offPlatform({ gln: GLN_C, name: 'Gone' }))).json();
    expect((await call('DELETE', `/api/partners/${extra.id}`, user)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/partners/${extra.id}`, user)).statusCode).toBe(404);
    expect((await call('GET', `/api/partners/${extra.id}`, user)).statusCode).toBe(404);
    expect((await latestAudit(t.database.db, 'partners.changed'))?.details).toMatchObject({ change: 'deleted' });
  });
});

describe('partners list', () => {
  beforeAll(async () => {
    // The buyer's company: emptied, then five partners.
    for (const item of (await call('GET', '/api/partners?limit=100', buyer)).json().items as { id: string }[])
      await call('DELETE', `/api/partners/${item.id}`, buyer);
    const rows: [string, string, string, boolean][] = [
      ['delta', '5901234000055', 'active', false],
      ['Alpha', '4000001000005', 'new', true],
      ['charlie', '8712345678906', 'active', false],
      ['Bravo', '5901234123457', 'blocked', false],
      ['echo', '4006381333931', 'active', true],
    ];
    for (const [name, gln, status, testMode] of rows) {
      const res = await call('POST', '/api/partners', buyer, { gln, name, status, testMode, vatId: `VAT-${name}` });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('pages by name, case-insensitive, with a total on request', async () => {
    const names = (page: { items: { name: string }[] }) => page.items.map((p) => p.name);
    const first = (await call('GET', '/api/partners?limit=2&includeTotal=true', buyer)).json();
    expect(names(first)).toEqual(['Alpha', 'Bravo']);
    expect(first.total).toBe(5);
    const second = (await call('GET', `/api/partners?limit=2&cursor=${first.nextCursor}`, buyer)).json();
    expect(names(second)).toEqual(['charlie', 'delta']);
    const third = (await call('GET', `/api/partners?limit=2&cursor=${second.nextCursor}`, buyer)).json();
    expect(names(third)).toEqual(['echo']);
    expect(third.nextCursor).toBeNull();
  });

  it('sorts by GLN descending across pages', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { gln: string }[]; nextCursor: string | null } = (
        await call('GET', `/api/partners?sort=gln&order=desc&limit=2${cursor ? `&cursor=${cursor}` : ''}`, buyer)
      ).json();
      seen.push(...page.items.map((p) => p.gln));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['8712345678906', '5901234123457', '5901234000055', '4006381333931', '4000001000005']);
  });

  it('searches name, GLN and VAT ID, and filters by status and test mode', async () => {
    expect(await glns(buyer, '?search=ALP')).toEqual(['4000001000005']);
    expect(await glns(buyer, '?search=871234')).toEqual(['8712345678906']);
    expect(await glns(buyer, '?search=vat-echo')).toEqual(['4006381333931']);
    expect(await glns(buyer, '?status=active')).toEqual(['8712345678906', '5901234000055', '4006381333931']);
    expect(await glns(buyer, '?testMode=true')).toEqual(['4000001000005', '4006381333931']);
  });

  it('refuses a cursor of another sort, and bad filters, with 400 on the field', async () => {
    const byName = (await call('GET', '/api/partners?limit=1', buyer)).json().nextCursor as string;
    expect(details(await call('GET', `/api/partners?sort=gln&cursor=${byName}`, buyer))).toEqual(['cursor:cursor']);
    expect(details(await call('GET', '/api/partners?sort=password', buyer))).toEqual(['sort:oneOf']);
    expect(details(await call('GET', '/api/partners?status=gone', buyer))).toEqual(['status:oneOf']);
    expect(details(await call('GET', '/api/partners?testMode=maybe', buyer))).toEqual(['testMode:boolean']);
    expect(details(await call('GET', '/api/partners/not-a-uuid', buyer))).toEqual(['id:uuid']);
  });
});

describe('partners met in documents (the service the documents use)', () => {
  const service = () => t.app.services.partners;
  /** A platform company's id, as another company's lookup of its GLN finds it (a company is not its own partner). */
  const companyIdOf = async (gln: string) =>
    (await call('GET', `/api/partners/lookup?gln=${gln}`, gln === RETAILER_GLN ? user : buyer)).json().company
      .id as string;

  it('creates an unknown GLN as a new partner, then only moves its last exchange forward', async () => {
    const retailerId = await companyIdOf(RETAILER_GLN);
    const at = (day: number) => ({ at: new Date(`2026-11-${day}T08:00:00Z`) });
    const first = await service().ensurePartner(retailerId, '5012345678900', at(10));
    expect(first).toMatchObject({ status: 'new', created: true });
    expect((await latestAudit(t.database.db, 'partners.changed'))?.details).toMatchObject({
      change: 'discovered',
      partnerId: first.id,
    });
    const again = await service().ensurePartner(retailerId, '5012345678900', at(12));
    expect(again).toMatchObject({ id: first.id, created: false });
    await service().ensurePartner(retailerId, '5012345678900', at(11));
    const partner = (await call('GET', `/api/partners/${first.id}`, buyer)).json();
    expect(partner).toMatchObject({ gln: '5012345678900', name: '5012345678900', status: 'new', linkedCompany: null });
    expect(partner.lastExchangeAt).toBe('2026-11-12T08:00:00.000Z');
  });

  it('links a new partner whose GLN is a platform company', async () => {
    const retailerId = await companyIdOf(RETAILER_GLN);
    const supplier = await service().ensurePartner(retailerId, '5901234000017');
    const partner = (await call('GET', `/api/partners/${supplier.id}`, buyer)).json();
    expect(partner).toMatchObject({ name: 'Demo Supplier', status: 'new', linkedCompany: { name: 'Demo Supplier' } });
  });

  it('e-mails each recipient of the event, in their language, through the job queue', async () => {
    const supplierId = await companyIdOf('5901234000017');
    // The supplier's partner Demo Retailer tells ops@ (de: received, failed) and errors@ (ar: failed).
    const partnerId = (await call('GET', '/api/partners?search=Demo%20Retailer', user)).json().items[0].id as string;
    const received = await service().notifyPartnerEvent(supplierId, partnerId, 'received', {
      documentType: 'INVOIC',
      number: 'FV/7/2026',
      direction: 'in',
    });
    expect(received).toBe(1);
    const failed = await service().notifyPartnerEvent(supplierId, partnerId, 'failed', {
      documentType: 'ORDERS',
      number: 'PO-12',
      direction: 'out',
      reason: 'Rejected by the receiver',
    });
    expect(failed).toBe(2);
    const de = await smtp.waitFor('ops@supplier.example.com', /Neues Dokument/);
    expect(de.subject).toBe('Neues Dokument von Demo Retailer');
    expect(de.text).toContain('Demo Supplier hat ein Dokument vom Handelspartner Demo Retailer (GLN 4012345000016)');
    expect(de.text).toContain('Dokument: INVOIC FV/7/2026');
    const ar = await smtp.waitFor('errors@supplier.example.com');
    expect(ar.subject).toBe('فشل تبادل مستند مع Demo Retailer');
    expect(ar.text).toContain('السبب: Rejected by the receiver');
    await smtp.waitFor('ops@supplier.example.com', /Dokumentenaustausch/);
    expect(smtp.messages.filter((m) => m.to.includes('errors@supplier.example.com'))).toHaveLength(1);
  });

  it('tells nobody of a partner of another company', async () => {
    const retailerId = await companyIdOf(RETAILER_GLN);
    const partnerId = (await call('GET', '/api/partners?search=Demo%20Retailer', user)).json().items[0].id as string;
    expect(
      await service().notifyPartnerEvent(retailerId, partnerId, 'failed', { documentType: 'INVOIC', direction: 'in' }),
    ).toBe(0);
  });
});

describe("partners' sending settings (EANCOM directory, syntax identifier, UNA)", () => {
  const GLN_SEND = '5901234000994';
  const GLN_OTHER = '5901234000888';
  const service = () => t.app.services.partners;
  const companyIdOf = async (gln: string, token: string) =>
    (await call('GET', `/api/partners/lookup?gln=${gln}`, token)).json().company.id as string;
  let partnerId = '';

  beforeAll(async () => {
    const res = await call('POST', '/api/partners', user, { gln: GLN_SEND, name: 'Sklep Łódź' });
    expect(res.statusCode, res.body).toBe(201);
    partnerId = res.json().id;
  });

  it('defaults a partner added without them to D96A, UNOC, no UNA', async () => {
    const added = await call('POST', '/api/partners', user, { gln: GLN_OTHER, name: 'Hurtownia Gdańsk' });
    expect(added.statusCode, added.body).toBe(201);
    const defaults = { edifactDirectory: 'D96A', syntaxIdentifier: 'UNOC', una: false };
    expect(added.json()).toMatchObject(defaults);
    expect((await call('GET', `/api/partners/${added.json().id}`, user)).json()).toMatchObject(defaults);
    // The list's rows show none of it.
    const row = (await call('GET', `/api/partners?search=${GLN_OTHER}`, user)).json().items[0];
    expect(row.gln).toBe(GLN_OTHER);
    expect(row).not.toHaveProperty('syntaxIdentifier');
    expect((await call('DELETE', `/api/partners/${added.json().id}`, user)).statusCode).toBe(204);
  });

  it('saves and returns them on add and on update; an update without them puts the defaults back', async () => {
    const added = await call('POST', '/api/partners', user, {
      gln: GLN_OTHER,
      name: 'Hurtownia Gdańsk',
      edifactDirectory: 'D01B',
      syntaxIdentifier: 'UNOA',
      una: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ edifactDirectory: 'D01B', syntaxIdentifier: 'UNOA', una: true });
    expect((await call('DELETE', `/api/partners/${added.json().id}`, user)).statusCode).toBe(204);

    const put = await call('PUT', `/api/partners/${partnerId}`, user, {
      name: 'Sklep Łódź',
      edifactDirectory: 'D01B',
      syntaxIdentifier: 'UNOD',
      una: true,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ edifactDirectory: 'D01B', syntaxIdentifier: 'UNOD', una: true });
    expect((await call('GET', `/api/partners/${partnerId}`, user)).json()).toMatchObject({
      edifactDirectory: 'D01B',
      syntaxIdentifier: 'UNOD',
      una: true,
    });
    // PUT replaces the partner's fields: what is left out is its default again.
    const reset = await call('PUT', `/api/partners/${partnerId}`, user, { name: 'Sklep Łódź' });
    expect(reset.json()).toMatchObject({ edifactDirectory: 'D96A', syntaxIdentifier: 'UNOC', una: false });
  });

  it('refuses a value outside the lists with 400 naming the field, and changes nothing', async () => {
    const before = (await call('GET', `/api/partners/${partnerId}`, user)).json();
    const bad = { name: 'Sklep Łódź', edifactDirectory: 'D93A', syntaxIdentifier: 'UTF8', una: 'yes' };
    const put = await call('PUT', `/api/partners/${partnerId}`, user, bad);
    expect(put.statusCode).toBe(400);
    expect(details(put).sort()).toEqual(['edifactDirectory:oneOf', 'syntaxIdentifier:oneOf', 'una:boolean'].sort());
    const post = await call('POST', '/api/partners', user, { ...bad, gln: GLN_OTHER, una: false });
    expect(post.statusCode).toBe(400);
    expect(details(post).sort()).toEqual(['edifactDirectory:oneOf', 'syntaxIdentifier:oneOf'].sort());
    expect((await call('GET', `/api/partners/${partnerId}`, user)).json()).toEqual(before);
  });

  it("gives the sending code the partner's settings, and null for a partner of another company", async () => {
    await call('PUT', `/api/partners/${partnerId}`, user, {
      name: 'Sklep Łódź',
      testMode: true,
      docTypesOut: ['INVOIC', 'DESADV'],
      syntaxIdentifier: 'UNOD',
      una: true,
    });
    const supplierId = await companyIdOf('5901234000017', buyer);
    expect(await service().sendingSettings(supplierId, partnerId)).toEqual({
      gln: GLN_SEND,
      name: 'Sklep Łódź',
      linkedCompanyId: null,
      status: 'active',
      testMode: true,
      edifactDirectory: 'D96A',
      syntaxIdentifier: 'UNOD',
      una: true,
      docTypesOut: ['INVOIC', 'DESADV'],
    });
    const retailerId = await companyIdOf(RETAILER_GLN, user);
    expect(await service().sendingSettings(retailerId, partnerId)).toBeNull();
  });
});
