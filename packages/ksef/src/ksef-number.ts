/**
 * KSeF numbers (NOTES §7): `NNNNNNNNNN-YYYYMMDD-XXXXXXXXXXXX-CC`, 35 characters: the seller's NIP, the date, twelve
 * upper-case hex digits and a CRC-8 checksum. KSeF 1.0 numbers (36 characters, a `-` inside the hex part) are still
 * accepted by the API, so they are accepted here too.
 */

const KSEF_NUMBER_35 = /^(\d{10})-(\d{4})(\d{2})(\d{2})-([0-9A-F]{12})-([0-9A-F]{2})$/;
const KSEF_NUMBER_36 = /^(\d{10})-(\d{4})(\d{2})(\d{2})-([0-9A-F]{6}-[0-9A-F]{6})-([0-9A-F]{2})$/;

/** CRC-8: polynomial 0x07, initial value 0x00, no reflection, no final XOR (CRC-8/SMBUS). */
export function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** The checksum (two upper-case hex digits) of a KSeF number's part before the last `-`. */
export function ksefNumberChecksum(body: string): string {
  return crc8(new TextEncoder().encode(body)).toString(16).toUpperCase().padStart(2, '0');
}

const isRealDate = (y: string, m: string, d: string): boolean => {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
};

/**
 * Whether `value` is a well-formed KSeF number whose checksum matches: 35 characters (KSeF 2.0), or 36 (the KSeF
 * 1.0 layout with a `-` inside the hex part, checked as the same number without that `-`).
 */
export function isValidKsefNumber(value: string): boolean {
  const match = KSEF_NUMBER_35.exec(value) ?? KSEF_NUMBER_36.exec(value);
  if (!match) return false;
  const [, nip, y, m, d, hex, cc] = match as unknown as [string, string, string, string, string, string, string];
  if (!isRealDate(y, m, d)) return false;
  return ksefNumberChecksum(`${nip}-${y}${m}${d}-${hex.replace('-', '')}`) === cc;
}

/**
 * A KSeF number from its parts, as KSeF forms it (for tests and the embedded simulator).
 * @param nip the seller's NIP (10 digits)
 * @param date the acquisition date, `YYYY-MM-DD` or `YYYYMMDD`
 * @param random12hex twelve hex digits
 */
export function makeKsefNumber(nip: string, date: string, random12hex: string): string {
  if (!/^\d{10}$/.test(nip)) throw new RangeError('nip: 10 digits expected');
  const compact = date.replaceAll('-', '');
  if (!/^\d{8}$/.test(compact)) throw new RangeError('date: YYYY-MM-DD expected');
  if (!/^[0-9A-Fa-f]{12}$/.test(random12hex)) throw new RangeError('random12hex: 12 hex digits expected');
  const body = `${nip}-${compact}-${random12hex.toUpperCase()}`;
  return `${body}-${ksefNumberChecksum(body)}`;
}
