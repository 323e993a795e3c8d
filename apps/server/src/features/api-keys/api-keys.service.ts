import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  API_KEY_SHOWN_LENGTH,
  API_KEYS_MAX_ACTIVE,
  type ApiKey,
  type ApiKeyCreateRequest,
  type ApiKeyCreated,
  type ApiKeyPage,
  type ListQuery,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf } from '../../lib/company-scope.ts';
import { decodeCursor, takePage, timestampText, uuid } from '../../lib/keyset.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import { hashSecret } from '../../lib/secrets.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { evaluateCompanyStatus, lockCompany, type CompaniesService } from '../companies/companies.service.ts';
import { createApiKeysRepository, type ApiKeyListRow } from './api-keys.repository.ts';

/** Failed key checks from one address within the window after which it waits (decision 0023). */
export const INBOUND_FAILURES_PER_ADDRESS = 30;
export const INBOUND_FAILURE_WINDOW_SECONDS = 15 * 60;

const KEY_SHAPE = /^edi_[A-Za-z0-9_-]{43}$/;
/** Compared against when no key has the prefix, so an unknown key costs the same as a wrong one. */
const NO_KEY_HASH = hashSecret('no key has this prefix');

export type ApiKeyCaller = { userId: string; companyId: string | null };
/** A key that passed: what the inbound endpoint uploads as. */
export type AuthenticatedKey = { keyId: string; companyId: string };

function toApiKey(row: ApiKeyListRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdByEmail,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: row.revokedByEmail,
  };
}

/** A new key: `edi_` and 32 random bytes in base64url (256 bits). */
function newKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

/**
 * Company API keys (issue 11, part 2; decision 0023): company administrators create, list and revoke them; the inbound
 * endpoint authenticates machines with them. The owner of `company_api_keys`.
 */
export function createApiKeysService(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  companies: Pick<CompaniesService, 'find'>;
}) {
  const { db, clock, audit } = deps;
  const repo = createApiKeysRepository(db);

  const refuse = async (meta: RequestMeta, reason: string): Promise<never> => {
    await audit.record({ event: 'api_keys.auth_failed', ip: meta.ip, userAgent: meta.userAgent, details: { reason } });
    throw new AppError('api_keys.invalid');
  };

  return {
    async list(caller: ApiKeyCaller, query: ListQuery): Promise<ApiKeyPage> {
      const companyId = companyOf(caller);
      const after = decodeCursor(query.cursor, [timestampText, uuid]);
      const rows = await repo.list(companyId, after ? { at: after[0]!, id: after[1]! } : undefined, query.limit + 1);
      const page = takePage(rows, query.limit, (r) => [r.at, r.id]);
      return { items: page.rows.map(toApiKey), nextCursor: page.nextCursor };
    },

    /** A new key; its secret is in this answer and nowhere else, ever. */
    async create(caller: ApiKeyCaller, body: ApiKeyCreateRequest, meta: RequestMeta): Promise<ApiKeyCreated> {
      const companyId = companyOf(caller);
      const name = body.name.trim();
      return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        // Serialises creations of one company, so two at once cannot pass the limit together.
        await lockCompany(companyId, tx);
        if ((await repo.countActive(companyId, tx)) >= API_KEYS_MAX_ACTIVE) {
          throw new AppError('api_keys.limit_reached', { data: { max: API_KEYS_MAX_ACTIVE } });
        }
        for (;;) {
          const secret = newKey();
          const row = await repo.insert(
            {
              companyId,
              name,
              prefix: secret.slice(0, API_KEY_SHOWN_LENGTH),
              secretHash: hashSecret(secret),
              createdBy: caller.userId,
              createdAt: clock.now(),
            },
            tx,
          );
          if (!row) continue;
          await audit.record(
            {
              event: 'api_keys.created',
              actorUserId: caller.userId,
              companyId,
              ip: meta.ip,
              userAgent: meta.userAgent,
              details: { keyId: row.id, name, prefix: row.prefix },
            },
            tx,
          );
          const listed = (await repo.find(companyId, row.id, tx))!;
          return { ...toApiKey(listed), secret };
        }
      });
    },

    /** Revokes a key of the caller's company at once; another company's key, or an unknown id, is not found. */
    async revoke(caller: ApiKeyCaller, id: string, meta: RequestMeta): Promise<ApiKey> {
      const companyId = companyOf(caller);
      return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const existing = await repo.find(companyId, id, tx);
        if (!existing) throw notFound();
        if (!existing.revokedAt) {
          await repo.revoke(companyId, id, caller.userId, clock.now(), tx);
          await audit.record(
            {
              event: 'api_keys.revoked',
              actorUserId: caller.userId,
              companyId,
              ip: meta.ip,
              userAgent: meta.userAgent,
              details: { keyId: id, name: existing.name, prefix: existing.prefix },
            },
            tx,
          );
        }
        return toApiKey((await repo.find(companyId, id, tx))!);
      });
    },

    /**
     * The company a presented key acts for. A missing, malformed, unknown or revoked key is the same 401
     * (`api_keys.invalid`), each recorded by address; an address with too many failures in the window waits (429)
     * before any key of it is looked at. The secret's hash is compared in constant time. A blocked company's key
     * is refused as its users are.
     */
    async authenticate(presented: string | undefined, meta: RequestMeta): Promise<AuthenticatedKey> {
      const now = clock.now();
      const since = new Date(now.getTime() - INBOUND_FAILURE_WINDOW_SECONDS * 1000);
      const failures = await audit.recentEventTimes(
        'api_keys.auth_failed',
        { ip: meta.ip },
        since,
        INBOUND_FAILURES_PER_ADDRESS,
      );
      if (failures.length >= INBOUND_FAILURES_PER_ADDRESS) {
        const oldest = failures.at(-1)!;
        const retryAfter = Math.max(
          1,
          Math.ceil((oldest.getTime() + INBOUND_FAILURE_WINDOW_SECONDS * 1000 - now.getTime()) / 1000),
        );
        throw new AppError('request.too_many_requests', {
          headers: { 'retry-after': String(retryAfter) },
          data: { retryAfter },
        });
      }
      if (!presented) return refuse(meta, 'missing');
      if (presented.length !== API_KEY_LENGTH || !KEY_SHAPE.test(presented)) return refuse(meta, 'malformed');
      const row = await repo.findByPrefix(presented.slice(0, API_KEY_SHOWN_LENGTH));
      const matches = timingSafeEqual(
        Buffer.from(hashSecret(presented), 'hex'),
        Buffer.from(row?.secretHash ?? NO_KEY_HASH, 'hex'),
      );
      if (!row || !matches) return refuse(meta, 'unknown');
      if (row.revokedAt) return refuse(meta, 'revoked');
      const verdict = evaluateCompanyStatus(await deps.companies.find(row.companyId), now);
      if (!verdict.allowed) throw new AppError(verdict.code);
      await repo.touch(row.id, now);
      return { keyId: row.id, companyId: row.companyId };
    },
  };
}
