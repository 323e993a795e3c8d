import { and, eq, getTableName, inArray, sql, type AnyColumn, type SQL, type Table } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/** Query pieces the repositories share. */

/**
 * A column always written as "table"."column". Drizzle leaves some columns unqualified inside sql``, which would
 * bind them to the innermost table of a correlated subquery.
 */
export const qualified = (table: Table, column: AnyColumn): SQL => sql.raw(`"${getTableName(table)}"."${column.name}"`);

/** Words of a search; each must occur somewhere in the searched text (case-insensitive, no wildcards). */
export function searchWords(search: string | undefined): string[] {
  return (search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 10);
}

/** `%text%` for ILIKE with the pattern characters of the text escaped. */
export function likePattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** The text with LIKE's pattern characters (and the escape character) escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A unique index refused a row (PostgreSQL 23505), from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * PostgreSQL ended the transaction to resolve a conflict with another (a deadlock, 40P01, or a serialization failure,
 * 40001), from either driver: the transaction may simply be run again.
 */
export function isTransientConflict(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs `work` (a transaction) up to `attempts` times while PostgreSQL ends it for a transient conflict;
 * `beforeRetry` undoes what the failed run changed outside the database.
 */
export async function retryTransient<T>(attempts: number, work: () => Promise<T>, beforeRetry: () => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
      beforeRetry();
    }
  }
}

/** A table of rows owned by a company. */
type CompanyTable = PgTable & { id: PgColumn; companyId: PgColumn };

/** Of the given ids, those of rows of the company (an id of another company counts as unknown). */
export async function idsOfCompany(
  tx: Db,
  table: CompanyTable,
  companyId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.companyId, companyId), inArray(table.id, [...ids])));
  return new Set(rows.map((r) => String(r.id)));
}

/** Whether another row of the company has the name, whatever the case (names are unique per company). */
export async function nameTakenInCompany(
  tx: Db,
  table: CompanyTable & { name: PgColumn },
  companyId: string,
  name: string,
  exceptId: string | undefined,
): Promise<boolean> {
  const where = [eq(table.companyId, companyId), sql`lower(${table.name}) = ${name.toLowerCase()}`];
  if (exceptId) where.push(sql`${table.id} <> ${exceptId}::uuid`);
  const [row] = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(...where))
    .limit(1);
  return !!row;
}
