/**
 * KOD I, the verification link of an invoice in KSeF (NOTES §1, the QR host per environment; the Ministry's
 * "Kody weryfikujące QR"): `{QR host}/invoice/{seller NIP}/{issue date P_1 as DD-MM-YYYY}/{SHA-256 of the invoice XML
 * in Base64URL}`. A visualisation prints it as a QR code with the KSeF number under it (or OFFLINE before there is
 * one). KOD II (offline certificates) is not made here.
 */
import { createHash } from 'node:crypto';

/** The QR hosts of KSeF's environments (NOTES §1). */
export const KSEF_QR_HOSTS = {
  test: 'https://qr-test.ksef.mf.gov.pl',
  demo: 'https://qr-demo.ksef.mf.gov.pl',
  production: 'https://qr.ksef.mf.gov.pl',
} as const;

/** SHA-256 of the bytes in Base64URL without padding: the invoice's hash as KOD I carries it. */
export function sha256Base64Url(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/** A Base64 value (KSeF's `invoiceHash`) as Base64URL without padding; a Base64URL value is left as it is. */
export function toBase64Url(base64: string): string {
  return base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The KOD I link of an invoice. `issueDate` is P_1 (`YYYY-MM-DD`, a time after it is ignored); `invoiceHash` is the
 * SHA-256 of the invoice file exactly as sent, in Base64 or Base64URL. Throws a RangeError on a NIP that is not ten
 * digits, a date that is not one, or a hash that is not 32 bytes.
 */
export function invoiceVerificationUrl(input: {
  qrHost: string;
  sellerNip: string;
  issueDate: string;
  invoiceHash: string;
}): string {
  const nip = input.sellerNip.replace(/[\s-]/g, '');
  if (!/^\d{10}$/.test(nip)) throw new RangeError(`not a NIP: ${input.sellerNip}`);
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(input.issueDate);
  if (!date) throw new RangeError(`not an issue date: ${input.issueDate}`);
  const hash = toBase64Url(input.invoiceHash);
  if (!/^[A-Za-z0-9_-]{43}$/.test(hash)) throw new RangeError('not a SHA-256 hash in Base64');
  const host = input.qrHost.replace(/\/+$/, '');
  return `${host}/invoice/${nip}/${date[3]}-${date[2]}-${date[1]}/${hash}`;
}
