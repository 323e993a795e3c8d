// @ts-check
// The server's ownership rules (docs/decisions/0013-table-owners.md), imported by the root eslint.config.js.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const SRC = path.join(import.meta.dirname, '..', 'src');
const FEATURES = path.join(SRC, 'features');

const dirs = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
const files = (dir, suffix) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(suffix)) : []);

/**
 * A feature is reached from outside only through its public surface: its `*.service.ts` files (the factories, their
 * types and what they export on purpose). Its `*.table.ts` files may be imported too, but `no-restricted-imports`
 * below keeps them to repositories, other tables (foreign keys) and `src/db/`; its `*.tasks.ts` are the CPU pool's
 * task list. The composition root (`src/app.ts`) also wires its routes and repositories.
 */
export function serverFeatureZones() {
  const features = dirs(FEATURES);
  const outside = readdirSync(SRC)
    .filter((name) => name !== 'features' && name !== 'app.ts')
    .map((name) => path.join(SRC, name));
  const app = path.join(SRC, 'app.ts');
  return features.flatMap((feature) => {
    const dir = path.join(FEATURES, feature);
    const surface = [
      ...files(dir, '.service.ts'),
      ...files(dir, '.table.ts'),
      ...files(dir, '.tasks.ts'),
      ...files(dir, '.seed.ts'),
    ].map((f) => `./${f}`);
    const wiring = [...files(dir, '.routes.ts'), ...files(dir, '.repository.ts')].map((f) => `./${f}`);
    const others = features.filter((f) => f !== feature).map((f) => path.join(FEATURES, f));
    const message = `Another feature's internals: reach features/${feature} through its service (${surface
      .filter((f) => f.endsWith('.service.ts'))
      .join(', ')}).`;
    return [
      { target: [...others, ...outside], from: dir, except: surface, message },
      { target: app, from: dir, except: [...surface, ...wiring], message },
    ];
  });
}

/** Layers that are repositories by nature: they own their tables (or none) and speak SQL themselves. */
const SQL_LAYERS = [
  'apps/server/src/db/**',
  'apps/server/src/jobs/**',
  'apps/server/src/storage/**',
  'apps/server/src/access/**',
];

const drizzleOutsideRepositories = [
  'error',
  {
    patterns: [
      {
        group: ['drizzle-orm', 'drizzle-orm/*'],
        message: "Drizzle belongs in repositories (*.repository.ts), tables and src/db: call the owner's service.",
      },
      {
        regex: '\\.table(\\.ts)?$',
        message: "A table is queried only by its owner's repository: call the owner's service.",
      },
    ],
  },
];

/** A foreign table as the subject of a query: `.from(x)`, `.insert(x)`, `.update(x)`, `.delete(x)`. */
const QUERY_METHODS = new Set(['from', 'insert', 'update', 'delete']);

/** @type {import('eslint').Rule.RuleModule} */
const noForeignTableQuery = {
  meta: {
    type: 'problem',
    docs: { description: "A repository queries only its own feature's tables; another's it may only join." },
    messages: {
      foreign:
        '`{{name}}` belongs to {{owner}}: only its repository selects from, inserts, updates or deletes it. Call its service (a join for a list is allowed).',
    },
    schema: [],
  },
  create(context) {
    const here = path.dirname(context.physicalFilename);
    /** Local names of tables imported from another folder, with that folder. */
    const foreign = new Map();
    return {
      ImportDeclaration(node) {
        const source = String(node.source.value);
        if (!source.startsWith('.') || !/\.table(\.ts)?$/.test(source)) return;
        const owner = path.dirname(path.resolve(here, source));
        if (owner === here) return;
        for (const spec of node.specifiers) foreign.set(spec.local.name, path.relative(SRC, owner));
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        if (!QUERY_METHODS.has(callee.property.name)) return;
        const arg = node.arguments[0];
        if (arg?.type !== 'Identifier' || !foreign.has(arg.name)) return;
        context.report({ node: arg, messageId: 'foreign', data: { name: arg.name, owner: foreign.get(arg.name) } });
      },
    };
  },
};

/** Config blocks for apps/server. */
export const serverBoundaries = [
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.table.ts', '**/*.test.ts', ...SQL_LAYERS],
    rules: { 'no-restricted-imports': drizzleOutsideRepositories },
  },
  {
    // Route files speak HTTP wherever they live (src/jobs/ included).
    files: ['apps/server/src/**/*.routes.ts'],
    rules: { 'no-restricted-imports': drizzleOutsideRepositories },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { owners: { rules: { 'no-foreign-table-query': noForeignTableQuery } } },
    rules: { 'owners/no-foreign-table-query': 'error' },
  },
];
