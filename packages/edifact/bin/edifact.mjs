#!/usr/bin/env node
// The `edifact` command. Runs the compiled CLI (dist/cli.mjs, built by bin/build-cli.mjs during `npm ci`) when it
// is newer than every file and folder under src/; otherwise (not built yet, or a source changed since) the
// TypeScript sources through tsx, so that a stale build is never used. `EDIFACT_CLI_SOURCE=1` forces the sources.
import { readdirSync, statSync } from 'node:fs';

const dist = new URL('../dist/cli.mjs', import.meta.url);
const src = new URL('../src/', import.meta.url);

/** The newest modification time under `folder` (files and folders: a removed or added file changes its folder). */
const newest = (folder) => {
  let latest = statSync(folder).mtimeMs;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = new URL(entry.isDirectory() ? `${entry.name}/` : entry.name, folder);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
};

const isFresh = () => {
  if (process.env.EDIFACT_CLI_SOURCE === '1') return false;
  try {
    return statSync(dist).mtimeMs > newest(src);
  } catch {
    return false;
  }
};

let main;
if (isFresh()) ({ main } = await import(dist.href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli.ts'));
}
process.exitCode = await main(process.argv.slice(2));
