import { defineConfig } from 'vitest/config';

// The conformance suite over the KSeF files beside the clone (`../shared/specs/ksef`: the Ministry's 26 FA(3)
// samples and the TEST UPOs). It runs when they are there (CI has them) and is skipped otherwise, with one line
// saying so (test/conformance-setup.ts). The samples are not copied into the repository.
export default defineConfig({
  test: {
    name: 'ksef-conformance',
    include: ['test/**/*.conformance.test.ts'],
    globalSetup: ['test/conformance-setup.ts'],
    testTimeout: 60_000,
  },
});
