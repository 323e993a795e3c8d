/**
 * The CPU pool: work that costs CPU in proportion to a user's input (EDIFACT validation, CONTRL, directory zips, and
 * later PDF and XSD work) runs on worker threads, never on the event loop that answers everyone else. Each task has
 * a time limit and the threads a memory limit; a task over either is stopped (its thread is ended and replaced) and
 * answered with `request.processing_limit`, and a full queue with `server.busy`, so one user can slow only their own
 * request.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { AppError } from '../lib/app-error.ts';
import type { CpuTask, CpuTaskName, CpuTaskResult } from './tasks.ts';

export type CpuPoolOptions = {
  /** Longest a task may run, in milliseconds. */
  timeLimitMs: number;
  /** Threads (default: the cores less one for the event loop, at least 1, at most 4). */
  threads?: number;
  /** Tasks that may wait for a thread; more are refused with 503 (each may hold a 10 MB input). */
  maxQueue?: number;
  /** Heap of one thread, in MB. */
  memoryLimitMb?: number;
};

export type CpuPool = {
  run<N extends CpuTaskName>(task: Extract<CpuTask, { name: N }>): Promise<CpuTaskResult<N>>;
  /** Tasks finished on the threads (for tests and metrics). */
  completed(): number;
  close(): Promise<void>;
};

const BUSY_RETRY_SECONDS = 5;

/**
 * The threads' entry: the compiled server's `cpu-worker.js` beside its bundle (whose first line sets
 * `__portalBundle`; decision 0044), or from source `worker.mjs`, which loads the TypeScript through tsx.
 */
function threadEntry(): string {
  const bundle = (globalThis as { __portalBundle?: string }).__portalBundle;
  return bundle ? new URL('./cpu-worker.js', bundle).href : new URL('./worker.mjs', import.meta.url).href;
}

export function createCpuPool(options: CpuPoolOptions): CpuPool {
  const threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
  let pool: Piscina | undefined;
  // Started on first use: an API process that never validates never starts a thread.
  const getPool = () =>
    (pool ??= new Piscina({
      filename: threadEntry(),
      minThreads: 0,
      maxThreads: threads,
      maxQueue: options.maxQueue ?? 16,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryLimitMb ?? 768 },
    }));

  return {
    async run(task) {
      const signal = AbortSignal.timeout(options.timeLimitMs);
      try {
        return (await getPool().run(task, { signal })) as never;
      } catch (error) {
        throw toAppError(error, options.timeLimitMs);
      }
    },
    completed: () => pool?.completed ?? 0,
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}

function toAppError(error: unknown, timeLimitMs: number): unknown {
  const e = error as { name?: string; code?: string; message?: string } | null;
  if (e?.name === 'AbortError') {
    return new AppError('request.processing_limit', {
      message: `stopped after ${timeLimitMs} ms`,
      data: { reason: 'time', seconds: Math.ceil(timeLimitMs / 1000) },
    });
  }
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new AppError('request.processing_limit', {
      message: 'stopped: out of memory',
      data: { reason: 'memory' },
    });
  }
  if (typeof e?.message === 'string' && /queue is at limit/i.test(e.message)) {
    return new AppError('server.busy', { headers: { 'retry-after': String(BUSY_RETRY_SECONDS) } });
  }
  return error;
}
