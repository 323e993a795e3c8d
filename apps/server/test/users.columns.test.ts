import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_COLUMNS } from '@portal/contracts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const USER = { login: 'user@demo.example.com', password: 'User#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };

async function client(creds: { login: string; password: string }) {
  const { access_token } = await login(t.app, creds);
  return {
    get: (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/getColumns',
        headers: bearer(access_token),
        payload: payload as object,
      }),
    set: (payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/users/setColumns',
        headers: bearer(access_token),
        payload: payload as object,
      }),
  };
}

describe('POST /api/users/getColumns and PUT /api/users/setColumns', () => {
  it('answers the six default columns before anything is saved', async () => {
    const user = await client(USER);
    for (const list of ['inbox', 'outbox']) {
      const res = await user.get({ list });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ list, columns: [...DEFAULT_DOCUMENT_COLUMNS], saved: false });
    }
  });

  it('saves the columns in their order per user and per list; another user and the other list keep theirs', async () => {
    const user = await client(USER);
    const buyer = await client(BUYER);
    const chosen = ['Status', 'DocumentNumber', 'TestOut', 'DocumentType'];
    const saved = await user.set({ list: 'inbox', columns: chosen });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ list: 'inbox', columns: chosen, saved: true });

    expect((await user.get({ list: 'inbox' })).json()).toEqual({ list: 'inbox', columns: chosen, saved: true });
    expect((await user.get({ list: 'outbox' })).json().columns).toEqual([...DEFAULT_DOCUMENT_COLUMNS]);
    expect((await buyer.get({ list: 'inbox' })).json()).toEqual({
      list: 'inbox',
      columns: [...DEFAULT_DOCUMENT_COLUMNS],
      saved: false,
    });

    // Saving again replaces the choice; a new session of the same user sees it.
    await user.set({ list: 'inbox', columns: ['PartnerName'] });
    expect((await (await client(USER)).get({ list: 'inbox' })).json().columns).toEqual(['PartnerName']);
  });

  it('refuses unknown, repeated or no columns and unknown lists with the field (400), saving nothing', async () => {
    const buyer = await client(BUYER);
    const cases: [unknown, string][] = [
      [{ list: 'outbox', columns: ['DocumentNumber', 'Nope'] }, 'columns.1'],
      [{ list: 'outbox', columns: ['Status', 'Status'] }, 'columns'],
      [{ list: 'outbox', columns: [] }, 'columns'],
      [{ list: 'outbox', columns: 'Status' }, 'columns'],
      [{ list: 'outbox' }, 'columns'],
      [{ list: 'drafts', columns: ['Status'] }, 'list'],
    ];
    for (const [payload, field] of cases) {
      const res = await buyer.set(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('validation.failed');
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const badGet = await buyer.get({ list: 'drafts' });
    expect(badGet.statusCode).toBe(400);
    expect(badGet.json().error.details[0].field).toBe('list');
    expect((await buyer.get({ list: 'outbox' })).json().saved).toBe(false);
  });

  it('takes the permission to read the list, and a signed-in caller', async () => {
    const clerk = await client(CLERK); // INBOX_READ only
    expect((await clerk.set({ list: 'inbox', columns: ['Status'] })).statusCode).toBe(200);
    expect((await clerk.get({ list: 'outbox' })).statusCode).toBe(403);
    expect((await clerk.set({ list: 'outbox', columns: ['Status'] })).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/users/getColumns', payload: { list: 'inbox' } });
    expect(anonymous.statusCode).toBe(401);
  });
});
