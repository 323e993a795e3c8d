import { LOCALES } from '@portal/i18n';
import { isLanguage } from '@portal/contracts';

/** The Intl locale of an i18next language code. */
export function intlLocale(language: string): string {
  return isLanguage(language) ? LOCALES[language].intl : 'en-GB';
}

/** "5 minutes" in the reader's language; Intl knows every plural form (six in Arabic). */
export function formatMinutes(language: string, minutes: number): string {
  return new Intl.NumberFormat(intlLocale(language), { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(
    minutes,
  );
}

/** Seconds in words of the language, with its plural: "45 seconds", "45 секунд". */
export function formatSeconds(language: string, seconds: number): string {
  return new Intl.NumberFormat(intlLocale(language), { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(
    seconds,
  );
}

/** Splits seconds into whole hours and the remaining minutes (hoursDelayLogout is given in seconds). */
export function splitHoursMinutes(seconds: number): { hours: number; minutes: number } {
  const totalMinutes = Math.max(0, Math.floor(seconds / 60));
  return { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 };
}

export function formatDateTime(language: string, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A calendar day (`2026-11-20`) in the reader's language, without shifting it by the time zone; else as given. */
export function formatDay(language: string, day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** The calendar day in the browser's time zone, e.g. 2026-11-14: what "once a day" notices remember. */
export function calendarDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
