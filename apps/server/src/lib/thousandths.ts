/**
 * Quantities compared exactly: a decimal string as whole thousandths (the forms allow three decimals), never a binary
 * float. Used where answers are set against orders: the drafts' open quantities and the ingest's "partly invoiced".
 */
export function thousandths(value: string | undefined): bigint {
  const match = /^(-?)(\d+)(?:[.,](\d{1,3}))?$/.exec((value ?? '').trim());
  if (!match) return 0n;
  const [, sign, whole, fraction = ''] = match;
  const n = BigInt(whole!) * 1000n + BigInt(fraction.padEnd(3, '0'));
  return sign ? -n : n;
}

/** Thousandths back to a decimal string without trailing zeros (`24`, `1.5`). */
export function thousandthsText(n: bigint): string {
  const whole = n / 1000n;
  const fraction = (n < 0n ? -n : n) % 1000n;
  return fraction === 0n ? String(whole) : `${whole}.${String(fraction).padStart(3, '0').replace(/0+$/, '')}`;
}
