/**
 * What the session hooks may count on (the demo documents' set, decision 0027): when they are told a login committed,
 * the session is live, its first refresh token included. A demo set's job asks exactly that before it makes the set;
 * it used to find the family without its token when it ran at once (a busy CI's PostgreSQL), read the session as over,
 * and made nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAuthRepository } from '../src/features/auth/auth.repository.ts';
import { createAuthService, type SessionHooks } from '../src/features/auth/auth.service.ts';
import { createCompaniesService } from '../src/features/companies/companies.service.ts';
import { createGroupsService } from '../src/features/groups/groups.service.ts';
import { createUsersService } from '../src/features/users/users.service.ts';
import { createTestApp, type TestApp } from './helper.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t.close());

it('tells the hooks a login committed only once the session is live', async () => {
  const { db, clock, tokens, mail, audit } = t.app.services;
  const users = createUsersService({ db });
  const groups = createGroupsService({ db, users, audit, clock });
  const companies = createCompaniesService({ db, groups });
  let sessionId: string | undefined;
  let liveWhenCommitted: Promise<string[]> | undefined;
  const hooks: SessionHooks = {
    async started(session) {
      sessionId = session.sessionId;
    },
    async ended() {},
    // What a woken job does first: is the session live? Asked at once, as a job on an idle worker would.
    committed() {
      liveWhenCommitted = auth.liveSessions([sessionId!]);
    },
  };
  const auth = createAuthService({
    db,
    repo: createAuthRepository(db),
    users,
    companies,
    groups,
    tokens,
    mail,
    audit,
    clock,
    publicUrl: 'http://portal.test',
    sessions: hooks,
  });

  const answer = await auth.login(
    { login: 'demo@demo.example.com', password: 'Demo#Demo2026' },
    { ip: '127.0.0.1', userAgent: 'vitest' },
  );
  expect(answer.keycloakResponse?.token.refresh_token).toBeTruthy();
  expect(sessionId).toBeDefined();
  expect(await liveWhenCommitted).toEqual([sessionId]);
});
