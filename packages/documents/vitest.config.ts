import { defineConfig } from 'vitest/config';

// The conformance suite (the sample corpus beside the clone) is its own project: vitest.conformance.config.ts.
export default defineConfig({
  test: {
    name: 'documents',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.conformance.test.ts'],
  },
});
