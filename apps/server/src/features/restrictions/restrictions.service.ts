import {
  DOCUMENT_DIRECTIONS,
  DOCUMENT_TYPE_CODES,
  type DocumentDirection,
  type DocumentTypeCode,
  type Restriction,
  type RestrictionRequest,
  type RestrictionsPage,
  type RestrictionsQuery,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf, unique, unknownIds } from '../../lib/company-scope.ts';
import { anyText, decodeCursor, takePage, uuid } from '../../lib/keyset.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { GroupsService } from '../groups/groups.service.ts';
import type { UsersService } from '../users/users.service.ts';
import {
  createRestrictionsRepository,
  effectiveRestrictionsJson,
  type RestrictionJson,
  type RestrictionRow,
  type RestrictionValues,
} from './restrictions.repository.ts';

/** Who is asking, as far as restrictions care. */
export type RestrictionsCaller = { userId: string; companyId: string | null };

/** A rule as the document queries apply it: an empty list leaves that axis open. */
export type EffectiveRestriction = {
  id: string;
  name: string;
  partners: string[];
  deliveryPointGlns: string[];
  documentTypes: DocumentTypeCode[];
  directions: DocumentDirection[];
};

/** What a document offers to the rules; absent facts (a document without a delivery point) fail a narrowed axis. */
export type DocumentFacts = {
  partner?: string | undefined;
  deliveryPointGln?: string | undefined;
  documentType: string;
  direction: DocumentDirection;
};

/** Values of a known list, each once, in the list's order. */
function known<T extends string>(values: readonly T[], given: readonly string[]): T[] {
  const set = new Set(given);
  return values.filter((v) => set.has(v));
}

function toEffective(row: RestrictionJson): EffectiveRestriction {
  return {
    id: row.id,
    name: row.name,
    partners: row.partners,
    deliveryPointGlns: row.deliveryPointGlns,
    documentTypes: known(DOCUMENT_TYPE_CODES, row.documentTypes),
    directions: known(DOCUMENT_DIRECTIONS, row.directions),
  };
}

/**
 * The restrictions that apply to a user: those of the user's company assigned to them directly or to any group of
 * that company they are in, each once, sorted by name. No rows: the user is not narrowed at all. For the documents
 * feature, which combines them with {@link allowsDocument}.
 */
export async function effectiveRestrictions(db: Db, userId: string): Promise<EffectiveRestriction[]> {
  const rows = await createRestrictionsRepository(db).effectiveFor(userId);
  return rows.map(toEffective);
}

/**
 * The same restrictions read in another owner's query over `users` (the authentication hook's one round trip,
 * decision 0043): the SQL to select, and what turns its value into the restrictions.
 */
export const effectiveRestrictionsSql = {
  select: effectiveRestrictionsJson,
  read: (rows: readonly RestrictionJson[]): EffectiveRestriction[] => rows.map(toEffective),
};

/**
 * Whether a document passes every rule (restrictions narrow: each must allow it). A rule allows a document when
 * each of its non-empty lists contains the document's value on that axis.
 */
export function allowsDocument(rules: readonly EffectiveRestriction[], doc: DocumentFacts): boolean {
  const axis = (list: readonly string[], value: string | undefined) =>
    list.length === 0 || (value !== undefined && list.includes(value));
  return rules.every(
    (r) =>
      axis(r.partners, doc.partner) &&
      axis(r.deliveryPointGlns, doc.deliveryPointGln) &&
      axis(r.documentTypes, doc.documentType) &&
      axis(r.directions, doc.direction),
  );
}

const nameTaken = () => new AppError('restrictions.name_taken', { details: [{ field: 'name', code: 'nameTaken' }] });

function valuesOf(input: RestrictionRequest): RestrictionValues {
  return {
    name: input.name,
    description: input.description ? input.description : null,
    partners: unique(input.partners),
    deliveryPointGlns: unique(input.deliveryPointGlns),
    documentTypes: known(DOCUMENT_TYPE_CODES, input.documentTypes),
    directions: known(DOCUMENT_DIRECTIONS, input.directions),
  };
}

export type RestrictionsService = ReturnType<typeof createRestrictionsService>;

