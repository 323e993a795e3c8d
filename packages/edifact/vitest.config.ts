import { defineConfig } from 'vitest/config';

// The conformance suite (third-party data beside the clone) is its own project: vitest.conformance.config.ts.
export default defineConfig({
  test: {
    name: 'edifact',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.conformance.test.ts'],
    // The first file to need the test store imports the shipped D96A and D01B zips (seconds; more on a busy machine).
    hookTimeout: 60_000,
  },
});
