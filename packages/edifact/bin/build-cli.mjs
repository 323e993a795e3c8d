#!/usr/bin/env node
/**
 * Compiles the CLI (src/cli.ts and what it imports) into one ES module, `dist/cli.mjs`, with esbuild (installed
 * with tsx and vite), so that `edifact` does not compile TypeScript on every start. Run by `npm ci` (the root
 * `prepare` script) and by `npm run build:cli -w @portal/edifact`; `dist/` is git-ignored.
 *
 * The sources find their data files relative to themselves (`new URL('../../../guides/', import.meta.url)`): each
 * module's `import.meta.url` is replaced by its source file's URL, computed from the bundle's own URL, so those
 * paths keep pointing at the package's folders wherever the package lies.
 *
 * bin/edifact.mjs runs the bundle only when it is newer than every file under src/ (see `isFresh` there).
 */
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
/** `node bin/build-cli.mjs [OUTFILE]`: dist/cli.mjs by default (tests build elsewhere). */
const outfile = process.argv[2] ? resolve(process.argv[2]) : `${root}dist/cli.mjs`;

/** @type {import('esbuild').Plugin} */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromBundle = relative(dirname(outfile), args.path).split('\\').join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  process.stderr.write('edifact: esbuild is not installed; the CLI will run from its TypeScript sources (tsx)\n');
  process.exit(0);
}

try {
  await esbuild.build({
    entryPoints: [`${root}src/cli.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [sourceUrls],
    banner: { js: '// Built by bin/build-cli.mjs from src/; do not edit.' },
  });
} catch (error) {
  // `npm ci` must not fail over an optional build: the bin runs the sources (tsx) without it.
  process.stderr.write(
    `edifact: the CLI could not be compiled, it will run from its TypeScript sources: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}
