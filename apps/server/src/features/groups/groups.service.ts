import {
  FEATURE_PERMISSIONS,
  type FeaturePermission,
  type GroupDetail,
  type GroupRequest,
  type GroupsPage,
  type GroupsQuery,
  type UserGroup,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf, unique, unknownIds } from '../../lib/company-scope.ts';
import { anyText, decodeCursor, toPage, uuid } from '../../lib/keyset.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { statusOf, type UsersService } from '../users/users.service.ts';
import { assertMayAddPermissions, assertMayGrantGroups, assertNotOwnMembership, type Granter } from './grants.ts';
import { guardedChange } from './lockout-guard.ts';
import { createGroupsRepository, type GroupRow } from './groups.repository.ts';

// The memberships as a subquery of another owner's read of a user (the authentication hook, decision 0043).
export { membershipsJson, type Membership } from './groups.repository.ts';
// The rules on granting permissions through groups, which user management applies too.
export { assertMayAddPermissions, assertMayGrantGroups, assertNotOwnMembership, type Granter } from './grants.ts';

/** Who is asking, as far as the groups of a company care. */
export type GroupsCaller = Granter & { companyId: string | null };

const KNOWN = new Set<string>(FEATURE_PERMISSIONS);

/** Known permissions only, each once, in the order of FEATURE_PERMISSIONS. */
function normalizePermissions(permissions: readonly string[]): FeaturePermission[] {
  const given = new Set(permissions.filter((p) => KNOWN.has(p)));
  return FEATURE_PERMISSIONS.filter((p) => given.has(p));
}

function toGroup(row: GroupRow): UserGroup {
  return {
    id: row.id,
    name: row.name,
    permissions: normalizePermissions(row.permissions),
    memberCount: row.memberCount,
    createdAt: row.createdAt.toISOString(),
  };
}

const nameTaken = () => new AppError('groups.name_taken', { details: [{ field: 'name', code: 'nameTaken' }] });

export type GroupsService = ReturnType<typeof createGroupsService>;

/**
 * The owner of the `groups` and `group_members` tables: the groups screens' rules, and the reads and writes of
 * groups and memberships other features make (decision 0013).
 */
