import { createHash } from 'node:crypto';
import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConfigEntry, PaymentReminderContent } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import { getCookie } from '../../../lib/cookies.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { calendarDay, findDueReminder, pickReminderContent, reminderCookieName } from '../api/payment-reminder.ts';

const content = (lang: string): PaymentReminderContent => ({
  header: `Header ${lang}`,
  body: `Body ${lang}`,
  contact: { text: `Contact ${lang}`, phone: '+48 22 000 00 00', mail: 'billing@example.com' },
  footer: `Footer ${lang}`,
  close: `Close ${lang}`,
});
const entries: AppConfigEntry[] = [
  { lang: 'en', content: content('en') },
  { lang: 'pl', content: content('pl') },
];
const config = { httpResponse: { body: entries } };
const EMAIL = 'User@Demo.example.com';
const cookieName = createHash('sha256').update(EMAIL.toLowerCase()).digest('hex');

function fakeApi(due: boolean) {
  const get = vi.fn(async (path: string) => (path === '/users/paymentReminder' ? { due } : config));
  return { api: { get } as unknown as ApiClient, get };
}

const at = (day: number) => new Date(2026, 10, day, 9, 30);

describe('payment reminder rules', () => {
  afterEach(() => {
    document.cookie = `${cookieName}=; Max-Age=0; Path=/`;
  });

  it('names the cookie by the SHA-256 of the lower-cased e-mail', async () => {
    expect(await reminderCookieName(EMAIL)).toBe(cookieName);
  });

  it('asks the server only on days 14 to 24 of the month', async () => {
    for (const day of [1, 13, 25, 31]) {
      const { api, get } = fakeApi(true);
      expect(await findDueReminder({ api, email: EMAIL, language: 'en', now: at(day) })).toBeUndefined();
      expect(get).not.toHaveBeenCalled();
    }
    for (const day of [14, 24]) {
      const { api } = fakeApi(true);
      expect((await findDueReminder({ api, email: EMAIL, language: 'en', now: at(day) }))?.content.header).toBe(
        'Header en',
      );
    }
  });

  it('shows nothing when the server says it is not due', async () => {
    const { api, get } = fakeApi(false);
    expect(await findDueReminder({ api, email: EMAIL, language: 'en', now: at(14) })).toBeUndefined();
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('shows at most once per calendar day: the cookie lives one day and holds the day', async () => {
    const { api } = fakeApi(true);
    const first = await findDueReminder({ api, email: EMAIL, language: 'en', now: at(14) });
    first?.markShown();
    expect(getCookie(cookieName)).toBe(calendarDay(at(14)));
    expect(await findDueReminder({ api, email: EMAIL, language: 'en', now: at(14) })).toBeUndefined();
    // The next calendar day (the cookie may still be there late in the evening) shows it again.
    expect(await findDueReminder({ api, email: EMAIL, language: 'en', now: at(15) })).toBeDefined();
  });

  it("picks the user's language, else English", () => {
    expect(pickReminderContent(entries, 'pl')?.header).toBe('Header pl');
    expect(pickReminderContent(entries, 'de')?.header).toBe('Header en');
    expect(pickReminderContent([], 'de')).toBeUndefined();
  });
});

describe('payment reminder dialog', () => {
  afterEach(() => {
    document.cookie = `${cookieName}=; Max-Age=0; Path=/`;
  });

  function render(routes: Parameters<typeof renderApp>[0]['routes']) {
    const exp = Math.floor(Date.now() / 1000) + 300;
    return renderApp({
      path: '/documents/in',
      session: { accessToken: makeAccessToken({ exp, email: EMAIL }), refreshToken: 'r', refreshExpiresAt: exp + 1500 },
      routes: { 'GET /api/users/permissions': { body: { permissions: ['INBOX_READ'], toggles: [] } }, ...routes },
    });
  }

  it('shows header, body, contact, footer and the close button on a reminder day, once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 14, 10, 0));
    const routes = {
      'GET /api/users/paymentReminder': { body: { due: true } },
      'GET /api/AppConfig': { body: config },
    };
    const app = await render(routes);
    const dialog = await app.screen.findByRole('dialog', { name: 'Header en' });
    expect(dialog.textContent).toContain('Body en');
    expect(dialog.textContent).toContain('Contact en');
    expect(dialog.textContent).toContain('Footer en');
    expect(within(dialog).getByRole('link', { name: 'billing@example.com' }).getAttribute('href')).toBe(
      'mailto:billing@example.com',
    );
    expect(within(dialog).getByRole('link', { name: '+48 22 000 00 00' }).getAttribute('href')).toBe(
      'tel:+48220000000',
    );
    await app.user.click(within(dialog).getByRole('button', { name: 'Close en' }));
    await waitFor(() => expect(app.screen.queryByRole('dialog', { name: 'Header en' })).toBeNull());
    app.unmount();

    const again = await render(routes);
    await again.screen.findByTestId('main-navigation');
    await new Promise((r) => setTimeout(r, 100));
    expect(again.screen.queryByRole('dialog', { name: 'Header en' })).toBeNull();
    expect(again.api.calls.some((c) => c.path === '/api/users/paymentReminder')).toBe(false);
  });

  it('does not ask on the 25th', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 25, 10, 0));
    const app = await render({
      'GET /api/users/paymentReminder': { body: { due: true } },
      'GET /api/AppConfig': { body: config },
    });
    await app.screen.findByTestId('main-navigation');
    await new Promise((r) => setTimeout(r, 100));
    expect(app.api.calls.some((c) => c.path === '/api/users/paymentReminder')).toBe(false);
  });
});
