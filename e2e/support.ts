import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Page } from '@playwright/test';

const mailDir = `${process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL('./.artifacts', import.meta.url))}/mail/`;
export type Mail = { to: string[]; subject: string; text: string; attachments: string[] };

/** Waits for an e-mail to `to` at the SMTP receiver and returns it. */
export async function waitForMail(to: string, subject?: RegExp, timeoutMs = 15_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = readdirSync(mailDir)
      .sort()
      .reverse()
      .map((f) => JSON.parse(readFileSync(mailDir + f, 'utf8')) as Mail);
    const found = mails.find((m) => m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first http(s) link in a message, made relative so it opens on the server under test. */
export function linkFrom(mail: Mail): string {
  const m = mail.text.match(/https?:\/\/[^\s]+/);
  if (!m) throw new Error(`no link in: ${mail.text}`);
  const url = new URL(m[0]);
  return url.pathname + url.search;
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  let results: Awaited<ReturnType<AxeBuilder['analyze']>>;
  // Colours measured mid-fade (a dialog opening, a button's hover transition) are not the page's colours.
  // Endless ones (a spinner) are left out. A fade that starts during the analysis (a toast closing on its timer,
  // which failed a run in CI) takes a millisecond while the page is asked for reduced motion, which the theme
  // respects.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    await page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    );
    results = await new AxeBuilder({ page }).analyze();
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  // Each node with axe's reason (a contrast's colours and ratio, say), so a failure in CI says what it saw.
  expect(
    serious.map(
      (v) =>
        `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()})`).join(', ')}`,
    ),
  ).toEqual([]);
}

export const DEMO = {
  user: { email: 'user@demo.example.com', password: 'User#Demo2026' },
  admin: { email: 'admin@demo.example.com', password: 'Admin#Demo2026' },
  legacy: { login: 'DEMO01', password: 'Legacy#2026' },
};

/** Demo Supplier's users: its e-TTN subscription ends within 14 days, so the expiry dialog greets them once a day. */
const ETTN_EXPIRY_USERS = ['user@demo.example.com', 'clerk@demo.example.com'];

/**
 * The browser storage of a context in which Demo Supplier's users saw today's e-TTN expiry dialog already (the key
 * the portal writes: SHA-256 of the lower-cased e-mail, the browser's calendar day), so that it does not cover the
 * screens of journeys about something else; the expiry journey starts without it.
 */
export function ettnExpirySeen(baseURL: string) {
  const localStorage = ETTN_EXPIRY_USERS.map(ettnExpirySeenEntry);
  return { cookies: [], origins: [{ origin: new URL(baseURL).origin, localStorage }] };
}

/** The storage entry by which the portal knows a user saw today's e-TTN expiry dialog. */
function ettnExpirySeenEntry(email: string): { name: string; value: string } {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    name: `ettnExpirySeen.${createHash('sha256').update(email.toLowerCase()).digest('hex')}`,
    value: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
  };
}

/**
 * Today's e-TTN expiry dialog marked seen for one more Demo Supplier user (a journey's fresh user), in every page of
 * the context from its next navigation on: it opens a moment after the layout and would cover the screen under test.
 */
export async function ettnExpirySeenFor(page: Page, email: string): Promise<void> {
  const { name, value } = ettnExpirySeenEntry(email);
  await page.context().addInitScript(([k, v]) => window.localStorage.setItem(k, v), [name, value] as const);
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export type Account = { email: string; password: string };

/** Demo Retailer (the buyer) and Demo Supplier, the two parties of the documents journeys' orders. */
export const RETAILER_GLN = '4012345000016';
export const SUPPLIER_GLN = '5901234000017';

export type OrdersOptions = {
  /** The sender (UNB and NAD+BY); Demo Retailer unless said. */
  from?: string;
  /** The recipient (UNB and NAD+SU); Demo Supplier unless said. */
  to?: string;
  /** Segments between the order date and the parties (a delivery date, free text). */
  header?: string[];
  /** A delivery point (NAD+DP) after the parties. */
  deliveryPoint?: string;
  /** The lines as GTIN and quantity; one line of 48 unless said. */
  lines?: [gtin: string, quantity: number][];
  /** UTF-8 text (UNOW, syntax 4, a UNB date with the century) rather than Latin-1 (UNOC, syntax 3). */
  utf8?: boolean;
  /** With the UNA service string advice (the default); without it the reader assumes the standard separators. */
  una?: boolean;
  /** One segment a line rather than one run of text. */
  lineBreaks?: boolean;
};

/** One EANCOM D96A interchange of orders, a message for each number. */
export function orders(control: string, numbers: string[], options: OrdersOptions = {}): string {
  const {
    from = RETAILER_GLN,
    to = SUPPLIER_GLN,
    header = [],
    deliveryPoint,
    lines = [['4000862141404', 48]],
    utf8 = false,
    una = true,
    lineBreaks = false,
  } = options;
  const messages = numbers.flatMap((number, i) => {
    const body = [
      `BGM+220+${number}+9'`,
      "DTM+137:20261120:102'",
      ...header,
      `NAD+BY+${from}::9'`,
      `NAD+SU+${to}::9'`,
      ...(deliveryPoint ? [`NAD+DP+${deliveryPoint}::9'`] : []),
      ...lines.flatMap(([gtin, quantity], l) => [`LIN+${l + 1}++${gtin}:EN'`, `QTY+21:${quantity}'`]),
      "UNS+S'",
    ];
    return [`UNH+${i + 1}+ORDERS:D:96A:UN:EAN008'`, ...body, `UNT+${body.length + 2}+${i + 1}'`];
  });
  const syntax = utf8 ? 'UNOW:4' : 'UNOC:3';
  const date = utf8 ? '20261120:1000' : '261120:1000';
  return [
    ...(una ? ["UNA:+.? '"] : []),
    `UNB+${syntax}+${from}:14+${to}:14+${date}+${control}'`,
    ...messages,
    `UNZ+${numbers.length}+${control}'`,
  ].join(lineBreaks ? '\n' : '');
}

