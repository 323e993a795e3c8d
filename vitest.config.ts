import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Each workspace brings its own vitest.config.ts. The API suite runs a second time on PostgreSQL when
// TEST_DATABASE_URL is set (CI sets it).
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: one on CI's two. Most API test time is waiting (PostgreSQL,
    // the KSeF simulator's delays, job drains), so two files at once on two cores finish sooner (decision 0042).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      'packages/*/vitest.config.ts',
      // Tests over the third-party data in ../shared; skipped, with one line saying so, when it is not there.
      'packages/edifact/vitest.conformance.config.ts',
      'packages/documents/vitest.conformance.config.ts',
      'packages/ksef/vitest.conformance.config.ts',
      'packages/ettn/vitest.conformance.config.ts',
      'apps/*/vitest.config.ts',
      ...(process.env.TEST_DATABASE_URL ? ['apps/server/vitest.pg.config.ts'] : []),
    ],
  },
});
