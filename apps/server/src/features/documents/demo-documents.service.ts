import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CompanyLocationsQuerySchema, FEATURE_PERMISSIONS, type FeatureToggle, type Role } from '@portal/contracts';
import { DEMO_ROLE } from '../../access/document-scope.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { JobEnqueuer } from '../../jobs/queue.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { SessionHooks } from '../auth/auth.service.ts';
import type { CompaniesService } from '../companies/companies.service.ts';
import { createDemoDocumentsRepository } from './demo-documents.repository.ts';
import type { DocumentsService } from './documents.service.ts';

/**
 * Demo documents (issue 11, part 5; decision 0027). Each login of a user of role `demo` gets a fresh set of sample
 * documents, made by the real ingest from EDIFACT interchanges with numbers and dates of their own and tagged with
 * the login session (refresh-token family): the access scope shows them to that session only, and they are deleted
 * when it ends (logout, or the periodic sweep once it expired). A company with the toggle DEMO_KSEF_SIEMENS gets a
 * second, larger set for presentations (an invoice of 40 lines, a correction and an advance invoice): in each demo
 * session, or, for the demo-ksef variant's company, once in its outbox as ordinary documents (decision 0041).
 */

/** The sweep's period: a session expired without a logout is gone at most this long after. */
export const DEMO_SWEEP_SECONDS = 15 * 60;
/** Sessions looked at per batch of the sweep. */
const SWEEP_BATCH = 200;

/** Demo Retailer, on the platform (its delivery points Store Berlin and Store Hamburg), and a buyer off it. */
const RETAILER = { gln: '4012345000016', points: ['4012345000023', '4012345000030'] };
const MARKET = { gln: '5401234000012', name: 'Sample Market', point: '5401234000029' };
const ARTICLES = [
  { gtin: '5901234123457', name: 'Mineral water 0.5 l', price: 12.5 },
  { gtin: '5901234123464', name: 'Apple juice 1 l', price: 10 },
];

