import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { and, asc, eq, sql } from 'drizzle-orm';
import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCUMENT_DIRECTIONS,
  DOCUMENT_TYPE_CODES,
  type DocumentDirection,
  type FeaturePermission,
} from '@portal/contracts';
import { documentReaderOf, documentScope, type DocumentReader } from '../src/access/document-scope.ts';
import type { Database } from '../src/db/client.ts';
import { companies } from '../src/features/companies/companies.table.ts';
import { groupMembers, groups } from '../src/features/groups/groups.table.ts';
import { restrictionAssignments, restrictions } from '../src/features/restrictions/restrictions.table.ts';
import { allowsDocument, type EffectiveRestriction } from '../src/features/restrictions/restrictions.service.ts';
import { users } from '../src/features/users/users.table.ts';
import { freshDatabase } from './helper.ts';

/**
 * The columns the documents table will have for the scope, as a real table in the test database (PGlite here,
 * PostgreSQL in the server-postgres run), so that the SQL is run, not only built.
 */
const docs = pgTable('scope_documents', {
  id: integer('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  direction: text('direction').notNull(),
  documentType: text('document_type').notNull(),
  partnerId: uuid('partner_id'),
  partnerGln: text('partner_gln'),
  deliveryPointGln: text('delivery_point_gln'),
});
type Doc = typeof docs.$inferInsert;

const A = randomUUID();
const B = randomUUID();
const RETAILER = randomUUID();
const WHOLESALER = randomUUID();
const OFF_PLATFORM_GLN = '5790000000017';
const DP1 = '5790000000024';
const DP2 = '5790000000031';

const SAMPLE: Doc[] = [
  { id: 1, companyId: A, direction: 'in', documentType: 'ORDERS', partnerId: RETAILER, deliveryPointGln: DP1 },
  { id: 2, companyId: A, direction: 'out', documentType: 'INVOIC', partnerId: RETAILER, deliveryPointGln: DP1 },
  { id: 3, companyId: A, direction: 'in', documentType: 'DESADV', partnerId: WHOLESALER, deliveryPointGln: DP2 },
  { id: 4, companyId: A, direction: 'out', documentType: 'ORDRSP', partnerGln: OFF_PLATFORM_GLN },
  { id: 5, companyId: A, direction: 'in', documentType: 'INVOIC', partnerId: WHOLESALER, partnerGln: '5790000000048' },
  { id: 6, companyId: B, direction: 'in', documentType: 'ORDERS', partnerId: RETAILER, deliveryPointGln: DP1 },
  { id: 7, companyId: B, direction: 'out', documentType: 'INVOIC', partnerId: RETAILER, deliveryPointGln: DP1 },
];

const BOTH: FeaturePermission[] = ['INBOX_READ', 'OUTBOX_READ'];
const rule = (r: Partial<EffectiveRestriction>): EffectiveRestriction => ({
  id: randomUUID(),
  name: 'r',
  partners: [],
  deliveryPointGlns: [],
  documentTypes: [],
  directions: [],
  ...r,
});

let database: Database;

async function visible(reader: DocumentReader): Promise<number[]> {
  const rows = await database.db
    .select({ id: docs.id })
    .from(docs)
    .where(documentScope(reader, docs))
    .orderBy(asc(docs.id));
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  database = await freshDatabase();
  await database.db.execute(
    sql.raw(`create table scope_documents (
      id integer primary key,
      company_id uuid not null,
      direction text not null,
      document_type text not null,
      partner_id uuid,
      partner_gln text,
      delivery_point_gln text
    )`),
  );
  await database.db.insert(docs).values(SAMPLE);
});
afterAll(() => database.close());

