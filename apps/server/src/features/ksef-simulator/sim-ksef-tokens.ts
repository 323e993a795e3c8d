/**
 * KSeF tokens (NOTES §2): generated after an XAdES login, active `delay` later, listed, read and revoked in their
 * context. Only their SHA-256 is kept; a login with one is `authWithKsefToken` in `sim-auth.ts`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { badRequest, forbidden, KSEF_CODES } from './ksef-errors.ts';
import type { SimTokenRow } from './ksef-simulator.repository.ts';
import { referenceNumber } from './sim-keys.ts';
import {
  addMs,
  continuation,
  ctxOf,
  iso,
  offsetOf,
  requirePermission,
  type AccessClaims,
  type SimBase,
} from './sim-shared.ts';

export function createSimKsefTokens(deps: SimBase) {
  const { repo, clock, log, delay } = deps;

  function tokenView(row: SimTokenRow) {
    const now = clock.now();
    return {
      referenceNumber: row.referenceNumber,
      authorIdentifier: { type: row.authorType, value: row.authorValue },
      contextIdentifier: { type: row.contextType, value: row.contextValue },
      description: row.description,
      requestedPermissions: row.permissions,
      dateCreated: iso(row.createdAt),
      ...(row.lastUseAt ? { lastUseDate: iso(row.lastUseAt) } : {}),
      status: row.revokedAt ? 'Revoked' : now < row.activeAt ? 'Pending' : 'Active',
    };
  }

  return {
    async generateToken(caller: AccessClaims, body: { permissions: string[]; description: string }) {
      if (caller.method === 'Token') {
        throw forbidden('Token KSeF można wygenerować tylko po uwierzytelnieniu podpisem XAdES.');
      }
      requirePermission(caller, 'CredentialsManage');
      if (caller.context.type !== 'Nip' && caller.context.type !== 'InternalId') {
        throw badRequest(KSEF_CODES.inputValidation, 'Tokeny KSeF są dostępne w kontekście Nip lub InternalId.');
      }
      const auth = await repo.findAuthentication(caller.authReference);
      const now = clock.now();
      const ref = referenceNumber('EC', now);
      const token = `${ref}|${caller.context.type === 'Nip' ? 'nip' : 'internalId'}-${caller.context.value}|${randomBytes(32).toString('hex')}`;
      await repo.insertToken({
        referenceNumber: ref,
        tokenHash: createHash('sha256').update(token, 'utf8').digest('hex'),
        contextType: caller.context.type,
        contextValue: caller.context.value,
        authorType: auth?.subjectType === 'Fingerprint' ? 'Fingerprint' : 'Nip',
        authorValue: auth?.subjectValue ?? caller.context.value,
        description: body.description,
        permissions: [...new Set(body.permissions)],
        createdAt: now,
        activeAt: addMs(now, delay),
      });
      log.info({ reference: ref, context: caller.context.value }, 'KSeF simulator: KSeF token generated');
      return { referenceNumber: ref, token };
    },

    tokenView,

    async getToken(caller: AccessClaims, reference: string) {
      requirePermission(caller, 'CredentialsRead');
      const row = await repo.findToken(ctxOf(caller), reference);
      if (!row) throw badRequest(KSEF_CODES.inputValidation, 'Token o podanym numerze referencyjnym nie istnieje.');
      return tokenView(row);
    },

    async listTokens(
      caller: AccessClaims,
      pageSize: number,
      continuationToken: string | undefined,
      statuses: string[],
    ) {
      requirePermission(caller, 'CredentialsRead');
      const offset = offsetOf(continuationToken);
      const rows = await repo.listTokens(ctxOf(caller), pageSize + 1, offset);
      const tokens = rows.slice(0, pageSize).map((row) => tokenView(row));
      return {
        ...(rows.length > pageSize ? { continuationToken: continuation(offset + pageSize) } : {}),
        tokens: statuses.length ? tokens.filter((t) => statuses.includes(t.status)) : tokens,
      };
    },

    async revokeToken(caller: AccessClaims, reference: string) {
      requirePermission(caller, 'CredentialsManage');
      const row = await repo.findToken(ctxOf(caller), reference);
      if (!row) throw badRequest(KSEF_CODES.inputValidation, 'Token o podanym numerze referencyjnym nie istnieje.');
      await repo.revokeToken(reference, clock.now());
    },
  };
}