const day = (date: Date, plus = 0) =>
  new Date(date.getTime() + plus * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');

/** One message: UNH, the body, and UNT counting them. */
function message(ref: number, type: string, body: string[]): string[] {
  return [`UNH+${ref}+${type}'`, ...body, `UNT+${body.length + 2}+${ref}'`];
}

/** An interchange (UNA to UNZ) of messages, one segment a line. */
function interchange(from: string, to: string, control: string, at: Date, messages: string[][]): string {
  const stamp = `${day(at).slice(2)}:${at.toISOString().slice(11, 16).replace(':', '')}`;
  return [
    "UNA:+.? '",
    `UNB+UNOC:3+${from}:14+${to}:14+${stamp}+${control}'`,
    ...messages.flat(),
    `UNZ+${messages.length}+${control}'`,
  ].join('\n');
}

type Order = { number: string; buyer: string; buyerName?: string; point: string; quantities: [number, number] };

function orders(ref: number, o: Order, supplier: string, at: Date, broken = false): string[] {
  const lines = o.quantities.flatMap((qty, i) => [
    `LIN+${i + 1}++${ARTICLES[i]!.gtin}:EN'`,
    `IMD+F++:::${ARTICLES[i]!.name}'`,
    // A decimal comma where the interchange's UNA says a point: the message with errors of the set.
    `QTY+21:${broken && i === 1 ? `${qty},5` : qty}'`,
    `PRI+AAA:${ARTICLES[i]!.price}'`,
  ]);
  return message(ref, 'ORDERS:D:96A:UN:EAN008', [
    `BGM+220+${o.number}+9'`,
    `DTM+137:${day(at, -1)}:102'`,
    `DTM+2:${day(at, 3)}:102'`,
    `NAD+BY+${o.buyer}::9${o.buyerName ? `++${o.buyerName}` : ''}'`,
    `NAD+DP+${o.point}::9'`,
    `NAD+SU+${supplier}::9'`,
    "CUX+2:EUR:9'",
    ...lines,
    "UNS+S'",
    `CNT+2:${o.quantities.length}'`,
  ]);
}

function ordrsp(ref: number, number: string, order: Order, supplier: string, at: Date): string[] {
  return message(ref, 'ORDRSP:D:96A:UN:EAN005', [
    `BGM+231+${number}+4'`,
    `DTM+137:${day(at)}:102'`,
    `RFF+ON:${order.number}'`,
    `DTM+171:${day(at, -1)}:102'`,
    `NAD+BY+${order.buyer}::9'`,
    `NAD+SU+${supplier}::9'`,
    ...order.quantities.flatMap((qty, i) => [`LIN+${i + 1}+5+${ARTICLES[i]!.gtin}:EN'`, `QTY+21:${qty}'`]),
    "UNS+S'",
  ]);
}

function desadv(ref: number, number: string, order: Order, supplier: string, at: Date, sscc: string): string[] {
  return message(ref, 'DESADV:D:96A:UN:EAN005', [
    `BGM+351+${number}+9'`,
    `DTM+137:${day(at)}:102'`,
    `DTM+11:${day(at)}:102'`,
    `DTM+17:${day(at, 1)}:102'`,
    `RFF+ON:${order.number}'`,
    `NAD+BY+${order.buyer}::9'`,
    `NAD+DP+${order.point}::9'`,
    `NAD+SU+${supplier}::9'`,
    "CPS+1'",
    "PAC+1++201'",
    "CPS+2+1'",
    "PAC+1++201'",
    "PCI+33E'",
    `GIN+BJ+${sscc}'`,
    ...order.quantities.flatMap((qty, i) => [`LIN+${i + 1}++${ARTICLES[i]!.gtin}:EN'`, `QTY+12:${qty}'`]),
    `CNT+2:${order.quantities.length}'`,
  ]);
}

function invoic(ref: number, number: string, order: Order, supplier: string, at: Date): string[] {
  const amounts = order.quantities.map((qty, i) => qty * ARTICLES[i]!.price);
  const net = amounts.reduce((a, b) => a + b, 0);
  const vat = Math.round(net * 21) / 100;
  const money = (n: number) => String(Math.round(n * 100) / 100);
  return message(ref, 'INVOIC:D:96A:UN:EAN008', [
    `BGM+380+${number}+9'`,
    `DTM+137:${day(at)}:102'`,
    `DTM+35:${day(at, -1)}:102'`,
    `RFF+ON:${order.number}'`,
    `NAD+BY+${order.buyer}::9'`,
    `NAD+SU+${supplier}::9'`,
    "CUX+2:EUR:4'",
    "PAT+1++5:3:D:30'",
    ...order.quantities.flatMap((qty, i) => [
      `LIN+${i + 1}++${ARTICLES[i]!.gtin}:EN'`,
      `QTY+47:${qty}'`,
      `MOA+203:${money(amounts[i]!)}'`,
      `PRI+AAA:${ARTICLES[i]!.price}'`,
      "TAX+7+VAT+++:::21+S'",
    ]),
    "UNS+S'",
    `CNT+2:${order.quantities.length}'`,
    `MOA+77:${money(net + vat)}'`,
    `MOA+79:${money(net)}'`,
    `MOA+125:${money(net)}'`,
    `MOA+176:${money(vat)}'`,
    "TAX+7+VAT+++:::21+S'",
    `MOA+176:${money(vat)}'`,
  ]);
}

/** The GS1 check digit of the digits before it. */
function checkDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}

/**
 * The interchanges of one session's set. Numbers and control references come from the session id, so that two
 * sessions differ and a retried job makes the same files again (the second upload of each is a duplicate, nothing
 * twice).
 */
export function demoInterchanges(
  sessionId: string,
  own: string,
  at: Date,
): { in: { fileName: string; text: string }[]; out: { fileName: string; text: string }[] } {
  const seed = (parseInt(createHash('sha256').update(sessionId).digest('hex').slice(0, 8), 16) % 900_000) + 100_000;
  const n = String(seed);
  const o1: Order = { number: `PO-${n}-1`, buyer: RETAILER.gln, point: RETAILER.points[0]!, quantities: [48, 24] };
  const o2: Order = { number: `PO-${n}-2`, buyer: RETAILER.gln, point: RETAILER.points[1]!, quantities: [96, 12] };
  const m: Order = { buyer: MARKET.gln, buyerName: MARKET.name, point: MARKET.point, quantities: [24, 6], number: '' };
  const o3: Order = { ...m, number: `SM-${n}-1` };
  const o4: Order = { ...m, number: `SM-${n}-2`, quantities: [12, 12] };
  const sscc = (i: number) => {
    const body = `35901234${n}${i}`.padEnd(17, '0');
    return `${body}${checkDigit(body)}`;
  };
  return {
    in: [
      {
        fileName: `demo-orders-${n}-retailer.edi`,
        text: interchange(RETAILER.gln, own, `DI${n}1`, at, [orders(1, o1, own, at), orders(2, o2, own, at)]),
      },
      {
        fileName: `demo-orders-${n}-market.edi`,
        text: interchange(MARKET.gln, own, `DI${n}2`, at, [orders(1, o3, own, at), orders(2, o4, own, at, true)]),
      },
    ],
    out: [
      {
        fileName: `demo-outbox-${n}.edi`,
        text: interchange(own, RETAILER.gln, `DO${n}1`, at, [
          ordrsp(1, `RSP-${n}-1`, o1, own, at),
          desadv(2, `DES-${n}-1`, o1, own, at, sscc(1)),
          invoic(3, `INV-${n}-1`, o1, own, at),
          desadv(4, `DES-${n}-2`, o2, own, at, sscc(2)),
          invoic(5, `INV-${n}-2`, o2, own, at),
        ]),
      },
    ],
  };
}