describe('documentScope', () => {
  it('keeps a company to its own documents, both directions when it may read both', async () => {
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [] })).toEqual([1, 2, 3, 4, 5]);
    expect(await visible({ companyId: B, permissions: BOTH, restrictions: [] })).toEqual([6, 7]);
    expect(await visible({ companyId: randomUUID(), permissions: BOTH, restrictions: [] })).toEqual([]);
  });

  it('shows a direction only with its read permission', async () => {
    expect(await visible({ companyId: A, permissions: ['INBOX_READ'], restrictions: [] })).toEqual([1, 3, 5]);
    expect(await visible({ companyId: A, permissions: ['OUTBOX_READ', 'OUTBOX_SEND'], restrictions: [] })).toEqual([
      2, 4,
    ]);
    // Modify or create rights without read show nothing.
    const others: FeaturePermission[] = ['INBOX_MODIFY', 'OUTBOX_CREATE', 'OUTBOX_MODIFY', 'USERS_READ'];
    expect(await visible({ companyId: A, permissions: others, restrictions: [] })).toEqual([]);
  });

  it('shows nothing to a reader without a company (a platform admin who is not impersonating)', async () => {
    expect(await visible({ companyId: null, permissions: BOTH, restrictions: [] })).toEqual([]);
  });

  it('narrows by partner: a partner id or the GLN of a partner off the platform', async () => {
    const byId = rule({ partners: [RETAILER] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [byId] })).toEqual([1, 2]);
    const byGln = rule({ partners: [OFF_PLATFORM_GLN, WHOLESALER] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [byGln] })).toEqual([3, 4, 5]);
    // The partner GLN of a document that also has a partner row matches too.
    const glnOfKnown = rule({ partners: ['5790000000048'] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [glnOfKnown] })).toEqual([5]);
  });

  it('narrows by delivery point; a document without one fails that narrowing', async () => {
    const dp = rule({ deliveryPointGlns: [DP2] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [dp] })).toEqual([3]);
    const dps = rule({ deliveryPointGlns: [DP1, DP2] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [dps] })).toEqual([1, 2, 3]);
  });

  it('narrows by document type', async () => {
    const types = rule({ documentTypes: ['INVOIC', 'ORDRSP'] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [types] })).toEqual([2, 4, 5]);
  });

  it('narrows by direction, within what the permissions already allow', async () => {
    const inbound = rule({ directions: ['in'] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [inbound] })).toEqual([1, 3, 5]);
    expect(await visible({ companyId: A, permissions: ['OUTBOX_READ'], restrictions: [inbound] })).toEqual([]);
  });

  it('needs every axis of one restriction, any value within an axis', async () => {
    const r = rule({ partners: [RETAILER, WHOLESALER], documentTypes: ['ORDERS', 'DESADV'], directions: ['in'] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [r] })).toEqual([1, 3]);
  });

  it('needs every restriction: several narrow together, an empty one narrows nothing', async () => {
    const retailer = rule({ partners: [RETAILER] });
    const invoices = rule({ documentTypes: ['INVOIC'] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [retailer, invoices] })).toEqual([2]);
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [rule({})] })).toEqual([1, 2, 3, 4, 5]);
    const disjoint = rule({ partners: [WHOLESALER] });
    expect(await visible({ companyId: A, permissions: BOTH, restrictions: [retailer, disjoint] })).toEqual([]);
  });

  it('composes with a query’s own filters and keeps holding under NOT (no NULL leaks through)', async () => {
    const reader: DocumentReader = {
      companyId: A,
      permissions: BOTH,
      restrictions: [rule({ deliveryPointGlns: [DP1] })],
    };
    const rows = await database.db
      .select({ id: docs.id })
      .from(docs)
      .where(and(documentScope(reader, docs), eq(docs.direction, 'out')));
    expect(rows.map((r) => r.id)).toEqual([2]);
    // The complement is exactly the rest: a NULL from a missing delivery point would drop rows from both sides.
    const outside = await database.db
      .select({ id: docs.id })
      .from(docs)
      .where(sql`not (${documentScope(reader, docs)})`)
      .orderBy(asc(docs.id));
    expect(outside.map((r) => r.id)).toEqual([3, 4, 5, 6, 7]);
  });

  it('agrees with allowsDocument, the company and the read permissions on random documents and readers', async () => {
    const partners = [RETAILER, WHOLESALER, OFF_PLATFORM_GLN];
    const dps = [DP1, DP2];
    const arbRule = fc.record({
      partners: fc.subarray(partners),
      deliveryPointGlns: fc.subarray(dps),
      documentTypes: fc.subarray([...DOCUMENT_TYPE_CODES].slice(0, 4)),
      directions: fc.subarray([...DOCUMENT_DIRECTIONS]),
    });
    const arbReader = fc.record({
      permissions: fc.subarray<FeaturePermission>(['INBOX_READ', 'OUTBOX_READ', 'INBOX_MODIFY']),
      rules: fc.array(arbRule, { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(arbReader, async ({ permissions, rules }) => {
        const reader: DocumentReader = { companyId: A, permissions, restrictions: rules.map((r) => rule(r)) };
        const expected = SAMPLE.filter((d) => {
          if (d.companyId !== A) return false;
          const readable =
            d.direction === 'in' ? permissions.includes('INBOX_READ') : permissions.includes('OUTBOX_READ');
          // A restriction's partner entry matches the partner id or the partner GLN: test each as the in-memory
          // check's one partner value.
          const facts = {
            deliveryPointGln: d.deliveryPointGln ?? undefined,
            documentType: d.documentType,
            direction: d.direction as DocumentDirection,
          };
          const allowed = reader.restrictions.every(
            (r) =>
              allowsDocument([r], { ...facts, partner: d.partnerId ?? undefined }) ||
              allowsDocument([r], { ...facts, partner: d.partnerGln ?? undefined }),
          );
          return readable && allowed;
        });
        expect(await visible(reader)).toEqual(expected.map((d) => d.id));
      }),
      { numRuns: 60 },
    );
  });
});

describe('documentReaderOf', () => {
  const ids = {
    company: randomUUID(),
    other: randomUUID(),
    user: randomUUID(),
    colleague: randomUUID(),
    admin: randomUUID(),
    sales: randomUUID(),
    otherGroup: randomUUID(),
  };

  beforeAll(async () => {
    const db = database.db;
    await db.insert(companies).values([
      { id: ids.company, name: 'Scope Co' },
      { id: ids.other, name: 'Other Co' },
    ]);
    await db.insert(users).values([
      { id: ids.user, companyId: ids.company, email: 'u@scope.test', firstName: 'U', lastName: 'S' },
      { id: ids.colleague, companyId: ids.company, email: 'c@scope.test', firstName: 'C', lastName: 'S' },
      { id: ids.admin, companyId: null, email: 'a@scope.test', firstName: 'A', lastName: 'S', roles: ['admin'] },
    ]);
    await db.insert(groups).values([
      { id: ids.sales, companyId: ids.company, name: 'Sales', permissions: BOTH },
      { id: ids.otherGroup, companyId: ids.company, name: 'Warehouse', permissions: BOTH },
    ]);
    await db.insert(groupMembers).values([
      { groupId: ids.sales, userId: ids.user },
      { groupId: ids.otherGroup, userId: ids.colleague },
    ]);
    const [own, ofGroup, ofOtherGroup] = await db
      .insert(restrictions)
      .values([
        { companyId: ids.company, name: 'Invoices only', documentTypes: ['INVOIC', 'ORDERS'] },
        { companyId: ids.company, name: 'Retailer only', partners: [RETAILER] },
        { companyId: ids.company, name: 'Inbound only', directions: ['in'] },
      ])
      .returning();
    await db.insert(restrictionAssignments).values([
      { restrictionId: own!.id, userId: ids.user },
      { restrictionId: ofGroup!.id, groupId: ids.sales },
      { restrictionId: ofOtherGroup!.id, groupId: ids.otherGroup },
    ]);
    // The documents of the company under test, in the scope table.
    await db
      .insert(docs)
      .values(SAMPLE.filter((d) => d.companyId === A).map((d) => ({ ...d, id: d.id + 100, companyId: ids.company })));
  });

  const idsOf = async (reader: DocumentReader) =>
    (await visible(reader)).filter((id) => id > 100).map((id) => id - 100);

  it("combines the user's own restrictions with its groups' restrictions, each narrowing", async () => {
    const reader = await documentReaderOf(database.db, { userId: ids.user, companyId: ids.company, permissions: BOTH });
    expect(reader.restrictions.map((r) => r.name)).toEqual(['Invoices only', 'Retailer only']);
    // INVOIC or ORDERS, and with the retailer: documents 1 (ORDERS in) and 2 (INVOIC out).
    expect(await idsOf(reader)).toEqual([1, 2]);
  });

  it('leaves out the restrictions of groups the user is not in', async () => {
    const reader = await documentReaderOf(database.db, {
      userId: ids.colleague,
      companyId: ids.company,
      permissions: ['INBOX_READ'],
    });
    expect(reader.restrictions.map((r) => r.name)).toEqual(['Inbound only']);
    expect(await idsOf(reader)).toEqual([1, 3, 5]);
  });

  it('gives an admin outside impersonation no documents, and an impersonating admin exactly the user’s view', async () => {
    const admin = await documentReaderOf(database.db, { userId: ids.admin, companyId: null, permissions: BOTH });
    expect(await visible(admin)).toEqual([]);
    // Impersonation: the principal is the user's (company, permissions from its groups), with the admin named only
    // as impersonator; the admin's own standing widens nothing.
    const principal = {
      userId: ids.user,
      companyId: ids.company,
      permissions: BOTH,
      roles: ['admin'],
      impersonator: { username: 'a@scope.test' },
    };
    const impersonated = await documentReaderOf(database.db, principal);
    expect(await idsOf(impersonated)).toEqual([1, 2]);
  });
});
