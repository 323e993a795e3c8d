/**
 * The CPU pool: work that costs CPU in proportion to a user's input (EDIFACT validation, CONTRL, directory zips, and
 * later PDF and XSD work) runs on worker threads, never on the event loop that answers everyone else. Each task has
 * a time limit, counted from when a thread takes it, and the threads a memory limit; a task over either is stopped
 * (its thread is ended and replaced) and answered with `request.processing_limit`, and a full queue, or a task that
 * waited too long for a thread, with `server.busy`, so one user can slow only their own request.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { AppError } from '../lib/app-error.ts';
import type { CpuTask, CpuTaskName, CpuTaskResult } from './tasks.ts';
import type { ThreadTask } from './thread.ts';

export type CpuPoolOptions = {
  /** Longest a task may run, in milliseconds, from when a thread takes it. */
  timeLimitMs: number;
  /** Longest a task may wait for a thread (default: its time limit); then it is refused with `server.busy`. */
  queueWaitMs?: number;
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
      // The time limit counts from the moment a thread takes the task: time spent waiting behind other users' tasks
      // is the server's being busy (503, try again), not the input's cost.
      const controller = new AbortController();
      const { port1, port2 } = new MessageChannel();
      let started = false;
      let timer = setTimeout(() => controller.abort(), options.queueWaitMs ?? options.timeLimitMs);
      port1.once('message', () => {
        started = true;
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), options.timeLimitMs);
      });
      try {
        const threadTask: ThreadTask = { task, started: port2 };
        return (await getPool().run(threadTask, { signal: controller.signal, transferList: [port2] })) as never;
      } catch (error) {
        const refused = toAppError(error, options.timeLimitMs, started);
        if (refused instanceof AppError && refused.code === 'request.processing_limit') wakeQueue(getPool());
        throw refused;
      } finally {
        clearTimeout(timer);
        port1.close();
      }
    },
    completed: () => pool?.completed ?? 0,
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}

/**
 * Piscina without a minimum of threads replaces a thread it ended (a task stopped at its time or memory limit) only
 * when the next task is sent: until then the tasks queued behind it would wait for nothing. A task that does nothing
 * is sent, which starts a thread; the queue goes to it in order.
 */
function wakeQueue(pool: Piscina): void {
  if (pool.queueSize === 0) return;
  const wake: ThreadTask = { task: { name: 'pool.wake' } };
  // A full queue refuses it: the tasks in it are then given up when they have waited their time.
  pool.run(wake).catch(() => undefined);
}

function toAppError(error: unknown, timeLimitMs: number, started: boolean): unknown {
  const e = error as { name?: string; code?: string; message?: string } | null;
  if (e?.name === 'AbortError' && !started) {
    return new AppError('server.busy', { headers: { 'retry-after': String(BUSY_RETRY_SECONDS) } });
  }
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