/** The larger set's buyer and the seller's NIP when the demo company has no Polish VAT id (checksums valid). */
const PRESENTATION_BUYER = {
  name: 'Demo Retailer',
  vatId: 'PL5252248481',
  street: 'ul. Handlowa 5',
  city: 'Krakow',
  postcode: '30-001',
};
const PRESENTATION_SELLER = {
  vatId: 'PL5261040828',
  street: 'ul. Przemyslowa 12',
  city: 'Warszawa',
  postcode: '02-001',
};
/** The 40 articles of the larger set: name, net unit price in grosze, VAT rate. */
const PRESENTATION_ARTICLES: [name: string, price: number, rate: '23' | '8'][] = [
  'Circuit breaker 1P B16',
  'Circuit breaker 3P C32',
  'Residual current device 40 A 30 mA',
  'Contactor 3P 9 A 230 V',
  'Contactor 3P 25 A 24 V DC',
  'Overload relay 7-10 A',
  'Motor starter 4-6.3 A',
  'Frequency inverter 0.75 kW',
  'Frequency inverter 2.2 kW',
  'PLC CPU 1214C',
  'PLC digital input module 16 DI',
  'PLC digital output module 16 DO',
  'PLC analog input module 4 AI',
  'HMI touch panel 7 in',
  'Industrial Ethernet switch 8 ports',
  'Power supply 24 V DC 5 A',
  'Power supply 24 V DC 10 A',
  'Push button green 22 mm',
  'Push button red 22 mm',
  'Emergency stop button 40 mm',
  'Indicator lamp white 24 V',
  'Selector switch 3 positions',
  'Limit switch roller lever',
  'Inductive proximity sensor M18',
  'Photoelectric sensor 2 m',
  'Terminal block 4 mm2 grey',
  'Terminal block 4 mm2 blue',
  'Earth terminal block 4 mm2',
  'DIN rail 35 mm 2 m',
  'Cable duct 40x60 mm 2 m',
  'Control cable 7x1.5 mm2 100 m',
  'Motor cable 4x2.5 mm2 50 m',
  'Cable gland M20',
  'Enclosure 600x400x200 mm',
  'Enclosure fan with filter 230 V',
  'Enclosure thermostat 0-60 C',
  'Surge protection device T2',
  'Energy meter 3-phase MID',
  'Safety manual (printed)',
  'Commissioning service (hour)',
].map((name, i): [string, number, '23' | '8'] => [name, 1290 + ((i * 7919) % 48_000), i === 38 ? '8' : '23']);

/** Grosze as a decimal: 1234 → `12.34`; -1234 → `-12.34`. */
const zl = (grosze: number) =>
  `${grosze < 0 ? '-' : ''}${Math.floor(Math.abs(grosze) / 100)}.${String(Math.abs(grosze) % 100).padStart(2, '0')}`;

type PresentationLine = { article: number; quantity: number };

/**
 * One invoice-like INVOIC of the larger set (UNCL 1001 `code`: 380 invoice, 381 correction, 386 advance), in PLN
 * with Polish VAT ids and addresses, so each maps to an FA(3) kind (VAT, KOR, ZAL) and can be sent to KSeF. `extra`
 * goes after the order reference (a correction's corrected invoice); `prepaid` is an advance invoice's advance (MOA
 * 113, the advance received, gross), which is then also its total.
 */
