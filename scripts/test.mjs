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
// The names of the failed tests, repeated under the summary: CI shows only the tail of a long log. A message is kept
// long enough for what a test adds to say why (the jobs' states, the app's warnings).
const failures = [];
const firstLine = (m) =>
  String(m ?? '')
    .split('\n')
    .find((l) => l.trim()) ?? '';

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
    for (const file of r.testResults ?? []) {
      const name = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedTests) failures.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      // A file that failed to load has no failed test of its own, only its message.
      if (file.status === 'failed' && failedTests.length === 0) failures.push(`${name}: ${firstLine(file.message)}`);
    }
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
      const walk = (suite) => {
        for (const spec of suite.specs ?? []) {
          for (const t of spec.tests ?? []) {
            if (t.status === 'unexpected') {
              const last = t.results?.[t.results.length - 1];
              failures.push(`${spec.file} › ${spec.title}: ${firstLine(last?.error?.message)}`);
            }
          }
        }
        for (const child of suite.suites ?? []) walk(child);
      };
      for (const suite of r.suites ?? []) walk(suite);
    }
    if (code !== 0) status = code;
  }
}

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f.slice(0, 3000)}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status || (failed ? 1 : 0));
