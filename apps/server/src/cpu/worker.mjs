// The CPU pool's thread entry when the server runs from source. A worker thread does not take the parent's
// TypeScript loader, so it registers tsx (as packages/edifact's parallel mode does) before loading the TypeScript
// tasks. The compiled server starts its threads on its own `cpu-worker.js` instead (scripts/build-server.mjs).
const { register } = await import('tsx/esm/api');
register();
const { default: runThreadTask } = await import('./thread.ts');
export default runThreadTask;