function presentationInvoice(
  ref: number,
  code: '380' | '381' | '386',
  number: string,
  seller: { gln: string; name: string; vatId: string },
  at: Date,
  lines: PresentationLine[],
  extra: string[],
  prepaidShare?: number,
): string[] {
  const rows = lines.map((l) => {
    const [name, price, rate] = PRESENTATION_ARTICLES[l.article]!;
    const gtinBody = `590123460${String(l.article).padStart(3, '0')}`;
    return { ...l, name, price, rate, gtin: `${gtinBody}${checkDigit(gtinBody)}`, net: l.quantity * price };
  });
  const byRate = new Map<string, number>();
  for (const r of rows) byRate.set(r.rate, (byRate.get(r.rate) ?? 0) + r.net);
  const vatOf = (net: number, rate: string) => Math.round((net * Number(rate)) / 100);
  let net = rows.reduce((a, r) => a + r.net, 0);
  let taxes = [...byRate].map(([rate, base]) => ({ rate, base, vat: vatOf(base, rate) }));
  let prepaid: number | undefined;
  if (prepaidShare !== undefined) {
    // An advance invoice: its totals are those of the advance received, a share of the order's gross.
    const orderGross = net + taxes.reduce((a, t) => a + t.vat, 0);
    prepaid = Math.round(orderGross * prepaidShare);
    const base = Math.round((prepaid * 100) / 123);
    net = base;
    taxes = [{ rate: '23', base, vat: prepaid - base }];
  }
  const vat = taxes.reduce((a, t) => a + t.vat, 0);
  const b = PRESENTATION_BUYER;
  const s = PRESENTATION_SELLER;
  return message(ref, 'INVOIC:D:96A:UN:EAN008', [
    `BGM+${code}+${number}+9'`,
    `DTM+137:${day(at)}:102'`,
    `DTM+35:${day(at, -1)}:102'`,
    ...extra,
    `NAD+BY+${RETAILER.gln}::9++${b.name}+${b.street}+${b.city}++${b.postcode}+PL'`,
    `RFF+VA:${b.vatId}'`,
    `NAD+SU+${seller.gln}::9++${seller.name}+${s.street}+${s.city}++${s.postcode}+PL'`,
    `RFF+VA:${seller.vatId}'`,
    "CUX+2:PLN:4'",
    "PAT+1++5:3:D:30'",
    ...rows.flatMap((r, i) => [
      `LIN+${i + 1}++${r.gtin}:EN'`,
      `IMD+F++:::${r.name}'`,
      `QTY+47:${r.quantity}'`,
      `MOA+203:${zl(r.net)}'`,
      `PRI+AAA:${zl(r.price)}'`,
      `TAX+7+VAT+++:::${r.rate}+S'`,
    ]),
    "UNS+S'",
    `CNT+2:${rows.length}'`,
    `MOA+77:${zl(net + vat)}'`,
    `MOA+79:${zl(net)}'`,
    `MOA+125:${zl(net)}'`,
    `MOA+176:${zl(vat)}'`,
    ...(prepaid !== undefined ? [`MOA+113:${zl(prepaid)}'`] : []),
    ...taxes.flatMap((t) => [`TAX+7+VAT+++:::${t.rate}+S'`, `MOA+125:${zl(t.base)}'`, `MOA+124:${zl(t.vat)}'`]),
  ]);
}

/**
 * The larger set for presentations (toggle DEMO_KSEF_SIEMENS), sent to Demo Retailer in one interchange: an invoice
 * of 40 lines, its correction (two articles returned: KOR in FA(3)) and an advance invoice for a further order (ZAL).
 * Numbers and the control reference come from `source`: a demo session's id (a set per session, as the standard set's
 * numbers), or `company/<id>` for a demo-ksef company's one set (decision 0041), so that a second upload of it is a
 * duplicate interchange and stores nothing.
 */
