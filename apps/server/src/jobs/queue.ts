import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { JobState } from '@portal/contracts';
import type { Database, Db } from '../db/client.ts';
import { JOBS, type HandlersOf, type JobDefinitions, type JobRun, type PayloadOf } from './jobs.ts';

/** The schema pg-boss keeps its tables in (created and migrated by pg-boss itself at start, under a lock). */
export const JOBS_SCHEMA = 'pgboss';

/** A Drizzle handle the job is written through: the database, or the caller's open transaction. */
export type JobWriter = Pick<Db, 'execute'>;

export type EnqueueOptions = {
  /** Idempotency key: enqueueing the same name and key again, while the first job is kept, makes no second job. */
  key?: string;
  /** Not before this moment. */
  startAfter?: Date;
};

/** The part of the queue a service needs: jobs are written in the caller's transaction. */
export type JobEnqueuer<D extends JobDefinitions = typeof JOBS> = {
  /**
   * Writes a job through `tx`, so it exists exactly when the caller's data does: a rolled-back transaction leaves
   * none. Returns the job's id, or `null` when a job with the same key already exists.
   */
  enqueue<N extends keyof D & string>(
    tx: JobWriter,
    name: N,
    payload: PayloadOf<D, N>,
    options?: EnqueueOptions,
  ): Promise<string | null>;
  /** Tells this process's workers to look now rather than at their next poll (call it after the commit). */
  wake(name: keyof D & string): void;
  /**
   * Makes the job of `key` due now when it still waits for a later start (a safety net whose work failed where it was
   * first tried), and wakes this process's workers for it. Answers whether a job was moved.
   */
  dueNow(name: keyof D & string, key: string): Promise<boolean>;
};

export type JobRow = {
  id: string;
  name: string;
  state: JobState;
  data: Record<string, unknown>;
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
  /** `created_on` as PostgreSQL prints it, microseconds kept, for keyset cursors. */
  createdKey: string;
  startAfter: Date;
  startedOn: Date | null;
  completedOn: Date | null;
  error: string | null;
};

