/** The CPU pool's thread entry: piscina calls the default export with each task (`worker.mjs` loads it from source). */
import type { MessagePort } from 'node:worker_threads';
import { loadCpuTask, type CpuTask } from './tasks.ts';

/** A task as the pool hands it over: with the port on which the thread says it started (the time limit's start). */
export type ThreadTask = { task: CpuTask; started?: MessagePort | undefined };

/** Loads the task's module, says so (what came before was the server's time, not the task's), and runs it. */
export default async function runThreadTask({ task, started }: ThreadTask): Promise<unknown> {
  const { name, ...input } = task;
  const run = await loadCpuTask(name);
  started?.postMessage(null);
  return run(input);
}
