import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { seedDemoData } from '../src/seed/demo.ts';

/**
 * Where the API suite's test files copy their databases from: one migrated database and one also seeded with the
 * demo data, made once per run. A PGlite database is a tarball of its data directory (initdb and the migrations cost
 * seconds a file on two cores; loading the tarball a fraction of that); a PostgreSQL one is a template database.
 */
export type DbSnapshots =
  { kind: 'pglite'; migrated: string; seeded: string } | { kind: 'postgres'; migrated: string; seeded: string };

declare module 'vitest' {
  // Module augmentation merges into vitest's interface: only an interface can.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    dbSnapshots: DbSnapshots;
  }
}

async function pglite(): Promise<{ snapshots: DbSnapshots; teardown(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-db-snapshot-'));
  const database = await openDatabase({ dataDir: 'memory://' });
  const migrated = join(dir, 'migrated.tar');
  const seeded = join(dir, 'seeded.tar');
  writeFileSync(migrated, new Uint8Array(await (await database.dump!()).arrayBuffer()));
  await seedDemoData(database.db);
  writeFileSync(seeded, new Uint8Array(await (await database.dump!()).arrayBuffer()));
  await database.close();
  return {
    snapshots: { kind: 'pglite', migrated, seeded },
    teardown: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgres(url: string): Promise<{ snapshots: DbSnapshots; teardown(): Promise<void> }> {
  const id = randomBytes(4).toString('hex');
  const names = { migrated: `portal_tpl_${id}`, seeded: `portal_tpl_seeded_${id}` };
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  for (const [which, name] of Object.entries(names)) {
    await admin(`CREATE DATABASE ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
    const database = await openDatabase({ url: target.toString(), dataDir: '' });
    if (which === 'seeded') await seedDemoData(database.db);
    await database.close();
  }
  return {
    snapshots: { kind: 'postgres', ...names },
    async teardown() {
      for (const name of Object.values(names)) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** vitest globalSetup of the API suite: `TEST_DB_KIND=postgres` (the PostgreSQL project) makes templates. */
export function dbSnapshotsSetup(kind: 'pglite' | 'postgres') {
  return async (project: TestProject) => {
    const url = process.env.TEST_DATABASE_URL;
    if (kind === 'postgres' && !url) throw new Error('TEST_DATABASE_URL is not set for the PostgreSQL run');
    const made = kind === 'postgres' ? await postgres(url!) : await pglite();
    project.provide('dbSnapshots', made.snapshots);
    return made.teardown;
  };
}
