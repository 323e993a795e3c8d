import { defineConfig } from 'vitest/config';

// The conformance suite: tests over third-party data beside the clone (`../shared`: the sample corpus, UNECE's
// other directories, php-edifact's XML). It runs when that data is there (CI has it) and is skipped otherwise, with
// one line saying so (test/conformance-setup.ts). Every feature it covers also has a test on the project's fixtures.
export default defineConfig({
  test: {
    name: 'edifact-conformance',
    include: ['test/**/*.conformance.test.ts'],
    globalSetup: ['test/conformance-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
