#!/usr/bin/env node
// The server compiled to JavaScript (decision 0044): `npm start`, the job worker and the tests that start a whole
// server process run it, so that neither the process nor the CPU pool's threads carry tsx's loader and the
// TypeScript sources. esbuild bundles apps/server/src with the workspace packages; everything from node_modules stays
// external, imported by its resolved path (packages/ksef and packages/ettn have their own fast-xml-parser). Each
// source's `import.meta.url` becomes that source's own URL, so the files read beside the code (migrations, locales,
// XSD schemas, EDIFACT directories, fonts, help articles) are found where they are, with no copies.
//
//   node scripts/build-server.mjs [outdir]     (default apps/server/dist)
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_SERVER_DIST = join(root, 'apps/server/dist');

/** The entry points, by output name: the server, the job worker and the CPU pool's thread. */
const ENTRIES = {
  main: join(root, 'apps/server/src/main.ts'),
  worker: join(root, 'apps/server/src/jobs/worker.ts'),
  'cpu-worker': join(root, 'apps/server/src/cpu/thread.ts'),
};

const sourceUrls = {
  name: 'source-urls',
  setup(b) {
    // A bare import that is not a workspace package stays external, at the path Node would load for its importer.
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.resolving || args.path.startsWith('@portal/') || args.path.startsWith('node:')) return;
      const found = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: found.path, external: true };
    });
    b.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes('/node_modules/')) return;
      const text = await readFile(args.path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js',
      };
    });
  },
};

/** Builds the server into `outdir` (emptied first); about a second. */
export async function buildServer(outdir = DEFAULT_SERVER_DIST) {
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [sourceUrls],
    // The CPU pool starts its threads on the compiled thread entry beside the bundle (src/cpu/pool.ts).
    banner: { js: 'globalThis.__portalBundle ??= import.meta.url;' },
  });
  return outdir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outdir = await buildServer(process.argv[2] ?? DEFAULT_SERVER_DIST);
  console.log(`The server is built in ${outdir}`);
}
