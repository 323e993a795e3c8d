import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server-postgres',
    include: ['test/**/*.test.ts'],
    // The EDIFACT fuzz suite exercises the CPU pool, not the database: once, on PGlite, is enough.
    exclude: ['test/edifact-fuzz.test.ts'],
    env: { TEST_DB_KIND: 'postgres' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
