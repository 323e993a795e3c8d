/**
 * The browser-safe core (docs/decisions/0017-edifact-public-surface.md): `npm run lint` fails on a Node module or
 * global in `packages/edifact/src` outside the node-only places, and accepts them there. Deliberately bad files are
 * linted as text under virtual paths, through the repository's own eslint.config.js.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rules that failed on `code` at `filePath` (relative to the repository root). */
const failures = async (code: string, filePath: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
};

const NODE_IMPORT =
  "import { readFile } from 'node:fs/promises';\n\nexport const read = (path: string) => readFile(path);\n";
const BARE_IMPORT = "import { join } from 'path';\n\nexport const at = (a: string) => join(a, 'x');\n";
const NODE_GLOBAL = 'export const home = (): string | undefined => process.env.HOME;\n';

describe('no Node in the EDIFACT core', () => {
  it('fails on a node: import, a bare built-in and a Node global in the core', { timeout: 60_000 }, async () => {
    for (const path of ['packages/edifact/src/lint-probe.ts', 'packages/edifact/src/spec/lint-probe.ts']) {
      expect(await failures(NODE_IMPORT, path)).toEqual([
        expect.stringMatching(/^no-restricted-imports: .*browser-safe/),
      ]);
      expect(await failures(BARE_IMPORT, path)).toEqual([
        expect.stringMatching(/^no-restricted-imports: .*browser-safe/),
      ]);
      expect(await failures(NODE_GLOBAL, path)).toEqual([
        expect.stringMatching(/^no-restricted-globals: .*browser-safe/),
      ]);
    }
  });

  it(
    'accepts them in the node-only places: node/ folders, the CLI and the Node entry',
    { timeout: 60_000 },
    async () => {
      for (const path of [
        'packages/edifact/src/directory/node/lint-probe.ts',
        'packages/edifact/src/map/node/lint-probe.ts',
        'packages/edifact/src/parallel/node/lint-probe.ts',
        'packages/edifact/src/cli/lint-probe.ts',
        'packages/edifact/src/cli.ts',
        'packages/edifact/src/node.ts',
      ]) {
        expect({ path, failures: await failures(NODE_IMPORT + NODE_GLOBAL, path) }).toEqual({ path, failures: [] });
      }
    },
  );

  it('leaves the rest of the repository alone', { timeout: 60_000 }, async () => {
    expect(await failures(NODE_IMPORT, 'packages/edifact/test/lint-probe.ts')).toEqual([]);
    expect(await failures(NODE_IMPORT, 'apps/server/src/lint-probe.ts')).toEqual([]);
  });
});
