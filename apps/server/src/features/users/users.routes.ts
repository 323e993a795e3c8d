import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  COLUMN_LISTS,
  ColumnsResponseSchema,
  DEFAULT_DOCUMENT_COLUMNS,
  DOCUMENT_COLUMNS,
  GetColumnsRequestSchema,
  PermissionsResponseSchema,
  SetColumnsRequestSchema,
  type ColumnList,
  type DocumentColumn,
  type FeaturePermission,
  SetLanguageRequestSchema,
  SuccessResponseSchema,
  UserDataSchema,
  isLanguage,
} from '@portal/contracts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/app-error.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { UsersService } from './users.service.ts';

const tags = ['account'];

/** Choosing the columns of a list takes reading it. */
const LIST_PERMISSION: Record<ColumnList, FeaturePermission> = { inbox: 'INBOX_READ', outbox: 'OUTBOX_READ' };
const permissionOfList = async (request: FastifyRequest) => {
  const list = (request.body as { list?: unknown } | undefined)?.list;
  const known = COLUMN_LISTS.find((l) => l === list);
  // An unknown list is left to the body's schema (400 on `list`).
  if (known) await requirePermission(LIST_PERMISSION[known])(request);
};
/** Saved columns still known today (a column dropped from the description later is left out). */
const knownColumns = (saved: readonly string[]): DocumentColumn[] =>
  saved.flatMap((c) => DOCUMENT_COLUMNS.filter((known) => known === c));

/** The signed-in user's own data: permissions, profile basics, language. */
export function usersRoutes(deps: { users: UsersService; clock: Clock }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/users/permissions', {
      schema: {
        tags,
        summary: "The caller's feature permissions and company toggles",
        response: { 200: PermissionsResponseSchema },
      },
      handler: (request) => {
        const p = principalOf(request);
        return { permissions: [...p.permissions], toggles: [...p.toggles] };
      },
    });

    app.get('/users/getUserData', {
      schema: { tags, summary: "The caller's user data", response: { 200: UserDataSchema } },
      handler: async (request) => {
        const p = principalOf(request);
        const row = await deps.users.findWithCompanyName(p.userId);
        if (!row) throw notFound();
        return {
          id: row.id,
          email: row.email,
          firstName: row.firstName,
          lastName: row.lastName,
          language: isLanguage(row.language) ? row.language : 'en',
          telephone: row.telephone,
          companyId: row.companyId,
          companyName: row.companyName,
          roles: [...p.roles],
        };
      },
    });

    app.post('/users/setLanguage', {
      schema: {
        tags,
        summary: "Store the caller's language (used for e-mails and the next login)",
        body: SetLanguageRequestSchema,
        response: { 200: SuccessResponseSchema },
      },
      handler: async (request) => {
        const p = principalOf(request);
        await deps.users.update(p.userId, { language: request.body.language, updatedAt: deps.clock.now() });
        return { success: true };
      },
    });

    app.post('/users/getColumns', {
      schema: {
        tags,
        summary: "The caller's columns of the inbox or the outbox list, in their order (the defaults when none saved)",
        body: GetColumnsRequestSchema,
        response: { 200: ColumnsResponseSchema },
      },
      preHandler: permissionOfList,
      handler: async (request) => {
        const { list } = request.body;
        const saved = await deps.users.findListColumns(principalOf(request).userId, list);
        const columns = saved ? knownColumns(saved) : [];
        return columns.length
          ? { list, columns, saved: true }
          : { list, columns: [...DEFAULT_DOCUMENT_COLUMNS], saved: false };
      },
    });

    app.put('/users/setColumns', {
      schema: {
        tags,
        summary: "Save the caller's columns of the inbox or the outbox list: the visible ones in their order",
        body: SetColumnsRequestSchema,
        response: { 200: ColumnsResponseSchema },
      },
      preHandler: permissionOfList,
      handler: async (request) => {
        const { list, columns } = request.body;
        await deps.users.saveListColumns(principalOf(request).userId, list, columns, deps.clock.now());
        return { list, columns, saved: true };
      },
    });
  };
}
