/** The CPU pool's thread entry: piscina calls the default export with each task (`worker.mjs` loads it from source). */
export { runCpuTask as default } from './tasks.ts';
