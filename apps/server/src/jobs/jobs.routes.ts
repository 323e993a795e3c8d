import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminJobPageSchema, AdminJobsQuerySchema } from '@portal/contracts';
import { requireRole } from '../plugins/auth.ts';
import { decodeCursor, timestampText, toPage, uuid } from '../lib/keyset.ts';
import type { JobQueue } from './queue.ts';

/** The queue for admins: `?state=failed` lists the dead letters, with the last run's error. */
export function jobsRoutes(jobs: Pick<JobQueue, 'list'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/admin/jobs', {
      // Before validation, so a non-admin learns nothing about the input rules.
      onRequest: requireRole('admin'),
      schema: {
        tags: ['admin', 'admin-logs'],
        summary: 'Background jobs in one state (failed by default: retries spent), newest first',
        querystring: AdminJobsQuerySchema,
        response: { 200: AdminJobPageSchema },
      },
      handler: async (request) => {
        const { state, name, cursor, limit } = request.query;
        const key = decodeCursor(cursor, [timestampText, uuid]);
        const rows = await jobs.list({
          state,
          name,
          after: key ? { createdKey: key[0]!, id: key[1]! } : undefined,
          limit: limit + 1,
        });
        return toPage(
          rows,
          limit,
          (r) => ({
            id: r.id,
            name: r.name,
            state: r.state,
            data: r.data,
            retryCount: r.retryCount,
            retryLimit: r.retryLimit,
            createdAt: r.createdOn.toISOString(),
            startAfter: r.startAfter.toISOString(),
            startedAt: r.startedOn?.toISOString() ?? null,
            completedAt: r.completedOn?.toISOString() ?? null,
            error: r.error,
          }),
          (r) => [r.createdKey, r.id],
        );
      },
    });
  };
}
