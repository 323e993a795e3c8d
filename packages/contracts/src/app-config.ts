import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { PAYMENT_REMINDER_FIRST_DAY, PAYMENT_REMINDER_LAST_DAY } from './constants.ts';
import { EmailSchema, text } from './rules.ts';

/** App config (description, sections 3, 7 and 9): admin-edited texts per language, fetched by type. */

export const APP_CONFIG_TYPES = ['PAYMENT_REMINDER'] as const;
export type AppConfigType = (typeof APP_CONFIG_TYPES)[number];
export const AppConfigTypeSchema = z.enum(APP_CONFIG_TYPES, { error: 'oneOf' });

const line = (max: number) => text({ error: 'required' }).trim().min(1, 'required').max(max, 'tooLong');

/** The payment reminder dialog: header, body, contact (text, phone, mail), footer and the close button's label. */
export const PaymentReminderContentSchema = z.object({
  header: line(200),
  body: line(4000),
  contact: z.object({
    text: line(500),
    phone: text({ error: 'required' })
      .trim()
      .min(1, { error: 'required', abort: true })
      .max(40, 'tooLong')
      .regex(/^\+?[0-9][0-9 ()./-]*$/, 'telephone'),
    mail: EmailSchema,
  }),
  /** May be empty: not every language needs a closing line. */
  footer: text({ error: 'required' }).trim().max(1000, 'tooLong'),
  close: line(50),
});
export type PaymentReminderContent = z.infer<typeof PaymentReminderContentSchema>;

export const AppConfigQuerySchema = z.object({ appConfigType: AppConfigTypeSchema });

export const AppConfigEntrySchema = z.object({ lang: LanguageSchema, content: PaymentReminderContentSchema });
export type AppConfigEntry = z.infer<typeof AppConfigEntrySchema>;

/** `GET /AppConfig` answers in the old back end's envelope. */
export const AppConfigResponseSchema = z.object({
  httpResponse: z.object({ body: z.array(AppConfigEntrySchema) }),
});
export type AppConfigResponse = z.infer<typeof AppConfigResponseSchema>;

export const AppConfigParamsSchema = z.object({ type: AppConfigTypeSchema, lang: LanguageSchema });

export const PaymentReminderDueResponseSchema = z.object({ due: z.boolean() });
export type PaymentReminderDueResponse = z.infer<typeof PaymentReminderDueResponseSchema>;

/** The reminder's days of the month, inclusive (section 9). */
export function isPaymentReminderDay(dayOfMonth: number): boolean {
  return dayOfMonth >= PAYMENT_REMINDER_FIRST_DAY && dayOfMonth <= PAYMENT_REMINDER_LAST_DAY;
}
