import { defineConfig } from 'vitest/config';

// The conformance suite over the e-TTN specs beside the clone (`../shared/specs/ettn`: eleven XML samples): it runs
// when they are there (CI has them) and is skipped otherwise, with one line saying so (test/conformance-setup.ts).
export default defineConfig({
  test: {
    name: 'ettn-conformance',
    include: ['test/**/*.conformance.test.ts'],
    globalSetup: ['test/conformance-setup.ts'],
    testTimeout: 60_000,
  },
});
