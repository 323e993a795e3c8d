#!/usr/bin/env node
// `npm test`: every test. Unit and API tests (vitest: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set),
// then the browser journeys (Playwright in Debian's Chromium). Ends with one plain summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'test-results');
mkdirSync(out, { recursive: true });
const only = process.argv[2]; // optional: "unit" or "e2e"

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
let passed = 0;
let failed = 0;
let skipped = 0;
let status = 0;

if (only !== 'e2e') {
  const code = run('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${join(out, 'vitest.json')}`,
  ]);
  if (existsSync(join(out, 'vitest.json'))) {
    const r = JSON.parse(readFileSync(join(out, 'vitest.json'), 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  }
  if (code !== 0) status = code;
}

if (only !== 'unit') {
  const browser = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(browser)) {
    console.error(
      `\nNo Chromium at ${browser}: install it (apt-get install -y chromium) or set CHROMIUM_PATH. The browser journeys cannot run.`,
    );
    failed += 1;
    status = 1;
  } else {
    const build = run('npm', ['run', 'build', '-w', '@portal/web']);
    if (build !== 0) status = build;
    const code = run('npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: join(out, 'playwright.json'),
    });
    if (existsSync(join(out, 'playwright.json'))) {
      const r = JSON.parse(readFileSync(join(out, 'playwright.json'), 'utf8'));
      // A journey that passed on its retry counts as passed (Playwright reports it as flaky).
      passed += r.stats.expected + (r.stats.flaky ?? 0);
      failed += r.stats.unexpected;
      skipped += r.stats.skipped;
    }
    if (code !== 0) status = code;
  }
}

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status || (failed ? 1 : 0));
