/**
 * Self-signed X.509 v3 certificates, written in DER by hand: the few structures a certificate needs (RFC 5280 §4.1),
 * signed with node:crypto. Enough for the simulator's own certificates and for tests' self-signed TEST-style
 * certificates carrying a NIP; parsing is left to node:crypto's X509Certificate. (A maintained X.509 library was
 * tried first; it needs a global reflect-metadata polyfill, too much to load into the server for this.)
 *
 * Not `createTestCertificate` of `@portal/ksef/client`: it makes its own ECDSA P-256 key and a NIP seal's subject,
 * in one multi-valued RDN, while the simulator's keys are RSA-2048 (RSA-OAEP, UPO signatures) and name the simulator,
 * and the tests sign seals over RSA and EC keys of their own.
 */
import { createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';

const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, content: Buffer): Buffer =>
  Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const oid = (dotted: string): Buffer => {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [40 * (parts[0] ?? 0) + (parts[1] ?? 0)];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
};
const integer = (bytes: Buffer): Buffer =>
  tlv(0x02, (bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const time = (date: Date): Buffer => {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
};

/** Attribute types by short name (X.520); `organizationIdentifier` carries `VATPL-<NIP>` in Polish seals. */
const ATTRIBUTES: Record<string, string> = {
  C: '2.5.4.6',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  CN: '2.5.4.3',
  serialNumber: '2.5.4.5',
  givenName: '2.5.4.42',
  surname: '2.5.4.4',
  organizationIdentifier: '2.5.4.97',
};

export type NameAttribute = [keyof typeof ATTRIBUTES, string];

/** A Name with each attribute in its own RDN (one SET each), as KSeF TEST's certificates have it. */
const name = (attributes: NameAttribute[]): Buffer =>
  seq(
    ...attributes.map(([type, value]) => {
      const printable = type === 'C' || type === 'serialNumber';
      return set(seq(oid(ATTRIBUTES[type] ?? '2.5.4.3'), tlv(printable ? 0x13 : 0x0c, Buffer.from(value, 'utf8'))));
    }),
  );

/** A self-signed certificate (RSA or ECDSA with SHA-256) over `privateKey`'s public half, in DER. */
export function selfSignedCertificate(options: {
  privateKey: KeyObject;
  subject: NameAttribute[];
  notBefore: Date;
  notAfter: Date;
}): Buffer {
  const spki = createPublicKey(options.privateKey).export({ type: 'spki', format: 'der' });
  // sha256WithRSAEncryption (with NULL parameters), or ecdsa-with-SHA256 (without).
  const algorithm =
    options.privateKey.asymmetricKeyType === 'ec'
      ? seq(oid('1.2.840.10045.4.3.2'))
      : seq(oid('1.2.840.113549.1.1.11'), tlv(0x05, Buffer.alloc(0)));
  const serial = randomBytes(12);
  serial[0] = (serial[0] ?? 1) & 0x7f || 1;
  const subject = name(options.subject);
  const basicConstraints = seq(oid('2.5.29.19'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, seq()));
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    algorithm,
    subject,
    seq(time(options.notBefore), time(options.notAfter)),
    subject,
    spki,
    tlv(0xa3, seq(basicConstraints)),
  );
  const signature = sign('sha256', tbs, options.privateKey);
  return seq(tbs, algorithm, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
}