export function createGroupsService(deps: { db: Db; users: UsersService; audit: AuditService; clock: Clock }) {
  const { db, audit, clock } = deps;
  const repo = createGroupsRepository(db);

  async function getGroup(companyId: string, id: string, tx: Db = db): Promise<GroupDetail> {
    const row = await repo.find(companyId, id, tx);
    if (!row) throw notFound();
    const members = await repo.membersOf(companyId, id, tx);
    return {
      ...toGroup(row),
      members: members.map((m) => ({
        id: m.id,
        email: m.email,
        firstName: m.firstName,
        lastName: m.lastName,
        status: statusOf(m),
      })),
    };
  }

  /** What the audit log keeps of a group: before and after every change. */
  const snapshot = (g: GroupDetail) => ({
    name: g.name,
    permissions: g.permissions,
    memberIds: g.members.map((m) => m.id),
  });

  async function recordChange(
    caller: GroupsCaller,
    companyId: string,
    change: 'group_created' | 'group_updated' | 'group_deleted' | 'group_members',
    groupId: string,
    before: GroupDetail | undefined,
    after: GroupDetail | undefined,
    meta: RequestMeta,
    tx: Db,
  ): Promise<void> {
    await audit.record(
      {
        event: 'admin.permissions_changed',
        actorUserId: caller.userId,
        companyId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: {
          change,
          groupId,
          before: before ? snapshot(before) : null,
          after: after ? snapshot(after) : null,
        },
      },
      tx,
    );
  }

  /** Runs a guarded change and answers a concurrent duplicate name (unique index) like a checked one. */
  const change = <T>(companyId: string, run: (tx: Db) => Promise<T>): Promise<T> =>
    guardedChange(db, deps.users, companyId, run).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    });

  return {
    // The owner's reads and writes, for the features that work with groups.
    insert: repo.insert,
    find: repo.find,
    ofCompany: repo.ofCompany,
    idsOfCompany: repo.idsOfCompany,
    byIds: repo.byIds,
    addMember: repo.addMember,
    setUserGroups: repo.setUserGroups,
    groupsOfUsers: repo.groupsOfUsers,
    groupNames: repo.groupNames,
    memberships: repo.memberships,
    /** A change of the company's users or groups that may not leave it without a manager (lockout-guard.ts). */
    guardedChange: <T>(companyId: string, run: (tx: Db) => Promise<T>): Promise<T> =>
      guardedChange(db, deps.users, companyId, run),

    async list(caller: GroupsCaller, query: GroupsQuery): Promise<GroupsPage> {
      const companyId = companyOf(caller);
      const key = decodeCursor(query.cursor, [anyText, uuid]);
      const after = key ? { name: key[0]!, id: key[1]! } : undefined;
      const rows = await repo.list(companyId, query.search, after, query.limit + 1);
      return {
        ...toPage(rows, query.limit, toGroup, (r) => [r.name, r.id]),
        ...(query.includeTotal ? { total: await repo.count(companyId, query.search) } : {}),
      };
    },

    get: (caller: GroupsCaller, id: string) => getGroup(companyOf(caller), id),

    async create(caller: GroupsCaller, input: GroupRequest, meta: RequestMeta): Promise<GroupDetail> {
      const companyId = companyOf(caller);
      const permissions = normalizePermissions(input.permissions);
      assertMayAddPermissions(caller, permissions, (p) => `permissions.${input.permissions.indexOf(p)}`);
      return change(companyId, async (tx) => {
        if (await repo.nameTaken(companyId, input.name, undefined, tx)) throw nameTaken();
        const id = await repo.insert(companyId, { name: input.name, permissions }, clock.now(), tx);
        const after = await getGroup(companyId, id, tx);
        await recordChange(caller, companyId, 'group_created', id, undefined, after, meta, tx);
        return after;
      });
    },

    async update(caller: GroupsCaller, id: string, input: GroupRequest, meta: RequestMeta): Promise<GroupDetail> {
      const companyId = companyOf(caller);
      return change(companyId, async (tx) => {
        const before = await getGroup(companyId, id, tx);
        if (await repo.nameTaken(companyId, input.name, id, tx)) throw nameTaken();
        // Only what the change adds is a grant; keeping or removing what the group had is not.
        const permissions = normalizePermissions(input.permissions);
        const added = permissions.filter((p) => !before.permissions.includes(p));
        assertMayAddPermissions(caller, added, (p) => `permissions.${input.permissions.indexOf(p)}`);
        await repo.update(companyId, id, { name: input.name, permissions }, tx);
        const after = await getGroup(companyId, id, tx);
        await recordChange(caller, companyId, 'group_updated', id, before, after, meta, tx);
        return after;
      });
    },

    async remove(caller: GroupsCaller, id: string, meta: RequestMeta): Promise<void> {
      const companyId = companyOf(caller);
      await change(companyId, async (tx) => {
        const before = await getGroup(companyId, id, tx);
        await repo.remove(companyId, id, tx);
        await recordChange(caller, companyId, 'group_deleted', id, before, undefined, meta, tx);
      });
    },

    /** Replaces the members: users of the caller's company only. */
    async setMembers(
      caller: GroupsCaller,
      id: string,
      userIds: readonly string[],
      meta: RequestMeta,
    ): Promise<GroupDetail> {
      const companyId = companyOf(caller);
      return change(companyId, async (tx) => {
        const before = await getGroup(companyId, id, tx);
        const known = await deps.users.idsOfCompany(companyId, userIds, tx);
        const details = unknownIds('userIds', userIds, known);
        if (details.length > 0) throw new AppError('validation.failed', { details });
        const next = unique(userIds);
        const had = new Set(before.members.map((m) => m.id));
        const joined = next.filter((u) => !had.has(u));
        const left = [...had].filter((u) => !next.includes(u));
        assertNotOwnMembership(caller, [...joined, ...left]);
        if (joined.length > 0) assertMayGrantGroups(caller, [{ field: 'userIds', permissions: before.permissions }]);
        await repo.setMembers(id, next, tx);
        const after = await getGroup(companyId, id, tx);
        await recordChange(caller, companyId, 'group_members', id, before, after, meta, tx);
        return after;
      });
    },
  };
}
