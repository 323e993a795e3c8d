import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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
  // Colours measured mid-fade (a dialog opening, a button's hover transition) are not the page's colours.
  // Endless ones (a spinner) are left out.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

export const DEMO = {
  user: { email: 'user@demo.example.com', password: 'User#Demo2026' },
  admin: { email: 'admin@demo.example.com', password: 'Admin#Demo2026' },
  legacy: { login: 'DEMO01', password: 'Legacy#2026' },
};

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
