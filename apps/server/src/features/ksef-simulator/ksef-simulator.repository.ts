/** The KSeF simulator's queries; nothing else reads or writes its tables. */
import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  ksefSimAuthentications,
  ksefSimChallenges,
  ksefSimExports,
  ksefSimInvoices,
  ksefSimKeys,
  ksefSimSessions,
  ksefSimTokens,
} from './ksef-simulator.table.ts';

export type { KsefSimStatus } from './ksef-simulator.table.ts';
export type SimKeyRow = typeof ksefSimKeys.$inferSelect;
export type SimAuthRow = typeof ksefSimAuthentications.$inferSelect;
export type SimTokenRow = typeof ksefSimTokens.$inferSelect;
export type SimSessionRow = typeof ksefSimSessions.$inferSelect;
/** An invoice without its XML: lists and statuses never load the documents (up to 1 MB each). */
export type SimInvoiceRow = Omit<typeof ksefSimInvoices.$inferSelect, 'plainXml'>;
const { plainXml: _plainXml, ...INVOICE_COLUMNS } = getTableColumns(ksefSimInvoices);
export type SimExportRow = typeof ksefSimExports.$inferSelect;

type Context = { contextType: string; contextValue: string };

export function createKsefSimulatorRepository(db: Db) {
  return {
    async listKeys(): Promise<SimKeyRow[]> {
      return db.select().from(ksefSimKeys);
    },
    /** First writer wins: two processes starting at once keep one key pair. */
    async insertKey(row: typeof ksefSimKeys.$inferInsert): Promise<void> {
      await db.insert(ksefSimKeys).values(row).onConflictDoNothing();
    },

    async insertChallenge(row: typeof ksefSimChallenges.$inferInsert): Promise<void> {
      await db.insert(ksefSimChallenges).values(row);
    },
    async deleteChallengesBefore(before: Date): Promise<void> {
      await db.delete(ksefSimChallenges).where(lt(ksefSimChallenges.expiresAt, before));
    },
    /** Marks an unexpired, unused challenge used; undefined when there is none. */
    async useChallenge(challenge: string, now: Date) {
      const [row] = await db
        .update(ksefSimChallenges)
        .set({ usedAt: now })
        .where(
          and(
            eq(ksefSimChallenges.challenge, challenge),
            isNull(ksefSimChallenges.usedAt),
            gt(ksefSimChallenges.expiresAt, now),
          ),
        )
        .returning();
      return row;
    },

    async insertAuthentication(row: typeof ksefSimAuthentications.$inferInsert): Promise<void> {
      await db.insert(ksefSimAuthentications).values(row);
    },
    async findAuthentication(referenceNumber: string): Promise<SimAuthRow | undefined> {
      const [row] = await db
        .select()
        .from(ksefSimAuthentications)
        .where(eq(ksefSimAuthentications.referenceNumber, referenceNumber));
      return row;
    },
    /** The one-time redeem: only the first caller gets the row back. */
    async redeem(referenceNumber: string, now: Date, refreshValidUntil: Date): Promise<SimAuthRow | undefined> {
      const [row] = await db
        .update(ksefSimAuthentications)
        .set({ redeemedAt: now, refreshValidUntil })
        .where(
          and(eq(ksefSimAuthentications.referenceNumber, referenceNumber), isNull(ksefSimAuthentications.redeemedAt)),
        )
        .returning();
      return row;
    },
    async markRefreshed(referenceNumber: string, now: Date): Promise<void> {
      await db
        .update(ksefSimAuthentications)
        .set({ lastRefreshAt: now })
        .where(eq(ksefSimAuthentications.referenceNumber, referenceNumber));
    },
    async revokeAuthentication(referenceNumber: string, now: Date): Promise<void> {
      await db
        .update(ksefSimAuthentications)
        .set({ revokedAt: now })
        .where(eq(ksefSimAuthentications.referenceNumber, referenceNumber));
    },
    async listAuthentications(ctx: Context, limit: number, offset: number): Promise<SimAuthRow[]> {
      return db
        .select()
        .from(ksefSimAuthentications)
        .where(
          and(
            eq(ksefSimAuthentications.contextType, ctx.contextType),
            eq(ksefSimAuthentications.contextValue, ctx.contextValue),
            isNull(ksefSimAuthentications.revokedAt),
            sql`${ksefSimAuthentications.redeemedAt} is not null`,
          ),
        )
        .orderBy(desc(ksefSimAuthentications.startedAt), desc(ksefSimAuthentications.referenceNumber))
        .limit(limit)
        .offset(offset);
    },

    async insertToken(row: typeof ksefSimTokens.$inferInsert): Promise<void> {
      await db.insert(ksefSimTokens).values(row);
    },
    async findTokenByHash(tokenHash: string): Promise<SimTokenRow | undefined> {
      const [row] = await db.select().from(ksefSimTokens).where(eq(ksefSimTokens.tokenHash, tokenHash));
      return row;
    },
    async findToken(ctx: Context, referenceNumber: string): Promise<SimTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(ksefSimTokens)
        .where(
          and(
            eq(ksefSimTokens.referenceNumber, referenceNumber),
            eq(ksefSimTokens.contextType, ctx.contextType),
            eq(ksefSimTokens.contextValue, ctx.contextValue),
          ),
        );
      return row;
    },
    async listTokens(ctx: Context, limit: number, offset: number): Promise<SimTokenRow[]> {
      return db
        .select()
        .from(ksefSimTokens)
        .where(and(eq(ksefSimTokens.contextType, ctx.contextType), eq(ksefSimTokens.contextValue, ctx.contextValue)))
        .orderBy(desc(ksefSimTokens.createdAt), desc(ksefSimTokens.referenceNumber))
        .limit(limit)
        .offset(offset);
    },
    async revokeToken(referenceNumber: string, now: Date): Promise<void> {
      await db
        .update(ksefSimTokens)
        .set({ revokedAt: now })
        .where(and(eq(ksefSimTokens.referenceNumber, referenceNumber), isNull(ksefSimTokens.revokedAt)));
    },
    async touchToken(referenceNumber: string, now: Date): Promise<void> {
      await db.update(ksefSimTokens).set({ lastUseAt: now }).where(eq(ksefSimTokens.referenceNumber, referenceNumber));
    },

    async insertSession(row: typeof ksefSimSessions.$inferInsert): Promise<void> {
      await db.insert(ksefSimSessions).values(row);
    },
    async findSession(ctx: Context, referenceNumber: string): Promise<SimSessionRow | undefined> {
      const [row] = await db
        .select()
        .from(ksefSimSessions)
        .where(
          and(
            eq(ksefSimSessions.referenceNumber, referenceNumber),
            eq(ksefSimSessions.contextType, ctx.contextType),
            eq(ksefSimSessions.contextValue, ctx.contextValue),
          ),
        );
      return row;
    },
    async findSessionByReference(referenceNumber: string): Promise<SimSessionRow | undefined> {
      const [row] = await db.select().from(ksefSimSessions).where(eq(ksefSimSessions.referenceNumber, referenceNumber));
      return row;
    },
    async listSessions(
      ctx: Context,
      filter: { kind: string; referenceNumber?: string | undefined },
      limit: number,
      offset: number,
    ): Promise<SimSessionRow[]> {
      return db
        .select()
        .from(ksefSimSessions)
        .where(
          and(
            eq(ksefSimSessions.contextType, ctx.contextType),
            eq(ksefSimSessions.contextValue, ctx.contextValue),
            eq(ksefSimSessions.kind, filter.kind),
            filter.referenceNumber ? eq(ksefSimSessions.referenceNumber, filter.referenceNumber) : undefined,
          ),
        )
        .orderBy(desc(ksefSimSessions.createdAt), desc(ksefSimSessions.referenceNumber))
        .limit(limit)
        .offset(offset);
    },
    async closeSession(referenceNumber: string, closedAt: Date, processedAt: Date | null): Promise<boolean> {
      const rows = await db
        .update(ksefSimSessions)
        .set({ closedAt, processedAt, updatedAt: closedAt })
        .where(and(eq(ksefSimSessions.referenceNumber, referenceNumber), isNull(ksefSimSessions.closedAt)))
        .returning({ ref: ksefSimSessions.referenceNumber });
      return rows.length > 0;
    },
    /** Ends a batch session's processing: its status code (100 when it went through) and when it shows. */
    async finishBatch(referenceNumber: string, statusCode: number, processedAt: Date): Promise<void> {
      await db
        .update(ksefSimSessions)
        .set({ statusCode, processedAt, updatedAt: processedAt })
        .where(and(eq(ksefSimSessions.referenceNumber, referenceNumber), isNull(ksefSimSessions.processedAt)));
    },
    async hasInvoiceAt(sessionReference: string, ordinalNumber: number): Promise<boolean> {
      const [row] = await db
        .select({ ref: ksefSimInvoices.referenceNumber })
        .from(ksefSimInvoices)
        .where(
          and(eq(ksefSimInvoices.sessionReference, sessionReference), eq(ksefSimInvoices.ordinalNumber, ordinalNumber)),
        )
        .limit(1);
      return row !== undefined;
    },

    /**
     * Takes the next ordinal number of an open session (a row lock in the update), or undefined when the session is
     * not open or already holds `max` invoices.
     */
    async nextOrdinal(referenceNumber: string, max: number, now: Date): Promise<number | undefined> {
      const [row] = await db
        .update(ksefSimSessions)
        .set({ invoiceCount: sql`${ksefSimSessions.invoiceCount} + 1`, updatedAt: now })
        .where(
          and(
            eq(ksefSimSessions.referenceNumber, referenceNumber),
            isNull(ksefSimSessions.closedAt),
            sql`${ksefSimSessions.invoiceCount} < ${max}`,
          ),
        )
        .returning({ count: ksefSimSessions.invoiceCount });
      return row?.count;
    },
    async findAcceptedDuplicate(sellerNip: string, invoiceType: string, invoiceNumber: string) {
      const [row] = await db
        .select({ ksefNumber: ksefSimInvoices.ksefNumber, sessionReference: ksefSimInvoices.sessionReference })
        .from(ksefSimInvoices)
        .where(
          and(
            eq(ksefSimInvoices.accepted, true),
            eq(ksefSimInvoices.sellerNip, sellerNip),
            eq(ksefSimInvoices.invoiceType, invoiceType),
            eq(ksefSimInvoices.invoiceNumber, invoiceNumber),
          ),
        );
      return row;
    },
    /** Inserts an invoice; false when an accepted one with the same key won a race (the duplicate index). */
    async insertInvoice(row: typeof ksefSimInvoices.$inferInsert): Promise<boolean> {
      const rows = await db
        .insert(ksefSimInvoices)
        .values(row)
        .onConflictDoNothing()
        .returning({ ref: ksefSimInvoices.referenceNumber });
      return rows.length > 0;
    },
    async findInvoice(sessionReference: string, referenceNumber: string): Promise<SimInvoiceRow | undefined> {
      const [row] = await db
        .select(INVOICE_COLUMNS)
        .from(ksefSimInvoices)
        .where(
          and(
            eq(ksefSimInvoices.sessionReference, sessionReference),
            eq(ksefSimInvoices.referenceNumber, referenceNumber),
          ),
        );
      return row;
    },
    async findInvoiceByKsefNumber(ksefNumber: string): Promise<SimInvoiceRow | undefined> {
      const [row] = await db
        .select(INVOICE_COLUMNS)
        .from(ksefSimInvoices)
        .where(eq(ksefSimInvoices.ksefNumber, ksefNumber));
      return row;
    },
    /** The accepted invoice of a seller with this hash (Base64), for the KOD I page; the first if several. */
    async findAcceptedByHash(sellerNip: string, invoiceHash: string): Promise<SimInvoiceRow | undefined> {
      const [row] = await db
        .select(INVOICE_COLUMNS)
        .from(ksefSimInvoices)
        .where(
          and(
            eq(ksefSimInvoices.sellerNip, sellerNip),
            eq(ksefSimInvoices.invoiceHash, invoiceHash),
            eq(ksefSimInvoices.accepted, true),
          ),
        )
        .orderBy(asc(ksefSimInvoices.decidedAt))
        .limit(1);
      return row;
    },
    async listSessionInvoices(
      sessionReference: string,
      onlyFailed: boolean,
      limit: number,
      offset: number,
    ): Promise<SimInvoiceRow[]> {
      return db
        .select(INVOICE_COLUMNS)
        .from(ksefSimInvoices)
        .where(
          and(
            eq(ksefSimInvoices.sessionReference, sessionReference),
            onlyFailed ? eq(ksefSimInvoices.accepted, false) : undefined,
          ),
        )
        .orderBy(asc(ksefSimInvoices.ordinalNumber))
        .limit(limit)
        .offset(offset);
    },
    /** Counts of a session's invoices; `decided*` only those whose outcome is visible at `now`. */
    async sessionCounts(sessionReference: string, now: Date) {
      const [row] = await db
        .select({
          total: sql<number>`count(*)::int`,
          decidedAccepted: sql<number>`count(*) filter (where ${ksefSimInvoices.accepted} and ${ksefSimInvoices.decidedAt} <= ${now})::int`,
          decidedFailed: sql<number>`count(*) filter (where not ${ksefSimInvoices.accepted} and ${ksefSimInvoices.decidedAt} <= ${now})::int`,
          accepted: sql<number>`count(*) filter (where ${ksefSimInvoices.accepted})::int`,
          lastDecidedAt: sql<Date | null>`max(${ksefSimInvoices.decidedAt})`,
        })
        .from(ksefSimInvoices)
        .where(eq(ksefSimInvoices.sessionReference, sessionReference));
      return {
        total: row?.total ?? 0,
        accepted: row?.accepted ?? 0,
        decidedAccepted: row?.decidedAccepted ?? 0,
        decidedFailed: row?.decidedFailed ?? 0,
        lastDecidedAt: row?.lastDecidedAt ? new Date(row.lastDecidedAt) : null,
      };
    },
    /** Accepted invoices whose number was given up to `until`, of a seller (Subject1) or a buyer (Subject2). */
    async listReceivable(
      filter: { side: 'seller' | 'buyer'; nip: string; from: Date; to: Date; extra?: SQL | undefined },
      limit: number,
      offset: number,
      order: 'asc' | 'desc' = 'asc',
    ): Promise<SimInvoiceRow[]> {
      const column = filter.side === 'seller' ? ksefSimInvoices.sellerNip : ksefSimInvoices.buyerNip;
      return db
        .select(INVOICE_COLUMNS)
        .from(ksefSimInvoices)
        .where(
          and(
            eq(ksefSimInvoices.accepted, true),
            eq(column, filter.nip),
            gte(ksefSimInvoices.decidedAt, filter.from),
            lte(ksefSimInvoices.decidedAt, filter.to),
            filter.extra,
          ),
        )
        .orderBy(
          order === 'asc' ? asc(ksefSimInvoices.decidedAt) : desc(ksefSimInvoices.decidedAt),
          asc(ksefSimInvoices.referenceNumber),
        )
        .limit(limit)
        .offset(offset);
    },

    /** The XML of invoices, by reference number. */
    async invoiceXmls(referenceNumbers: string[]): Promise<Map<string, string>> {
      if (referenceNumbers.length === 0) return new Map();
      const rows = await db
        .select({ ref: ksefSimInvoices.referenceNumber, xml: ksefSimInvoices.plainXml })
        .from(ksefSimInvoices)
        .where(inArray(ksefSimInvoices.referenceNumber, referenceNumbers));
      return new Map(rows.map((r) => [r.ref, r.xml ?? '']));
    },

    async insertExport(row: typeof ksefSimExports.$inferInsert): Promise<void> {
      await db.insert(ksefSimExports).values(row);
    },
    async findExport(referenceNumber: string): Promise<SimExportRow | undefined> {
      const [row] = await db.select().from(ksefSimExports).where(eq(ksefSimExports.referenceNumber, referenceNumber));
      return row;
    },
    async countRunningExports(ctx: Context, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(ksefSimExports)
        .where(
          and(
            eq(ksefSimExports.contextType, ctx.contextType),
            eq(ksefSimExports.contextValue, ctx.contextValue),
            gt(ksefSimExports.readyAt, now),
          ),
        );
      return row?.n ?? 0;
    },
  };
}

export type KsefSimulatorRepository = ReturnType<typeof createKsefSimulatorRepository>;
