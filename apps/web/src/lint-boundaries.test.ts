import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The web app's layers (decision 0016) as `npm run lint` enforces them: each case lints one import from a file that
 * does not exist, at the path where it would sit, through the repository's own ESLint configuration.
 */
// `import.meta.dirname`, not a `URL`: the test runs under happy-dom, whose `URL` is not Node's.
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function zoneErrors(file: string, importPath: string): Promise<string[]> {
  const code = `import * as target from '${importPath}';\nexport const used = target;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'apps/web/src', file) });
  if (!result) throw new Error('ESLint returned no result');
  const fatal = result.messages.filter((m) => m.fatal);
  if (fatal.length) throw new Error(fatal.map((m) => m.message).join('\n'));
  return result.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('web lint zones', { timeout: 60_000 }, () => {
  it("fail a feature that imports another feature's internals", async () => {
    const errors = await zoneErrors(
      'features/profile/components/bad.tsx',
      '../../user-management/components/users-page.tsx',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("only through that feature's index.ts");
  });

  it("pass a feature that imports another feature's index.ts, its own files and shared code", async () => {
    expect(await zoneErrors('features/profile/components/good.tsx', '../../layout/index.ts')).toEqual([]);
    expect(await zoneErrors('features/profile/components/good.tsx', './profile-page.tsx')).toEqual([]);
    expect(await zoneErrors('features/profile/components/good.tsx', '../../../components/keyset-table.tsx')).toEqual(
      [],
    );
    expect(await zoneErrors('features/profile/components/good.tsx', '../../../app/session/session.ts')).toEqual([]);
  });

  it('fail a feature that imports a route', async () => {
    expect(await zoneErrors('features/profile/bad.ts', '../../routes/require-permission.ts')).toHaveLength(1);
  });

  it('pass a route that imports feature internals', async () => {
    expect(await zoneErrors('routes/good-route.ts', '../features/user-management/components/users-page.tsx')).toEqual(
      [],
    );
  });

  it('fail shared code that imports a feature', async () => {
    expect(await zoneErrors('components/bad.tsx', '../features/admin/components/admin-page.tsx')).toHaveLength(1);
    expect(await zoneErrors('lib/bad.ts', '../features/admin/admin-search.ts')).toHaveLength(1);
    expect(await zoneErrors('lib/bad.ts', '../app/session/session.ts')).toHaveLength(1);
    expect(await zoneErrors('app/bad.ts', '../features/auth/api/auth-api.ts')).toHaveLength(1);
  });

  it("pass the app shell wiring a feature through its index.ts, and a lib test using the app's session", async () => {
    expect(await zoneErrors('app/good.ts', '../features/auth/index.ts')).toEqual([]);
    expect(await zoneErrors('lib/good.test.ts', '../app/session/session.ts')).toEqual([]);
  });
});
