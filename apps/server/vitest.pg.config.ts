import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server-postgres',
    include: ['test/**/*.test.ts'],
    // The EDIFACT fuzz suite exercises the CPU pool and the lint test ESLint, not the database: once is enough.
    exclude: ['test/edifact-fuzz.test.ts', 'test/lint-boundaries.test.ts'],
    env: { TEST_DB_KIND: 'postgres' },
    globalSetup: ['test/global-setup.postgres.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
