import { ETTN_EXPIRY_WARNING_MS, type AliasRegistrationResponse } from '@portal/contracts';

/** Where an alias or a subscription stands: expired, expiring within 14 days (the dialog's window), or active. */
export type EttnExpiryState = 'expired' | 'soon' | 'active';

export function expiryState(expiresAt: string, now: number = Date.now()): EttnExpiryState {
  const left = new Date(expiresAt).getTime() - now;
  if (!(left > 0)) return 'expired';
  return left <= ETTN_EXPIRY_WARNING_MS ? 'soon' : 'active';
}

/** One alias or subscription, as the panel and the expiry dialog name it. */
export type EttnExpiringItem = { kind: 'alias' | 'subscription'; key: string; value: string; expiresAt: string };

/** Every alias and subscription, aliases first, each with what identifies it. */
export function expiryItems(data: AliasRegistrationResponse): EttnExpiringItem[] {
  return [
    ...data.aliases.map((a) => ({
      kind: 'alias' as const,
      key: `alias-${a.value}`,
      value: a.value,
      expiresAt: a.expiresAt,
    })),
    ...data.subscriptions.map((s) => ({
      kind: 'subscription' as const,
      key: `subscription-${s.id}`,
      value: s.aliasValue,
      expiresAt: s.expiresAt,
    })),
  ];
}

/** The items the expiry dialog announces: not yet expired, expiring within 14 days (as the server's `expiresSoon`). */
export function expiringSoon(data: AliasRegistrationResponse, now: number = Date.now()): EttnExpiringItem[] {
  return expiryItems(data).filter((item) => expiryState(item.expiresAt, now) === 'soon');
}
