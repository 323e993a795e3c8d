// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The repository root: zones are resolved from here, whatever directory ESLint runs in. */
const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web app's layers (decision 0016). Shared code (`lib/`, `i18n/`, `components/`, `app/`) never imports a feature
 * or a route; a feature never imports another feature's internals, only its `index.ts`; `routes/` may import
 * anything. Tests of `lib/` and `i18n/` may wire real pieces of the app (the session); the test harness (`test/`)
 * builds the whole app and is not a layer.
 */
const web = './apps/web/src';
const webFeatures = readdirSync(`${root}/apps/web/src/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const publicSurfaces = webFeatures.map((feature) => `./${feature}/index.ts`);
const webZones = [
  ...webFeatures.map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`, ...publicSurfaces],
    message: "A feature uses another feature only through that feature's index.ts (decision 0016).",
  })),
  { target: `${web}/features`, from: `${web}/routes`, message: 'Routes import features, never the other way.' },
  {
    target: [`${web}/lib/**/!(*.test).{ts,tsx}`, `${web}/i18n/**/!(*.test).{ts,tsx}`],
    from: [`${web}/components`, `${web}/app`, `${web}/features`, `${web}/routes`],
    message: 'lib/ and i18n/ are the bottom layer: they import only each other.',
  },
  {
    target: `${web}/components`,
    from: [`${web}/app`, `${web}/features`, `${web}/routes`],
    message: 'Shared components import only lib/, i18n/ and each other.',
  },
  {
    target: `${web}/app`,
    from: `${web}/features`,
    except: publicSurfaces,
    message: "The app's shell wires a feature in only through that feature's index.ts.",
  },
  { target: `${web}/app`, from: `${web}/routes`, message: 'The app shell never imports a route.' },
];
import { serverBoundaries, serverFeatureZones } from './apps/server/eslint/boundaries.js';

/** Rules for code that runs in browsers too: no Node module, no Node global. */
const browserSafe = (modules, nodeGlobals) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: builtinModules.map((name) => ({ name, message: modules })),
      patterns: [{ group: ['node:*'], message: modules }],
    },
  ],
  'no-restricted-globals': [
    'error',
    ...['process', 'Buffer', 'require', '__dirname', '__filename'].map((name) => ({ name, message: nodeGlobals })),
  ],
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/drizzle/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      // Dependencies point one way (docs/ARCHITECTURE.md): packages never import apps, apps meet only in packages.
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            { target: './packages', from: './apps', message: 'A package never imports an app.' },
            { target: './apps/web', from: './apps/server', message: 'The web app talks to the server only over HTTP.' },
            { target: './apps/server', from: './apps/web', message: 'The server never imports the web app.' },
            {
              target: './packages/edifact',
              from: './packages/contracts',
              message: 'packages/edifact depends on nothing.',
            },
            { target: './packages/edifact', from: './packages/i18n', message: 'packages/edifact depends on nothing.' },
            { target: './packages/contracts', from: './packages/i18n', message: 'contracts depends on zod only.' },
            {
              target: './packages/documents',
              // contracts (zod only) gives the forms' schemas that the authoring turns into bodies (decision 0033).
              from: './packages/i18n',
              message: 'packages/documents depends on edifact, contracts and zod only.',
            },
            {
              target: './packages/edifact',
              from: './packages/documents',
              message: 'packages/edifact depends on nothing.',
            },
            ...webZones,
            // Server features reach each other only through their services (decision 0013).
            ...serverFeatureZones(),
          ],
        },
      ],
    },
  },
  {
    // The EDIFACT core runs in browsers too (docs/decisions/0017-edifact-public-surface.md): Node's modules and
    // globals only in the node-only places, which `@portal/edifact/node` and the CLI bring in.
    files: ['packages/edifact/src/**/*.ts'],
    ignores: [
      'packages/edifact/src/**/node/**',
      'packages/edifact/src/node.ts',
      'packages/edifact/src/cli.ts',
      'packages/edifact/src/cli/**',
    ],
    rules: browserSafe(
      'The EDIFACT core is browser-safe: Node modules belong in a node/ folder or the CLI.',
      'The EDIFACT core is browser-safe: Node globals belong in a node/ folder or the CLI.',
    ),
  },
  {
    // The document model runs in browsers too: the web app will show and edit canonical bodies (decision 0018).
    files: ['packages/documents/src/**/*.ts'],
    rules: browserSafe(
      'packages/documents runs in browsers: no Node modules.',
      'packages/documents runs in browsers: no Node globals.',
    ),
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...serverBoundaries,
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**', '**/bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
