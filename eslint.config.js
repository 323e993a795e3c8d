// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { serverBoundaries, serverFeatureZones } from './apps/server/eslint/boundaries.js';

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
          // Zones are resolved from this file's folder, not from the process's (the lint test runs elsewhere).
          basePath: import.meta.dirname,
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
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({
            name,
            message: 'The EDIFACT core is browser-safe: Node modules belong in a node/ folder or the CLI.',
          })),
          patterns: [
            {
              group: ['node:*'],
              message: 'The EDIFACT core is browser-safe: Node modules belong in a node/ folder or the CLI.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'require', '__dirname', '__filename'].map((name) => ({
          name,
          message: 'The EDIFACT core is browser-safe: Node globals belong in a node/ folder or the CLI.',
        })),
      ],
    },
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
