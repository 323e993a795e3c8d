import type { TFunction } from 'i18next';
import { ETTN_ACT_TYPES, ETTN_PARTY_ROLE_CODES } from '@portal/contracts';
import { formatDateTime, formatDay } from '../../../lib/format.ts';

type EttnT = TFunction<'ettn'>;

const STEPS = ['consignor_send', 'send_preliminary', 'pickup_sign', 'arrival_sign'] as const;

/** A party role's name; a code the screens do not know, as sent. */
export function roleLabel(t: EttnT, code: string): string {
  const known = ETTN_PARTY_ROLE_CODES.find((c) => c === code);
  return known ? t(`role.${known}`) : code;
}

export function stepLabel(t: EttnT, step: string): string {
  const known = STEPS.find((s) => s === step);
  return known ? t(`step.${known}`) : step;
}

export function actTypeLabel(t: EttnT, type: string): string {
  const known = ETTN_ACT_TYPES.find((a) => a === type);
  return known ? t(`actType.${known}`) : type;
}

/** Sub-roles act for their parent (description: CH and DR under the carrier, UC for the consignee). */
const PARENT: Record<string, string> = { CH: 'CA', DR: 'CA', DRS: 'CA', UC: 'CN' };
const fold = (role: string) => PARENT[role] ?? role;

/** Whether one of the caller's roles is one that must act now. */
export function isMyTurn(mustAct: readonly string[], myRoles: readonly string[]): boolean {
  const mine = new Set(myRoles.map(fold));
  return mustAct.some((role) => mine.has(fold(role)));
}

/** A time of the registry in the reader's language, or a dash when there is none. */
export const timeText = (value: string | null, language: string): string =>
  value ? formatDateTime(language, value) : '—';

/** A note's issue date (a day, or a time whose day is shown), or a dash. */
export const dayText = (value: string | null, language: string): string =>
  value ? formatDay(language, value.slice(0, 10)) : '—';
