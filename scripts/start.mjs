#!/usr/bin/env node
// `npm start`: builds the web app when it is missing or older than its sources, compiles the server (about a second;
// decision 0044), then starts it (API, web app, embedded database, demo data on first start). `npm run worker` is
// `start.mjs worker`: the job workers alone, compiled the same way.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from './build-server.mjs';
import { SERVER_NODE_ARGS, serverEnv } from './server-runtime.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'apps/web/dist/index.html');
const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contracts/src',
  'packages/i18n/locales',
  'packages/i18n/src',
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, f) => Math.max(m, newest(join(path, f))), s.mtimeMs);
}

const entry = process.argv[2] === 'worker' ? 'worker.js' : 'main.js';

// The worker serves no pages: only the server needs the web app.
const built = existsSync(dist) ? statSync(dist).mtimeMs : 0;
if (entry === 'main.js' && (!built || sources.some((s) => newest(join(root, s)) > built))) {
  console.log('Building the web app…');
  const r = spawnSync('npm', ['run', 'build', '-w', '@portal/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const outdir = await buildServer();
const server = spawn(process.execPath, [...SERVER_NODE_ARGS, join(outdir, entry)], {
  cwd: root,
  stdio: 'inherit',
  env: serverEnv(process.env),
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
