import {
  LANGUAGES,
  PaymentReminderContentSchema,
  isPaymentReminderDay,
  type AppConfigEntry,
  type Language,
  type PaymentReminderContent,
} from '@portal/contracts';
import type { Clock } from '../../lib/clock.ts';
import type { CompaniesService } from '../companies/companies.service.ts';
import type { AppConfigRepository } from './app-config.repository.ts';
import { DEFAULT_PAYMENT_REMINDERS } from './app-config.defaults.ts';

export type AppConfigService = ReturnType<typeof createAppConfigService>;

export function createAppConfigService(deps: {
  repo: AppConfigRepository;
  companies: Pick<CompaniesService, 'find'>;
  clock: Clock;
}) {
  const { repo, clock } = deps;
  return {
    /**
     * The reminder in every language: the stored entry where admins saved a valid one, the built-in text
     * otherwise, so the dialog never lacks a language (and an empty table still answers).
     */
    async listPaymentReminders(): Promise<AppConfigEntry[]> {
      const stored = new Map<string, PaymentReminderContent>();
      for (const row of await repo.listByType('PAYMENT_REMINDER')) {
        const parsed = PaymentReminderContentSchema.safeParse(row.content);
        if (parsed.success) stored.set(row.lang, parsed.data);
      }
      return LANGUAGES.map((lang) => ({ lang, content: stored.get(lang) ?? DEFAULT_PAYMENT_REMINDERS[lang] }));
    },

    async setPaymentReminder(lang: Language, content: PaymentReminderContent, userId: string): Promise<AppConfigEntry> {
      await repo.upsert({ type: 'PAYMENT_REMINDER', lang, content, updatedBy: userId, at: clock.now() });
      return { lang, content };
    },

    /**
     * Due when the company is marked as having an overdue payment and today (UTC, server clock) is one of the
     * reminder days. How often it is shown within a day is the web app's business (a cookie).
     */
    async isPaymentReminderDue(companyId: string | null): Promise<boolean> {
      if (!companyId) return false;
      if (!isPaymentReminderDay(clock.now().getUTCDate())) return false;
      return (await deps.companies.find(companyId))?.overduePayment ?? false;
    },
  };
}