export function presentationInterchange(
  source: string,
  seller: { gln: string; name: string; vatId: string | null },
  at: Date,
): { fileName: string; text: string } {
  const seed =
    (parseInt(createHash('sha256').update(`${source}/presentation`).digest('hex').slice(0, 8), 16) % 900_000) + 100_000;
  const n = String(seed);
  const nip = seller.vatId?.replace(/[\s-]/g, '').toUpperCase();
  const party = {
    gln: seller.gln,
    name: seller.name,
    vatId: nip && /^PL\d{10}$/.test(nip) ? nip : PRESENTATION_SELLER.vatId,
  };
  const invoiceNumber = `FV-${n}-S1`;
  const lines = PRESENTATION_ARTICLES.map((_, i) => ({ article: i, quantity: 1 + ((i * 5) % 12) }));
  return {
    fileName: `demo-presentation-${n}.edi`,
    text: interchange(seller.gln, RETAILER.gln, `DP${n}1`, at, [
      presentationInvoice(1, '380', invoiceNumber, party, at, lines, [`RFF+ON:SO-${n}-S1'`]),
      presentationInvoice(
        2,
        '381',
        `KOR-${n}-S1`,
        party,
        at,
        [
          { article: 3, quantity: -2 },
          { article: 16, quantity: -1 },
        ],
        [`RFF+IV:${invoiceNumber}'`, `DTM+171:${day(at)}:102'`],
      ),
      presentationInvoice(
        3,
        '386',
        `ZAL-${n}-S1`,
        party,
        at,
        [8, 9, 13].map((article) => ({ article, quantity: 4 })),
        [`RFF+ON:SO-${n}-S2'`],
        0.3,
      ),
    ]),
  };
}

/** The role of the demo-ksef variant's users (issue 13): their documents are ordinary, not a session's. */
export const DEMO_KSEF_ROLE = 'demo-ksef' satisfies Role;
/** The company toggle of the presentation set. */
export const PRESENTATION_TOGGLE = 'DEMO_KSEF_SIEMENS' satisfies FeatureToggle;

/**
 * What auth does at a session's start and end, for the demo documents: a demo login enqueues its set's creation in
 * the login's transaction, a logout of a session with demo documents enqueues their removal in its own. A demo-ksef
 * login of a company with the toggle DEMO_KSEF_SIEMENS enqueues the company's presentation set (decision 0041), keyed
 * by the company, so that logins while it waits or after it ran make no second job.
 */
export function demoSessionHooks(deps: {
  db: Db;
  jobs: JobEnqueuer;
  companies: Pick<CompaniesService, 'find'>;
}): SessionHooks {
  const repo = createDemoDocumentsRepository(deps.db);
  return {
    async started(session, tx) {
      if (!session.companyId) return;
      if (session.roles.includes(DEMO_ROLE)) {
        await deps.jobs.enqueue(
          tx,
          'documents.demo.create',
          { sessionId: session.sessionId, userId: session.userId, companyId: session.companyId },
          { key: session.sessionId },
        );
        return;
      }
      if (!session.roles.includes(DEMO_KSEF_ROLE)) return;
      const company = await deps.companies.find(session.companyId, tx);
      if (!company?.toggles.includes(PRESENTATION_TOGGLE)) return;
      await deps.jobs.enqueue(
        tx,
        'documents.demo.presentation',
        { companyId: session.companyId, userId: session.userId },
        { key: session.companyId },
      );
    },
    async ended(session, tx) {
      if (!(await repo.hasSession(session.sessionId, tx))) return;
      await deps.jobs.enqueue(
        tx,
        'documents.demo.remove',
        { sessionId: session.sessionId },
        { key: session.sessionId },
      );
    },
    committed() {
      deps.jobs.wake('documents.demo.create');
      deps.jobs.wake('documents.demo.remove');
      deps.jobs.wake('documents.demo.presentation');
    },
  };
}

