import type { FastifyRequest } from 'fastify';
import { principalOf } from '../../plugins/auth.ts';
import type { RequestMeta, UserManagementCaller } from './company-users.service.ts';

export const metaOf = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

export function callerOf(request: FastifyRequest): UserManagementCaller {
  const principal = principalOf(request);
  return { userId: principal.userId, companyId: principal.companyId, language: principal.language };
}
