import { z } from 'zod';
import { ListQuerySchema, pageSchema } from './lists.ts';

/**
 * The job queue as admins see it (`GET /api/admin/jobs`): jobs of one state, newest first, keyset-paginated. A job
 * whose retries are spent is `failed`: the dead letters to look at.
 */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const AdminJobsQuerySchema = ListQuerySchema.extend({
  state: z.enum(JOB_STATES, { error: 'oneOf' }).default('failed'),
  /** One job name (`mail.send`). */
  name: z
    .string()
    .max(100, 'tooLong')
    .regex(/^[a-z][a-z0-9_.-]*$/, 'pattern')
    .optional(),
});
export type AdminJobsQuery = z.infer<typeof AdminJobsQuerySchema>;

export const AdminJobSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(JOB_STATES),
  /** The job's payload (ids of the data it concerns). */
  data: z.record(z.string(), z.unknown()),
  /** Runs so far that failed or are going on: 0 before the first. */
  retryCount: z.number().int(),
  retryLimit: z.number().int(),
  createdAt: z.string(),
  /** Not run before this moment (the backoff of a retry). */
  startAfter: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** The last run's error message. */
  error: z.string().nullable(),
});
export type AdminJob = z.infer<typeof AdminJobSchema>;
export const AdminJobPageSchema = pageSchema(AdminJobSchema);
export type AdminJobPage = z.infer<typeof AdminJobPageSchema>;
