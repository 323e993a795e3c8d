// The CPU pool's thread entry. A worker thread does not take the parent's TypeScript loader, so it registers tsx
// (as packages/edifact's parallel mode does) before loading the TypeScript tasks.
const { register } = await import('tsx/esm/api');
register();
const { runCpuTask } = await import('./tasks.ts');
export default runCpuTask;
