import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_PERMISSIONS } from '@portal/contracts';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { documentReaderOf, type DocumentReader } from '../src/access/document-scope.ts';
import { createDocumentsRepository } from '../src/features/documents/documents.repository.ts';
import { users } from '../src/features/users/users.table.ts';
import { createTestApp, type TestApp } from './helper.ts';

/**
 * A document-number or reference prefix search is answered from the prefix's index; with another filter or a
 * restriction, it first looks at the newest documents of the list (a window), and reads the prefix's index only when
 * they hold less than a page (decision 0028). Whatever the window, every page is what
 * the whole list filtered by the prefix gives, in order, across the cursor's pages.
 */
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';

let t: TestApp;
let reader: DocumentReader;

/** 30 orders: every third number starts with "AA", every fifth reference with "RR", every other one of October. */
function file(): string {
  const messages = Array.from({ length: 30 }, (_, i) => {
    const body = [
      `BGM+220+${i % 3 === 0 ? 'AA' : 'BB'}-${String(i).padStart(2, '0')}+9'`,
      `DTM+137:${i % 2 ? '20261116' : '20261020'}:102'`,
      `RFF+ON:${i % 5 === 0 ? 'RR' : 'SS'}-${i}'`,
      `NAD+BY+${RETAILER}::9'`,
      `NAD+SU+${SUPPLIER}::9'`,
      "LIN+1++4000862141404:EN'",
      "QTY+21:1'",
      "UNS+S'",
    ];
    return [`UNH+${i + 1}+ORDERS:D:96A:UN:EAN008'`, ...body, `UNT+${body.length + 2}+${i + 1}'`].join('');
  });
  return `UNB+UNOC:3+${RETAILER}:14+${SUPPLIER}:14+261116:1000+PFX1'${messages.join('')}UNZ+30+PFX1'`;
}

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A } });
  const [user] = await t.database.db.select().from(users).where(eq(users.email, 'user@demo.example.com'));
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { login: 'user@demo.example.com', password: 'User#Demo2026' },
  });
  const token = login.json().keycloakResponse.token.access_token as string;
  const form = new FormData();
  form.append('file', new Blob([file()]), 'prefix.edi');
  const request = new Request('http://x/', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/documents/upload?direction=in',
    headers: { authorization: `Bearer ${token}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  expect(res.statusCode, res.body).toBe(200);
  reader = await documentReaderOf(t.database.db, {
    userId: user!.id,
    companyId: user!.companyId,
    permissions: [...FEATURE_PERMISSIONS],
  });
});
afterAll(() => t.close());

/** Every page of a search, by the cursor's key, as the service pages it. */
async function allPages(window: number, filter: Record<string, string>, direction: 'asc' | 'desc', limit: number) {
  const repo = createDocumentsRepository(t.database.db, { prefixWindow: window });
  const seen: { number: string; reference: string; date: string }[] = [];
  let after: { key: string; id: string } | undefined;
  for (let i = 0; i < 40; i++) {
    const rows = await repo.list(
      reader,
      { direction: 'in', ...filter },
      { sort: 'timestamp', direction },
      after,
      limit,
    );
    seen.push(
      ...rows.map((r) => ({ number: r.number!, reference: r.referenceNumber ?? '', date: String(r.businessDate) })),
    );
    if (rows.length < limit) return seen;
    after = { key: rows.at(-1)!.sortKey, id: rows.at(-1)!.id };
  }
  throw new Error('did not end');
}

describe('a prefix search', () => {
  it.each([
    ['documentNumber', 'AA'],
    ['documentReferenceNumber', 'RR'],
  ])('by %s pages the same whatever the window of newest documents', async (key, prefix) => {
    // The reference: the whole list without the search, filtered here.
    const everything = await allPages(1000, {}, 'desc', 1000);
    expect(everything.length).toBeGreaterThanOrEqual(30);
    const newestFirst = everything.filter((row) =>
      (key === 'documentNumber' ? row.number : row.reference).startsWith(prefix),
    );
    expect(newestFirst.length).toBe(key === 'documentNumber' ? 10 : 6);
    for (const direction of ['desc', 'asc'] as const) {
      const expected = direction === 'desc' ? newestFirst : [...newestFirst].reverse();
      // The prefix alone is answered from its index; with another filter (every document is an ORDERS) the
      // window of the newest documents is looked at first.
      for (const extra of [{}, { messageType: 'ORDERS' }] as Record<string, string>[]) {
        for (const window of [1, 2, 5, 9, 31, 5000]) {
          for (const limit of [1, 2, 4, 50]) {
            expect(
              await allPages(window, { [key]: prefix, ...extra }, direction, limit),
              `window ${window}, limit ${limit}, ${JSON.stringify(extra)}`,
            ).toEqual(expected);
          }
        }
      }
    }
  });
});

describe('a short range of document dates', () => {
  it('pages by the list order from the date index, the same as the whole list filtered', async () => {
    const everything = await allPages(1000, {}, 'desc', 1000);
    const november = everything.filter((row) => row.date.startsWith('2026-11'));
    expect(november.length).toBe(15);
    // Two months: the documents of two days (16 October and 16 November), interleaved in the list's order, are
    // read day by day and merged.
    const autumn = everything.filter((row) => row.date >= '2026-10-01' && row.date <= '2026-11-30');
    expect(autumn.length).toBe(30);
    for (const [filter, rows] of [
      [{ documentDateFrom: '2026-11-01', documentDateTo: '2026-11-30' }, november],
      [{ documentDateFrom: '2026-10-01', documentDateTo: '2026-11-30' }, autumn],
    ] as const) {
      for (const direction of ['desc', 'asc'] as const) {
        const expected = direction === 'desc' ? rows : [...rows].reverse();
        for (const limit of [1, 4, 50]) {
          expect(await allPages(5000, filter, direction, limit), `limit ${limit}`).toEqual(expected);
        }
      }
    }
  });
});