export function createRestrictionsService(deps: {
  db: Db;
  users: Pick<UsersService, 'idsOfCompany'>;
  groups: Pick<GroupsService, 'idsOfCompany'>;
  audit: AuditService;
  clock: Clock;
}) {
  const { db, audit, clock } = deps;
  const repo = createRestrictionsRepository(db);

  async function toRestrictions(companyId: string, rows: RestrictionRow[], tx: Db = db): Promise<Restriction[]> {
    const assignees = await repo.assigneesOf(
      companyId,
      rows.map((r) => r.id),
      tx,
    );
    return rows.map((r) => {
      const e = toEffective(r);
      return {
        id: e.id,
        name: e.name,
        description: r.description,
        partners: e.partners,
        deliveryPointGlns: e.deliveryPointGlns,
        documentTypes: e.documentTypes,
        directions: e.directions,
        assignees: assignees.get(r.id) ?? { users: [], groups: [] },
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      };
    });
  }

  async function getOne(companyId: string, id: string, tx: Db = db): Promise<Restriction> {
    const row = await repo.find(companyId, id, tx);
    if (!row) throw notFound();
    const [restriction] = await toRestrictions(companyId, [row], tx);
    return restriction!;
  }

  /** The assignees must be users and groups of the company: 400 on each index otherwise. */
  async function checkAssignees(companyId: string, input: RestrictionRequest, tx: Db) {
    const { userIds, groupIds } = input.assignees;
    const knownUsers = await deps.users.idsOfCompany(companyId, userIds, tx);
    const knownGroups = await deps.groups.idsOfCompany(companyId, groupIds, tx);
    const details = [
      ...unknownIds('assignees.userIds', userIds, knownUsers),
      ...unknownIds('assignees.groupIds', groupIds, knownGroups),
    ];
    if (details.length > 0) throw new AppError('validation.failed', { details });
    return { userIds: unique(userIds), groupIds: unique(groupIds) };
  }

  /** What the audit log keeps of a restriction. */
  const snapshot = (r: Restriction) => ({
    name: r.name,
    partners: r.partners,
    deliveryPointGlns: r.deliveryPointGlns,
    documentTypes: r.documentTypes,
    directions: r.directions,
    userIds: r.assignees.users.map((u) => u.id),
    groupIds: r.assignees.groups.map((g) => g.id),
  });

  async function record(
    caller: RestrictionsCaller,
    companyId: string,
    change: 'created' | 'updated' | 'deleted',
    id: string,
    before: Restriction | undefined,
    after: Restriction | undefined,
    meta: RequestMeta,
    tx: Db,
  ): Promise<void> {
    await audit.record(
      {
        event: 'restrictions.changed',
        actorUserId: caller.userId,
        companyId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: {
          change,
          restrictionId: id,
          before: before ? snapshot(before) : null,
          after: after ? snapshot(after) : null,
        },
      },
      tx,
    );
  }

  /** One transaction; a name taken concurrently (unique index) answers like a checked one. */
  const inTransaction = <T>(run: (tx: Db) => Promise<T>): Promise<T> =>
    db
      .transaction((tx) => run(tx as unknown as Db))
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      });

  return {
    /** Restrictions of the company assigned to the user directly (the user's detail in user management). */
    ofUser: repo.ofUser,

    async list(caller: RestrictionsCaller, query: RestrictionsQuery): Promise<RestrictionsPage> {
      const companyId = companyOf(caller);
      const key = decodeCursor(query.cursor, [anyText, uuid]);
      const after = key ? { name: key[0]!, id: key[1]! } : undefined;
      const filters = { search: query.search, userId: query.userId, groupId: query.groupId };
      const rows = await repo.list(companyId, filters, after, query.limit + 1);
      const page = takePage(rows, query.limit, (r) => [r.name, r.id]);
      return {
        items: await toRestrictions(companyId, page.rows),
        nextCursor: page.nextCursor,
        ...(query.includeTotal ? { total: await repo.count(companyId, filters) } : {}),
      };
    },

    get: (caller: RestrictionsCaller, id: string) => getOne(companyOf(caller), id),

    async create(caller: RestrictionsCaller, input: RestrictionRequest, meta: RequestMeta): Promise<Restriction> {
      const companyId = companyOf(caller);
      return inTransaction(async (tx) => {
        const assignees = await checkAssignees(companyId, input, tx);
        if (await repo.nameTaken(companyId, input.name, undefined, tx)) throw nameTaken();
        const id = await repo.insert(companyId, valuesOf(input), clock.now(), tx);
        await repo.setAssignees(id, assignees.userIds, assignees.groupIds, tx);
        const after = await getOne(companyId, id, tx);
        await record(caller, companyId, 'created', id, undefined, after, meta, tx);
        return after;
      });
    },

    async update(
      caller: RestrictionsCaller,
      id: string,
      input: RestrictionRequest,
      meta: RequestMeta,
    ): Promise<Restriction> {
      const companyId = companyOf(caller);
      return inTransaction(async (tx) => {
        const before = await getOne(companyId, id, tx);
        const assignees = await checkAssignees(companyId, input, tx);
        if (await repo.nameTaken(companyId, input.name, id, tx)) throw nameTaken();
        await repo.update(companyId, id, valuesOf(input), clock.now(), tx);
        await repo.setAssignees(id, assignees.userIds, assignees.groupIds, tx);
        const after = await getOne(companyId, id, tx);
        await record(caller, companyId, 'updated', id, before, after, meta, tx);
        return after;
      });
    },

    async remove(caller: RestrictionsCaller, id: string, meta: RequestMeta): Promise<void> {
      const companyId = companyOf(caller);
      await inTransaction(async (tx) => {
        const before = await getOne(companyId, id, tx);
        await repo.remove(companyId, id, tx);
        await record(caller, companyId, 'deleted', id, before, undefined, meta, tx);
      });
    },
  };
}
