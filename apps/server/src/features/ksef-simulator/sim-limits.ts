/**
 * The limits as the service applies and shows them: a request over its group's rate limit is a 429 with Retry-After
 * (NOTES §10), and `GET /rate-limits` and `GET /limits/context` answer the values in force.
 */
import type { Clock } from '../../lib/clock.ts';
import { KsefError } from './ksef-errors.ts';
import type { RateLimiter, RateLimitGroup } from './sim-rate-limits.ts';
import { MAX_SESSION_INVOICES, type Log } from './sim-shared.ts';

export function createSimLimits(deps: { limiter: RateLimiter; clock: Clock; log: Log }) {
  const { limiter, clock, log } = deps;
  return {
    rateLimit(group: RateLimitGroup, key: string) {
      const over = limiter.take(group, key, clock.now());
      if (over) {
        log.warn({ group, key }, 'KSeF simulator: rate limit');
        throw new KsefError('too-many', 429, 'Too Many Requests', [over.message], {
          retryAfterSeconds: over.retryAfterSeconds,
        });
      }
    },
    rateLimits() {
      const l = limiter.limits;
      const { auth: _auth, ...rest } = l;
      return rest;
    },
    contextLimits() {
      return {
        onlineSession: {
          maxInvoiceSizeInMB: 1,
          maxInvoiceWithAttachmentSizeInMB: 3,
          maxInvoices: MAX_SESSION_INVOICES,
        },
        batchSession: { maxInvoiceSizeInMB: 1, maxInvoiceWithAttachmentSizeInMB: 3, maxInvoices: MAX_SESSION_INVOICES },
      };
    },
  };
}
