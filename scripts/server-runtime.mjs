// How a compiled server process is started (decision 0045), by `npm start`, `npm run worker`, the tests that start a
// whole server and the browser journeys; docs/deployment.md gives the same for a service manager.
// - `--max-semi-space-size=4`: V8's young generation at 4 MB semi-spaces (its own grows to 16; 8 until decision 0045's
//   amendment).
//   The ingest's batches fill a large one with garbage as fast as a small one; each MB of it is resident memory.
// - glibc's malloc hands blocks of 128 KiB and more (Buffers, the thread's messages) back to the system when they are
//   freed, instead of keeping them for reuse after its threshold has grown with the first large ones.
// An operator's own value of either variable wins.

/** Node's options for the server's process, before the script. */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=4'];

/** The environment of a server process: `env` over the settings above. */
export const serverEnv = (env) => ({
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  ...env,
});
