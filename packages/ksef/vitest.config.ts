import { defineConfig } from 'vitest/config';

// The conformance suite (the Ministry's samples and UPOs beside the clone) is its own project:
// vitest.conformance.config.ts.
export default defineConfig({
  test: {
    name: 'ksef',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.conformance.test.ts'],
  },
});
