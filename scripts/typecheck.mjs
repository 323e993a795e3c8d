#!/usr/bin/env node
// Type-checks every workspace that has a tsconfig.json (each one is checked on its own settings).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const projects = ['packages', 'apps']
  .flatMap((d) => readdirSync(`${root}/${d}`).map((p) => `${d}/${p}`))
  .concat('e2e')
  .filter((p) => existsSync(`${root}/${p}/tsconfig.json`));
let failed = 0;
for (const p of projects) {
  const r = spawnSync('npx', ['tsc', '-p', p], { cwd: root, stdio: 'inherit' });
  console.log(`typecheck ${p}: ${r.status === 0 ? 'ok' : 'FAILED'}`);
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
