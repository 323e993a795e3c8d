import { describe, expect, it } from 'vitest';
import { invoiceVerificationUrl, KSEF_QR_HOSTS, sha256Base64Url, toBase64Url } from '../src/index.ts';

/** KOD I (NOTES §1 QR hosts; the Ministry's "Kody weryfikujące QR"): `{host}/invoice/{NIP}/{DD-MM-YYYY}/{hash}`. */
describe('KOD I, the verification link', () => {
  it("is the Ministry's example for its input", () => {
    expect(
      invoiceVerificationUrl({
        qrHost: KSEF_QR_HOSTS.test,
        sellerNip: '1111111111',
        issueDate: '2026-02-01',
        invoiceHash: 'UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE',
      }),
    ).toBe('https://qr-test.ksef.mf.gov.pl/invoice/1111111111/01-02-2026/UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE');
  });

  it('carries the SHA-256 of the XML bytes in Base64URL (computed with openssl for this fixed XML)', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><Faktura><P_1>2026-02-01</P_1></Faktura>';
    // printf '%s' "$xml" | openssl dgst -sha256 -binary | base64 | tr '+/' '-_' | tr -d '='
    const expected = 'WjMdQmVBNISrgW3cVHAxcWGnGlewEqf04s3g0uNgtBk';
    expect(sha256Base64Url(xml)).toBe(expected);
    expect(sha256Base64Url(new TextEncoder().encode(xml))).toBe(expected);
    const link = invoiceVerificationUrl({
      qrHost: KSEF_QR_HOSTS.production,
      sellerNip: '526-104-08-28',
      issueDate: '2026-11-16T10:00:00Z',
      invoiceHash: sha256Base64Url(xml),
    });
    expect(link).toBe(`https://qr.ksef.mf.gov.pl/invoice/5261040828/16-11-2026/${expected}`);
  });

  it("takes KSeF's Base64 invoiceHash as well, and another host (the portal's simulator)", () => {
    const base64 = Buffer.from(toBase64Url('WjMdQmVBNISrgW3cVHAxcWGnGlewEqf04s3g0uNgtBk'), 'base64url').toString(
      'base64',
    );
    expect(base64).toMatch(/=$/);
    expect(
      invoiceVerificationUrl({
        qrHost: 'http://portal.test/ksef-simulator/',
        sellerNip: '7010002139',
        issueDate: '2026-11-16',
        invoiceHash: base64,
      }),
    ).toBe(
      'http://portal.test/ksef-simulator/invoice/7010002139/16-11-2026/WjMdQmVBNISrgW3cVHAxcWGnGlewEqf04s3g0uNgtBk',
    );
  });

  it('refuses what is not a NIP, a date or a SHA-256', () => {
    const ok = {
      qrHost: KSEF_QR_HOSTS.demo,
      sellerNip: '7010002139',
      issueDate: '2026-11-16',
      invoiceHash: 'A'.repeat(43),
    };
    expect(() => invoiceVerificationUrl({ ...ok, sellerNip: '12345' })).toThrow(RangeError);
    expect(() => invoiceVerificationUrl({ ...ok, issueDate: '16.11.2026' })).toThrow(RangeError);
    expect(() => invoiceVerificationUrl({ ...ok, invoiceHash: 'abc' })).toThrow(RangeError);
  });
});
