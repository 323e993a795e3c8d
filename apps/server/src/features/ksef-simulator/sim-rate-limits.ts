/**
 * Rate limits per (context, client IP) in sliding windows of 1 s, 1 min and 1 h (NOTES §10), in this process's
 * memory: a simulator, so a restart forgets them. Each group keeps the times of its requests for the last hour,
 * bounded by the hourly limit.
 */
export type RateLimitValues = { perSecond: number; perMinute: number; perHour: number };

export const RATE_LIMIT_GROUPS = [
  'onlineSession',
  'batchSession',
  'invoiceSend',
  'invoiceStatus',
  'sessionList',
  'sessionInvoiceList',
  'sessionMisc',
  'invoiceMetadata',
  'invoiceExport',
  'invoiceExportStatus',
  'invoiceDownload',
  'other',
  'auth',
] as const;
export type RateLimitGroup = (typeof RATE_LIMIT_GROUPS)[number];

/** KSeF's production values (NOTES §10 and the `x-rate-limits` of the OpenAPI); `auth` is 60/s as there. */
export const DEFAULT_RATE_LIMITS: Record<RateLimitGroup, RateLimitValues> = {
  onlineSession: { perSecond: 10, perMinute: 30, perHour: 120 },
  batchSession: { perSecond: 10, perMinute: 20, perHour: 60 },
  invoiceSend: { perSecond: 10, perMinute: 30, perHour: 180 },
  invoiceStatus: { perSecond: 30, perMinute: 120, perHour: 1200 },
  sessionList: { perSecond: 5, perMinute: 10, perHour: 60 },
  sessionInvoiceList: { perSecond: 10, perMinute: 20, perHour: 200 },
  sessionMisc: { perSecond: 10, perMinute: 120, perHour: 1200 },
  invoiceMetadata: { perSecond: 8, perMinute: 16, perHour: 20 },
  invoiceExport: { perSecond: 8, perMinute: 16, perHour: 20 },
  invoiceExportStatus: { perSecond: 10, perMinute: 60, perHour: 600 },
  invoiceDownload: { perSecond: 8, perMinute: 16, perHour: 64 },
  other: { perSecond: 10, perMinute: 30, perHour: 120 },
  auth: { perSecond: 60, perMinute: 3600, perHour: 216000 },
};

const WINDOWS = [
  { key: 'perSecond', ms: 1000, label: 'sekundę' },
  { key: 'perMinute', ms: 60_000, label: 'minutę' },
  { key: 'perHour', ms: 3_600_000, label: 'godzinę' },
] as const;

/** Most (context, IP, group) keys held at once; the oldest are dropped past it. */
const MAX_KEYS = 50_000;

export function createRateLimiter(limits: Record<RateLimitGroup, RateLimitValues>) {
  const hits = new Map<string, number[]>();
  return {
    limits,
    /** Counts one request; returns the seconds to wait when it is over a limit (then it is not counted). */
    take(group: RateLimitGroup, key: string, now: Date): { retryAfterSeconds: number; message: string } | undefined {
      const id = `${group}|${key}`;
      const t = now.getTime();
      const list = (hits.get(id) ?? []).filter((at) => at > t - 3_600_000);
      const values = limits[group];
      for (const window of WINDOWS) {
        const inWindow = list.filter((at) => at > t - window.ms);
        const max = values[window.key];
        if (inWindow.length >= max) {
          const oldest = inWindow[inWindow.length - max] ?? t;
          const retryAfterSeconds = Math.max(1, Math.ceil((oldest + window.ms - t) / 1000));
          hits.set(id, list);
          return {
            retryAfterSeconds,
            message: `Przekroczono limit ${max} żądań na ${window.label}. Spróbuj ponownie po ${retryAfterSeconds} sekundach.`,
          };
        }
      }
      list.push(t);
      hits.delete(id);
      hits.set(id, list);
      if (hits.size > MAX_KEYS) {
        const first = hits.keys().next().value;
        if (first !== undefined) hits.delete(first);
      }
      return undefined;
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
