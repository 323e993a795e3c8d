import { defineConfig } from 'vitest/config';

// The API suite on PGlite; vitest.pg.config.ts runs the same files on PostgreSQL when TEST_DATABASE_URL is set.
export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.pglite.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
