import { defineConfig } from 'vitest/config';

// The conformance suite over the third-party sample corpus beside the clone (`../shared/samples/edifact`), as the
// edifact package runs its own: it runs when the corpus is there (CI has it) and is skipped otherwise, with one line
// saying so (test/conformance-setup.ts). The same mapping runs on the project's fixtures in every `npm test`.
export default defineConfig({
  test: {
    name: 'documents-conformance',
    include: ['test/**/*.conformance.test.ts'],
    globalSetup: ['test/conformance-setup.ts'],
    testTimeout: 60_000,
  },
});
