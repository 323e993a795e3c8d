import { and, eq, inArray, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  DOCUMENT_DIRECTIONS,
  hasPermission,
  type DocumentDirection,
  type FeaturePermission,
  type Principal,
} from '@portal/contracts';
import type { Db } from '../db/client.ts';
import { isUuid } from '../lib/secrets.ts';
import { effectiveRestrictions, type EffectiveRestriction } from '../features/restrictions/restrictions.service.ts';

/**
 * The columns of the documents table the scope reads. The documents issue's table must have each (names are free):
 *
 * - `companyId` (uuid): the company that owns this copy of the document (a document between two companies on the
 *   platform is two rows, the sender's outbox copy and the receiver's inbox copy);
 * - `direction` (text `in` | `out`);
 * - `documentType` (text, a `DOCUMENT_TYPE_CODES` value);
 * - `partnerId` (uuid, null when the partner is not known as a partner row) and `partnerGln` (text, null when none):
 *   a restriction lists partner ids or the GLNs of partners off the platform, and either matches;
 * - `deliveryPointGln` (text, null when the document names none);
 * - `sessionId` (uuid, null for every real document): the demo login session a demo document belongs to (issue 11,
 *   part 5; decision 0027). A table without it holds no demo documents, and a demo reader sees nothing of it.
 */
export type DocumentScopeColumns = {
  companyId: AnyColumn;
  direction: AnyColumn;
  documentType: AnyColumn;
  partnerId: AnyColumn;
  partnerGln: AnyColumn;
  deliveryPointGln: AnyColumn;
  sessionId?: AnyColumn;
};

/** Who reads documents, as far as the scope cares. */
export type DocumentReader = {
  /** Null for a platform admin, who belongs to no company and so reads no company's documents. */
  companyId: string | null;
  permissions: Principal['permissions'];
  /** The restrictions assigned to the user and to the user's groups (each once). */
  restrictions: readonly EffectiveRestriction[];
  /**
   * Set for a user of role `demo` (decision 0027): the login session (refresh-token family) whose demo documents the
   * reader sees, and sees alone; null when the request has no session, which then sees nothing. Absent for everyone
   * else, who never sees a demo session's documents.
   */
  demoSession?: string | null;
};

/** The role whose documents live and die with one login session (description, section 1). */
export const DEMO_ROLE = 'demo';

/** The permission that lets a user read the documents of one direction (description, section 6). */
export const READ_PERMISSION: Record<DocumentDirection, FeaturePermission> = {
  in: 'INBOX_READ',
  out: 'OUTBOX_READ',
};

const NOTHING = sql`false`;

/** A narrowed axis: the document's value is one of the list. A document without a value on it fails (not null). */
const oneOf = (column: AnyColumn, values: readonly string[]): SQL =>
  sql`coalesce(${inArray(column, [...values])}, false)`;

/** One restriction as SQL: each non-empty list must contain the document's value; an empty list leaves it open. */
function allows(rule: EffectiveRestriction, c: DocumentScopeColumns): SQL | undefined {
  const axes: SQL[] = [];
  if (rule.partners.length) {
    // Ids are uuids, GLNs are digits: each is compared on its own column, as its own type, so that a GLN never
    // meets a uuid cast and the partner index stays usable (a cast of the column to text would not use it).
    const ids = rule.partners.filter(isUuid).map((v) => v.toLowerCase());
    const glns = rule.partners.filter((v) => !isUuid(v));
    axes.push(
      sql`coalesce(${or(ids.length ? inArray(c.partnerId, ids) : undefined, glns.length ? inArray(c.partnerGln, glns) : undefined)}, false)`,
    );
  }
  if (rule.deliveryPointGlns.length) axes.push(oneOf(c.deliveryPointGln, rule.deliveryPointGlns));
  if (rule.documentTypes.length) axes.push(oneOf(c.documentType, rule.documentTypes));
  if (rule.directions.length) axes.push(oneOf(c.direction, rule.directions));
  return axes.length ? and(...axes) : undefined;
}

/**
 * The one condition every documents query uses (list, count, detail, download, export): the reader's company's
 * documents, of the directions the reader may read (INBOX_READ for `in`, OUTBOX_READ for `out`), that every
 * restriction of the user and of the user's groups allows — restrictions narrow, so each must allow a document, as
 * `allowsDocument` decides for one document in memory. A demo reader sees its session's demo documents only, every
 * other reader no demo document (decision 0027). A reader without a company or without either read permission
 * gets a condition that holds for no row. A restricted or foreign document is thereby simply not found (404).
 */
export function documentScope(reader: DocumentReader, columns: DocumentScopeColumns): SQL {
  if (!reader.companyId) return NOTHING;
  const principal = { roles: [], permissions: reader.permissions, toggles: [] };
  const readable = DOCUMENT_DIRECTIONS.filter((d) => hasPermission(principal, READ_PERMISSION[d]));
  if (readable.length === 0) return NOTHING;
  const conditions: SQL[] = [eq(columns.companyId, reader.companyId)];
  if (reader.demoSession !== undefined) {
    if (!reader.demoSession || !columns.sessionId) return NOTHING;
    conditions.push(eq(columns.sessionId, reader.demoSession));
  } else if (columns.sessionId) {
    conditions.push(isNull(columns.sessionId));
  }
  if (readable.length < DOCUMENT_DIRECTIONS.length) conditions.push(oneOf(columns.direction, readable));
  for (const rule of reader.restrictions) {
    const condition = allows(rule, columns);
    if (condition) conditions.push(condition);
  }
  return and(...conditions)!;
}

/**
 * The reader behind a request's principal. An impersonating admin is the impersonated user here, with that user's
 * company, permissions and restrictions and nothing of the admin's (decision 0010). A demo user reads the documents
 * of the request's session only (decision 0027).
 */
export async function documentReaderOf(
  db: Db,
  principal: {
    userId: string;
    companyId: string | null;
    permissions: Principal['permissions'];
    roles?: readonly string[];
    sessionId?: string | undefined;
    /** The restrictions when the caller already holds them (a request's principal reads them with the rest). */
    restrictions?: readonly EffectiveRestriction[] | undefined;
  },
): Promise<DocumentReader> {
  if (!principal.companyId) return { companyId: null, permissions: [], restrictions: [] };
  return {
    companyId: principal.companyId,
    permissions: principal.permissions,
    restrictions: principal.restrictions ?? (await effectiveRestrictions(db, principal.userId)),
    ...(principal.roles?.includes(DEMO_ROLE) ? { demoSession: principal.sessionId ?? null } : {}),
  };
}
