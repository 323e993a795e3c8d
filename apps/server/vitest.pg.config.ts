import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server-postgres',
    include: ['test/**/*.test.ts'],
    env: { TEST_DB_KIND: 'postgres' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
