import { defineConfig } from 'vitest/config';

// The conformance suite (the e-TTN samples beside the clone, ../shared/specs/ettn) is its own project:
// vitest.conformance.config.ts.
export default defineConfig({
  test: {
    name: 'ettn',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.conformance.test.ts'],
  },
});
