import type { FastifyRequest } from 'fastify';

/** What the audit log keeps of the request behind a change. */
export type RequestMeta = { ip: string; userAgent?: string | undefined };

/** Longest user agent kept, in UTF-16 units (the audit log's limit); real ones stay well under it. */
export const USER_AGENT_MAX_LENGTH = 300;

/**
 * The user agent as the audit log can store it: a header is the client's text, unchecked by any schema, so control
 * characters (a NUL would fail the insert) and lone surrogates become U+FFFD, and it is cut between characters.
 */
export function cleanUserAgent(value: string): string {
  const cleaned = value.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    /[\u0000-\u0008\u000a-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
  // At most USER_AGENT_MAX_LENGTH UTF-16 units (what a later slice counts), never half of a pair.
  let kept = '';
  for (const char of cleaned) {
    if (kept.length + char.length > USER_AGENT_MAX_LENGTH) break;
    kept += char;
  }
  return kept;
}

export const metaOf = (request: Pick<FastifyRequest, 'ip' | 'headers'>): RequestMeta => {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? cleanUserAgent(userAgent) : undefined };
};
