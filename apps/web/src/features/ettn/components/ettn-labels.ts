import type { TFunction } from 'i18next';
import { ETTN_ACT_TYPES, ETTN_PARTY_ROLE_CODES, ETTN_SUPPORTING_DOCUMENT_TYPES } from '@portal/contracts';
import { formatDateTime, formatDay } from '../../../lib/format.ts';
import { foldRole } from '../ettn-roles.ts';

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

export function supportingTypeLabel(t: EttnT, type: string): string {
  const known = ETTN_SUPPORTING_DOCUMENT_TYPES.find((d) => d === type);
  return known ? t(`supportingType.${known}`) : type;
}

/** Whether one of the caller's roles is one that must act now. */
export function isMyTurn(mustAct: readonly string[], myRoles: readonly string[]): boolean {
  const mine = new Set(myRoles.map(foldRole));
  return mustAct.some((role) => mine.has(foldRole(role)));
}

/** A time of the registry in the reader's language, or a dash when there is none. */
export const timeText = (value: string | null, language: string): string =>
  value ? formatDateTime(language, value) : '—';

/** A note's issue date (a day, or a time whose day is shown), or a dash. */
export const dayText = (value: string | null, language: string): string =>
  value ? formatDay(language, value.slice(0, 10)) : '—';
