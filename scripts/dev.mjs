#!/usr/bin/env node
// `npm run dev`: the API with reload on :3000 and Vite on :5173 (it proxies /api to the API).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = [
  // The help assistant's index follows the help articles as they are edited (they are read, not imported).
  spawn('npx', ['tsx', 'watch', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHAT_HELP_WATCH: process.env.CHAT_HELP_WATCH ?? 'true' },
  }),
  spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts'], { cwd: `${root}/apps/web`, stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) =>
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  }),
);
