// The parallel mode's worker entry: a worker thread does not take the parent's TypeScript loader, so it registers
// tsx (as bin/edifact.mjs does) before loading the TypeScript worker.
const { register } = await import('tsx/esm/api');
register();
await import('./worker.ts');
