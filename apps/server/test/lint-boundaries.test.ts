import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run lint` keeps tables with their owners and features apart (decision 0013): deliberately bad files, linted
 * through ESLint's own API with the repository's config, at virtual paths inside apps/server/src.
 */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const at = (path: string) => `${repoRoot}apps/server/src/${path}`;

let eslint: ESLint;
beforeAll(() => {
  // One instance for the file: loading the config and the TypeScript resolver is the slow part.
  eslint = new ESLint({ cwd: repoRoot });
});

/** The rule ids reported for the code at the path. */
async function rulesHit(code: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: at(path) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('lint: one owner per table', () => {
  it('refuses drizzle-orm in a service, a route or a plugin', async () => {
    const code = `import { eq } from 'drizzle-orm';\nexport const x = eq;\n`;
    for (const path of ['features/profile/bad.service.ts', 'features/profile/bad.routes.ts', 'plugins/bad.ts']) {
      expect(await rulesHit(code, path)).toContain('no-restricted-imports');
    }
  });

  it("refuses a table imported by anything but a repository, even the feature's own", async () => {
    const code = `import { users } from './users.table.ts';\nexport const x = users;\n`;
    expect(await rulesHit(code, 'features/users/bad.service.ts')).toContain('no-restricted-imports');
  });

  it("refuses a repository querying another feature's table", async () => {
    const code = [
      `import type { Db } from '../../db/client.ts';`,
      `import { users } from '../users/users.table.ts';`,
      `export const findUser = (db: Db) => db.select().from(users);`,
      `export const touch = (db: Db) => db.update(users).set({ language: 'en' });`,
      '',
    ].join('\n');
    const hits = await rulesHit(code, 'features/profile/profile.repository.ts');
    expect(hits.filter((r) => r === 'owners/no-foreign-table-query')).toHaveLength(2);
  });

  it('allows drizzle and its own table in a repository, and another table in a join', async () => {
    const code = [
      `import { eq } from 'drizzle-orm';`,
      `import type { Db } from '../../db/client.ts';`,
      `import { companies } from '../companies/companies.table.ts';`,
      `import { users } from './users.table.ts';`,
      `export const withCompany = (db: Db) =>`,
      `  db.select().from(users).leftJoin(companies, eq(companies.id, users.companyId));`,
      '',
    ].join('\n');
    expect(await rulesHit(code, 'features/users/users.repository.ts')).toEqual([]);
  });

  it('allows drizzle in the layers that speak SQL themselves', async () => {
    const code = `import { sql } from 'drizzle-orm';\nexport const one = sql\`select 1\`;\n`;
    for (const path of ['db/extra.ts', 'jobs/extra.ts', 'storage/extra.ts', 'access/extra.ts']) {
      expect(await rulesHit(code, path)).toEqual([]);
    }
  });
});

describe('lint: features meet only through their services', () => {
  it("refuses another feature's repository or internal module", async () => {
    const repository = `import { createUsersRepository } from '../users/users.repository.ts';\nexport const r = createUsersRepository;\n`;
    expect(await rulesHit(repository, 'features/profile/bad.service.ts')).toContain('import-x/no-restricted-paths');
    const internal = `import { hashPassword } from '../auth/passwords.ts';\nexport const h = hashPassword;\n`;
    expect(await rulesHit(internal, 'features/profile/bad.service.ts')).toContain('import-x/no-restricted-paths');
  });

  it('refuses internals from outside the features too (plugins, seed)', async () => {
    const code = `import { createGroupsRepository } from '../features/groups/groups.repository.ts';\nexport const g = createGroupsRepository;\n`;
    expect(await rulesHit(code, 'plugins/bad.ts')).toContain('import-x/no-restricted-paths');
    expect(await rulesHit(code, 'seed/bad.ts')).toContain('import-x/no-restricted-paths');
  });

  it("allows another feature's service: its factory, types and what it exports on purpose", async () => {
    const code = [
      `import { hashPassword, type AuthService } from '../auth/auth.service.ts';`,
      `import type { UsersService } from '../users/users.service.ts';`,
      `export const h = hashPassword;`,
      `export type Deps = { auth: AuthService; users: UsersService };`,
      '',
    ].join('\n');
    expect(await rulesHit(code, 'features/profile/good.service.ts')).toEqual([]);
  });

  it("allows a feature's own internals", async () => {
    const code = `import { hashPassword } from './passwords.ts';\nexport const h = hashPassword;\n`;
    expect(await rulesHit(code, 'features/auth/good.service.ts')).toEqual([]);
  });
});
