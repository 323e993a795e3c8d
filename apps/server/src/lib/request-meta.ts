import type { FastifyRequest } from 'fastify';

/** What the audit log keeps of the request behind a change. */
export type RequestMeta = { ip: string; userAgent?: string | undefined };

export const metaOf = (request: Pick<FastifyRequest, 'ip' | 'headers'>): RequestMeta => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});