export function createDemoDocumentsService(deps: {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  jobs: JobEnqueuer;
  log: FastifyBaseLogger;
  documents: Pick<DocumentsService, 'upload'>;
  companies: Pick<CompaniesService, 'locations' | 'find'>;
  sessions: { liveSessions(sessionIds: readonly string[]): Promise<string[]> };
}) {
  const repo = createDemoDocumentsRepository(deps.db);

  /** Deletes the session's blobs, then its rows: a crash in between leaves rows whose retry deletes again. */
  async function remove(sessionId: string): Promise<number> {
    for (const key of await repo.payloadKeys(sessionId)) await deps.blobs.delete(key);
    return repo.deleteSession(sessionId);
  }

  /**
   * Enqueues the sweep of the next period, once per period whoever asks (the server at start, each sweep at its
   * end): its key is the period's start.
   */
  async function schedule(): Promise<void> {
    const period = DEMO_SWEEP_SECONDS * 1000;
    const next = Math.floor(deps.clock.now().getTime() / period + 1) * period;
    await deps.jobs.enqueue(deps.db, 'documents.demo.sweep', {}, { key: String(next), startAfter: new Date(next) });
  }

  return {
    schedule,

    /**
     * Makes the session's set through the documents' upload, as the demo user (the inbox's orders first, so that the
     * outbox's response, despatch advices and invoices find them and are linked). A session already over gets none.
     */
    async create(input: { sessionId: string; userId: string; companyId: string }): Promise<void> {
      const [live] = await deps.sessions.liveSessions([input.sessionId]);
      if (!live) return;
      const glns = await deps.companies.locations.list(
        { companyId: input.companyId },
        CompanyLocationsQuerySchema.parse({ kind: 'company', limit: 1 }),
      );
      const own = glns.items[0]?.gln;
      if (!own) {
        deps.log.warn({ companyId: input.companyId }, 'demo documents: the demo company has no GLN, none made');
        return;
      }
      const caller = {
        userId: input.userId,
        companyId: input.companyId,
        permissions: [...FEATURE_PERMISSIONS],
        roles: [DEMO_ROLE],
        sessionId: input.sessionId,
      };
      const files = demoInterchanges(input.sessionId, own, deps.clock.now());
      const asUpload = (list: { fileName: string; text: string }[]) =>
        list.map((f) => ({ fileName: f.fileName, bytes: new TextEncoder().encode(f.text) }));
      await deps.documents.upload(caller, 'in', asUpload(files.in));
      await deps.documents.upload(caller, 'out', asUpload(files.out));
      // The larger set for presentations (issue 13): a company with the toggle DEMO_KSEF_SIEMENS gets it too.
      const company = await deps.companies.find(input.companyId);
      if (company?.toggles.includes(PRESENTATION_TOGGLE)) {
        const seller = { gln: own, name: company.name, vatId: company.vatId };
        await deps.documents.upload(
          caller,
          'out',
          asUpload([presentationInterchange(input.sessionId, seller, deps.clock.now())]),
        );
      }
      // A logout while the set was being made found nothing to remove yet: remove it now.
      const [still] = await deps.sessions.liveSessions([input.sessionId]);
      if (!still) await remove(input.sessionId);
    },

    /**
     * The presentation set of a demo-ksef company (toggle DEMO_KSEF_SIEMENS; decision 0041): uploaded once to its
     * outbox as ordinary documents of the user whose login asked for it, so they stay, and its invoices follow up to
     * KSeF as any other (the simulator, for the demo-ksef company). The interchange's control reference comes from the
     * company id: a second run, or a job enqueued again later, uploads a duplicate that stores nothing. A company that
     * lost the toggle meanwhile, or has no GLN, gets none. Answers whether the set was stored by this run.
     */
    async presentation(input: { companyId: string; userId: string }): Promise<boolean> {
      const company = await deps.companies.find(input.companyId);
      if (!company?.toggles.includes(PRESENTATION_TOGGLE)) return false;
      const glns = await deps.companies.locations.list(
        { companyId: input.companyId },
        CompanyLocationsQuerySchema.parse({ kind: 'company', limit: 1 }),
      );
      const own = glns.items[0]?.gln;
      if (!own) {
        deps.log.warn({ companyId: input.companyId }, 'presentation set: the company has no GLN, none made');
        return false;
      }
      const caller = {
        userId: input.userId,
        companyId: input.companyId,
        permissions: [...FEATURE_PERMISSIONS],
        roles: [DEMO_KSEF_ROLE],
      };
      const file = presentationInterchange(
        `company/${input.companyId}`,
        { gln: own, name: company.name, vatId: company.vatId },
        deps.clock.now(),
      );
      const [result] = await deps.documents.upload(caller, 'out', [
        { fileName: file.fileName, bytes: new TextEncoder().encode(file.text) },
      ]);
      return result?.duplicate === false;
    },

    /** Deletes a session's documents, interchanges and blobs (logout); how many documents there were. */
    remove,

    /**
     * Deletes the sets of every session that is over (revoked, expired, idle past its refresh token), and enqueues
     * the next sweep. How many sessions it removed.
     */
    async sweep(): Promise<number> {
      let removed = 0;
      let after: string | null = null;
      for (;;) {
        const batch = await repo.sessions(after, SWEEP_BATCH);
        if (batch.length === 0) break;
        const live = new Set(await deps.sessions.liveSessions(batch));
        for (const sessionId of batch) {
          if (live.has(sessionId)) continue;
          await remove(sessionId);
          removed += 1;
        }
        after = batch.at(-1)!;
      }
      await schedule();
      return removed;
    },
  };
}
export type DemoDocumentsService = ReturnType<typeof createDemoDocumentsService>;