export type JobQueue<D extends JobDefinitions = typeof JOBS> = JobEnqueuer<D> & {
  /** Installs or migrates pg-boss's schema and creates each job's queue with its retry policy. */
  start(): Promise<void>;
  /** Runs the handlers: polling workers when `workers` is true, and always for `drain()`. */
  handle(handlers: HandlersOf<D>, options: { workers: boolean }): Promise<void>;
  /** Runs this queue's due jobs in this process until none is due or running (tests wait on it). */
  drain(options?: { timeoutMs?: number }): Promise<void>;
  /** Jobs in a state, newest first, kept or archived (the dead letters are `failed`). */
  list(filter: {
    state: JobState;
    name?: string | undefined;
    after?: { createdKey: string; id: string } | undefined;
    limit: number;
  }): Promise<JobRow[]>;
  /** Stops polling, lets running jobs finish (up to `timeoutMs`), and fails what is still running so it is retried. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
};

/** Idempotency keys become the job's id (pg-boss inserts with ON CONFLICT DO NOTHING on it). */
export function jobIdForKey(name: string, key: string): string {
  const h = createHash('sha256').update(`${name}\0${key}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80; // version 8: a name-based id of our own making
  h[8] = (h[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type Result = { rows: unknown[] };

/** pg-boss's own statements on the database's client: multi-statement scripts (its migrations) need the simple protocol. */
export function clientExecutor(database: Database): PgBoss.Db {
  const client = (database.db as unknown as { $client: PGlite | pg.Pool }).$client;
  const last = (results: Result | Result[]): Result =>
    Array.isArray(results) ? (results.at(-1) ?? { rows: [] }) : results;
  if (database.kind === 'pglite') {
    const lite = client as PGlite;
    return {
      executeSql: async (text: string, values?: unknown[]) =>
        values?.length ? lite.query(text, values) : last(await lite.exec(text)),
    };
  }
  const pool = client as pg.Pool;
  return {
    executeSql: async (text: string, values?: unknown[]) =>
      values?.length ? pool.query(text, values) : last((await pool.query(text)) as unknown as Result | Result[]),
  };
}

/**
 * One pg-boss statement through a Drizzle handle, so an enqueue joins the caller's transaction on either driver. Its
 * `$n` placeholders become Drizzle parameters (Drizzle numbers them again in the same order).
 */
function drizzleExecutor(handle: JobWriter): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks: SQL[] = [];
      let from = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(from, match.index)), sql`${sql.param(values[Number(match[1]) - 1])}`);
        from = match.index + match[0].length;
      }
      chunks.push(sql.raw(text.slice(from)));
      const result = (await handle.execute(sql.join(chunks))) as unknown as Result;
      return { rows: result.rows };
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The durable job queue on the application's database: pg-boss on PostgreSQL and on the embedded PGlite alike
 * (docs/decisions/0011-jobs-on-pg-boss.md).
 */
export function createJobQueue<D extends JobDefinitions = typeof JOBS>(deps: {
  database: Database;
  log: FastifyBaseLogger;
  /** How often an idle worker looks for due jobs; `wake()` shortens the wait for jobs this process wrote. */
  pollingIntervalSeconds?: number;
  /** The jobs this queue knows (the server's `JOBS`; tests bring their own). */
  definitions?: D;
}): JobQueue<D> {
  const definitions = (deps.definitions ?? JOBS) as D;
  const names = Object.keys(definitions) as (keyof D & string)[];
  const executor = clientExecutor(deps.database);
  /**
   * What pg-boss and the handlers still have under way: pg-boss completes or fails a job without awaiting it, and a
   * worker's fetch that was running when `stop()` came can still hand a job over. `stop()` waits for these, so none
   * of them meets a closed pool (an unhandled rejection, and a finished job run again).
   */
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    const forget = () => pending.delete(work);
    work.then(forget, forget);
    return work;
  };
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[] = []) => track(executor.executeSql(text, values)) },
    schema: JOBS_SCHEMA,
    // Expiry, archiving and deletion; pg-boss takes an advisory lock so one process at a time does it.
    supervise: true,
    schedule: false,
    migrate: true,
  });
  boss.on('error', (error) => deps.log.error({ err: error }, 'job queue error'));
  const pollingIntervalSeconds = Math.max(0.5, deps.pollingIntervalSeconds ?? 1);
  let handlers: HandlersOf<D> | undefined;
  const workerIds = new Map<string, string[]>();

  type Fetched = PgBoss.JobWithMetadata<Record<string, unknown>>;

  /** Checks the payload and runs the job's handler; a throw is a failed run (pg-boss retries it or marks it dead). */
  async function run(name: keyof D & string, job: Fetched): Promise<void> {
    if (!handlers) throw new Error('no job handlers registered');
    const info: JobRun = {
      id: job.id,
      attempt: job.retryCount + 1,
      isLastAttempt: job.retryCount >= job.retryLimit,
    };
    try {
      const payload = definitions[name]!.payload.parse(job.data) as PayloadOf<D, typeof name>;
      await track(handlers[name](payload, info));
    } catch (error) {
      const level = info.isLastAttempt ? 'error' : 'warn';
      deps.log[level](
        { err: error, job: { id: job.id, name, attempt: info.attempt } },
        info.isLastAttempt ? 'job failed for the last time: dead' : 'job failed, will be retried',
      );
      throw error;
    }
  }

  function wake(name: keyof D & string): void {
    for (const id of workerIds.get(name) ?? []) boss.notifyWorker(id);
  }

  return {
    async enqueue(tx, name, payload, options = {}) {
      const data = definitions[name]!.payload.parse(payload);
      return boss.send(name, data, {
        db: drizzleExecutor(tx),
        ...(options.key !== undefined ? { id: jobIdForKey(name, options.key) } : {}),
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      });
    },

    wake,

    async dueNow(name, key) {
      // pg-boss's clock is the database's: `now()`, as its fetch compares.
      const { rows } = await executor.executeSql(
        `UPDATE ${JOBS_SCHEMA}.job SET start_after = now()
         WHERE name = $1 AND id = $2 AND state = 'created' AND start_after > now()
         RETURNING id`,
        [name, jobIdForKey(name, key)],
      );
      if (rows.length === 0) return false;
      wake(name);
      return true;
    },

    async start() {
      await boss.start();
      for (const name of names) {
        const def = definitions[name]!;
        const policy = {
          name,
          retryLimit: def.retryLimit,
          retryDelay: def.retryDelaySeconds,
          retryBackoff: true,
          expireInSeconds: def.expireInSeconds,
        };
        // The policy lives on the queue, so a changed definition applies to jobs enqueued from now on.
        if (await boss.getQueue(name)) await boss.updateQueue(name, policy);
        else await boss.createQueue(name, policy);
      }
    },

    async handle(list, options) {
      handlers = list;
      if (!options.workers) return;
      for (const name of names) {
        const id = await boss.work<Record<string, unknown>>(
          name,
          { includeMetadata: true, batchSize: 1, pollingIntervalSeconds },
          async (jobs) => {
            for (const job of jobs) await run(name, job);
          },
        );
        workerIds.set(name, [...(workerIds.get(name) ?? []), id]);
      }
    },

    async drain(options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      for (;;) {
        let ran = 0;
        for (const name of names) {
          const jobs = await boss.fetch<Record<string, unknown>>(name, { includeMetadata: true, batchSize: 10 });
          for (const job of jobs) {
            ran += 1;
            try {
              await run(name, job);
              await boss.complete(name, job.id);
            } catch (error) {
              await boss.fail(name, job.id, error instanceof Error ? error : { message: String(error) });
            }
          }
        }
        if (ran === 0) {
          const { rows } = await executor.executeSql(
            `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job
             WHERE name = ANY($1::text[])
               AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))`,
            [names],
          );
          if ((rows[0] as { n: number }).n === 0) return;
          // A worker of this or another process holds a job: wait for it to settle.
          await sleep(25);
        }
        if (Date.now() > deadline) throw new Error('jobs still due or running after the drain timeout');
      }
    },

    async list(filter) {
      const columns = `id, name, state::text AS state, data, retry_count, retry_limit, created_on,
        created_on::text AS created_key, start_after, started_on, completed_on, output`;
      const { rows } = await executor.executeSql(
        `SELECT * FROM (
           SELECT ${columns} FROM ${JOBS_SCHEMA}.job
           UNION ALL
           SELECT ${columns} FROM ${JOBS_SCHEMA}.archive
         ) j
         WHERE state = $1
           AND ($2::text IS NULL OR name = $2)
           AND ($3::timestamptz IS NULL OR (created_on, id) < ($3::timestamptz, $4::uuid))
         ORDER BY created_on DESC, id DESC
         LIMIT $5`,
        [filter.state, filter.name ?? null, filter.after?.createdKey ?? null, filter.after?.id ?? null, filter.limit],
      );
      return (rows as Record<string, unknown>[]).map((r) => ({
        id: r.id as string,
        name: r.name as string,
        state: r.state as JobState,
        data: (r.data ?? {}) as Record<string, unknown>,
        retryCount: Number(r.retry_count),
        retryLimit: Number(r.retry_limit),
        createdOn: new Date(r.created_on as string | Date),
        createdKey: r.created_key as string,
        startAfter: new Date(r.start_after as string | Date),
        startedOn: r.started_on ? new Date(r.started_on as string | Date) : null,
        completedOn: r.completed_on ? new Date(r.completed_on as string | Date) : null,
        error: errorText(r.output),
      }));
    },

    async stop(options = {}) {
      const timeoutMs = options.timeoutMs ?? 10_000;
      const deadline = Date.now() + timeoutMs;
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
      for (;;) {
        // A macrotask first: a statement that settled hands its result on in microtasks, which may start another.
        await new Promise((resolve) => setImmediate(resolve));
        const left = deadline - Date.now();
        if (pending.size === 0 || left <= 0) return;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...pending]),
          new Promise((resolve) => (timer = setTimeout(resolve, left))),
        ]);
        clearTimeout(timer);
      }
    },
  };
}

/** The message of a failed run (pg-boss stores the error as its output); never the stack. */
function errorText(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const message = (output as { message?: unknown }).message;
  return typeof message === 'string' ? message.slice(0, 1000) : null;
}