/** Digits of this moment and a random pair, so that runs and tests never meet as duplicates. */
export function stamp(): string {
  return `${Date.now() % 1e9}${Math.floor(Math.random() * 90 + 10)}`;
}

/**
 * A control reference (UNB allows 14 characters) and order numbers of this run: `${controlPrefix}${tag}${stamp}` and
 * `${numberPrefix}-${tag}-${stamp}`, or `count` numbers of it ending in -1, -2, and so on.
 */
export function unique(
  tag: string,
  {
    controlPrefix = '',
    numberPrefix = 'PO',
    count,
  }: { controlPrefix?: string; numberPrefix?: string; count?: number } = {},
) {
  const now = stamp();
  const number = `${numberPrefix}-${tag}-${now}`;
  const numbers = count ? Array.from({ length: count }, (_, i) => `${number}-${i + 1}`) : [number];
  return { stamp: now, control: `${controlPrefix}${tag}${now}`.slice(0, 14), number, numbers };
}

/**
 * Logs in on /login and waits for the inbox. `byPurpose` finds the e-mail field by its autocomplete and submits with
 * Enter, so it works on a login page in any language; otherwise the English label and the Log in button.
 */
export async function logIn(page: Page, account: Account, { byPurpose = false } = {}): Promise<void> {
  await page.goto('/login');
  if (byPurpose) {
    await page.locator('input[autocomplete="username"]').fill(account.email);
    await page.locator('input[type="password"]').fill(account.password);
    await page.locator('input[type="password"]').press('Enter');
  } else {
    await page.getByRole('textbox', { name: 'E-mail' }).fill(account.email);
    await page.locator('input[type="password"]').fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }
  await expect(page).toHaveURL(/\/documents\/in/);
}

/** The login toast's close button has no name (shared notify helper): axe looks once it has gone. */
export async function afterToasts(page: Page): Promise<void> {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

/** Switches the page to Arabic by the language cookie and waits for the right-to-left layout. */
export async function inArabic(page: Page, baseURL: string | undefined): Promise<void> {
  await page.context().addCookies([{ name: 'lang', value: 'ar', url: baseURL ?? 'http://localhost' }]);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
}

/**
 * A page in a context of its own (a second user, or a phone-sized screen), with the base URL and the locale given
 * here (and the config's storage state, which Playwright applies to every context). Downloads are accepted (Playwright's default).
 */
export async function newPage(browser: Browser, baseURL: string | undefined, phone = false): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    locale: 'en-GB',
    ...(phone ? { viewport: { width: 390, height: 844 } } : {}),
  });
  return context.newPage();
}
