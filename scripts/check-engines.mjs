#!/usr/bin/env node
// Every package the lockfile installs must accept the oldest Node the README names, so `npm ci` prints no
// EBADENGINE warning there (issue 17 item 9). Run by `npm run check`; `node scripts/check-engines.mjs [lockfile]`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const semver = require('semver'); // npm's own range rules (installed with fastify)
const root = fileURLToPath(new URL('..', import.meta.url));

const readme = readFileSync(`${root}/README.md`, 'utf8');
const named = /Node\.js (\d+\.\d+)\+/.exec(readme)?.[1];
if (!named) {
  console.error('check-engines: the README names no "Node.js <major>.<minor>+"');
  process.exit(1);
}
const oldest = `${named}.0`;
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const lock = JSON.parse(readFileSync(process.argv[2] ?? `${root}/package-lock.json`, 'utf8'));

const problems = [];
if (!semver.satisfies(oldest, pkg.engines?.node ?? '*')) {
  problems.push(`package.json engines.node "${pkg.engines?.node}" excludes the README's Node.js ${named}`);
}
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  const range = entry.engines?.node;
  if (!path || !range) continue;
  if (!semver.satisfies(oldest, range, { includePrerelease: true })) {
    problems.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} asks for Node ${range}`);
  }
}
if (problems.length) {
  console.error(`check-engines: not installable without EBADENGINE on Node.js ${oldest} (README):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`check-engines: every locked package accepts Node.js ${oldest}`);
