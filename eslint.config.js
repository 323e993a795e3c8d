// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

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
              from: ['./packages/contracts', './packages/i18n'],
              message: 'packages/documents depends on edifact and zod only.',
            },
            {
              target: './packages/edifact',
              from: './packages/documents',
              message: 'packages/edifact depends on nothing.',
            },
          ],
        },
      ],
    },
  },
  {
    // The document model runs in browsers too (the web app will render and edit canonical bodies).
    files: ['packages/documents/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'packages/documents runs in browsers.' }] },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**', '**/bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
