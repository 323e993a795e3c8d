import {
  AppConfigResponseSchema,
  DEFAULT_LANGUAGE,
  PaymentReminderDueResponseSchema,
  isPaymentReminderDay,
  type AppConfigEntry,
  type PaymentReminderContent,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import { getCookie, setCookie } from '../../../lib/cookies.ts';
import { emailHash } from '../../../lib/email-hash.ts';
import { calendarDay } from '../../../lib/format.ts';

/** SHA-256 of the lower-cased e-mail, in hex: the reminder cookie's name (description, section 9). */
export function reminderCookieName(email: string): Promise<string> {
  return emailHash(email);
}

/** The calendar day in the browser's time zone: the cookie's value. */
export { calendarDay };

/** The content in the user's language, else English, else the first one there is. */
export function pickReminderContent(
  entries: readonly AppConfigEntry[],
  language: string,
): PaymentReminderContent | undefined {
  const base = language.split('-')[0];
  return (entries.find((e) => e.lang === base) ?? entries.find((e) => e.lang === DEFAULT_LANGUAGE) ?? entries[0])
    ?.content;
}

export type ReminderCheck = { api: ApiClient; email: string; language: string; now: Date };

export type DueReminder = {
  content: PaymentReminderContent;
  /** Call when shown: no second time today. */ markShown: () => void;
};

/**
 * Decides whether to show the payment reminder now and returns its content (description, sections 4 and 9): only on
 * days 14 to 24 of the month by the browser's clock, at most once per calendar day per user (a one-day cookie named
 * by the hashed e-mail), and only when the server says it is due for the company.
 */
export async function findDueReminder({ api, email, language, now }: ReminderCheck): Promise<DueReminder | undefined> {
  if (!isPaymentReminderDay(now.getDate())) return undefined;
  const cookie = await reminderCookieName(email);
  const today = calendarDay(now);
  if (getCookie(cookie) === today) return undefined;
  const due = await api.get('/users/paymentReminder', PaymentReminderDueResponseSchema);
  if (!due.due) return undefined;
  const config = await api.get('/AppConfig', AppConfigResponseSchema, { query: { appConfigType: 'PAYMENT_REMINDER' } });
  const content = pickReminderContent(config.httpResponse.body, language);
  if (!content) return undefined;
  return { content, markShown: () => setCookie(cookie, today, 1) };
}
