import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { freshDatabase } from './helper.ts';
import { startS3 } from './s3.ts';

let s3: Awaited<ReturnType<typeof startS3>>;
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

beforeAll(async () => {
  s3 = await startS3('portal-configured');
  // As an operator would give them: the SDK's environment variables, never the URL.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
});
afterAll(async () => {
  for (const [name, value] of [
    ['AWS_ACCESS_KEY_ID', saved.id],
    ['AWS_SECRET_ACCESS_KEY', saved.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await s3?.close();
});

/** Builds the whole app with STORAGE_URL as the environment gives it. */
async function start(storageUrl: string) {
  const database = await freshDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-test-')),
    EDIFACT_SHIPPED_DIRECTORIES: 'false',
    STORAGE_URL: storageUrl,
  });
  try {
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    return { app, database };
  } catch (error) {
    await database.close();
    throw error;
  }
}

describe('STORAGE_URL at start', () => {
  const endpoint = () => s3.location.endpoint!;

  it('starts on a bucket that is there', async () => {
    const { app, database } = await start(`s3://portal-configured/?endpoint=${endpoint()}`);
    await app.close();
    await database.close();
  });

  it('refuses to start on a bucket that is not there, naming it', async () => {
    await expect(start(`s3://portal-nowhere?endpoint=${endpoint()}`)).rejects.toThrow(
      /STORAGE_URL: bucket "portal-nowhere" cannot be used/,
    );
  });
});
