/**
 * A self-signed certificate carrying a NIP, as KSeF's TEST environment accepts for XAdES logins (NOTES §2) and as the
 * portal's simulator does: an ECDSA P-256 key, the NIP as `organizationIdentifier` `VATPL-<NIP>`. For demos and
 * tests only: DEMO and production want a qualified certificate or a KSeF certificate.
 */
import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const engine = new pkijs.CryptoEngine({ name: 'webcrypto', crypto: webcrypto as never });
const OID = {
  country: '2.5.4.6',
  organization: '2.5.4.10',
  commonName: '2.5.4.3',
  organizationIdentifier: '2.5.4.97',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
};

const pem = (label: string, der: ArrayBuffer | Uint8Array) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der as ArrayBuffer)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

export async function createTestCertificate(options: {
  nip: string;
  name: string;
  notBefore?: Date;
  days?: number;
}): Promise<{ certificatePem: string; privateKeyPem: string }> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = webcrypto.getRandomValues(new Uint8Array(16));
  // Positive and minimal in DER: a first byte of 0 would need the next one below 0x80 to be dropped (an invalid
  // INTEGER otherwise), so it is never 0.
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  const rdn = (type: string, value: string) =>
    new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) });
  const subject = [
    rdn(OID.country, 'PL'),
    rdn(OID.organization, options.name),
    rdn(OID.organizationIdentifier, `VATPL-${options.nip}`),
    rdn(OID.commonName, `${options.name} (test)`),
  ];
  // One attribute per RDN, as KSeF TEST's certificates have: pkijs would write all of them into one multi-valued RDN
  // (one SET), so the name is built as DER and read back, which keeps its encoding.
  const name = () => {
    const der = new asn1js.Sequence({
      value: subject.map((atv) => new asn1js.Set({ value: [atv.toSchema()] })),
    }).toBER(false);
    return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(der).result });
  };
  cert.subject = name();
  cert.issuer = name();
  const notBefore = options.notBefore ?? new Date();
  cert.notBefore.value = notBefore;
  cert.notAfter.value = new Date(notBefore.getTime() + (options.days ?? 730) * 86_400_000);
  cert.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.keyUsage,
      critical: true,
      // digitalSignature and nonRepudiation.
      extnValue: new asn1js.BitString({ valueHex: new Uint8Array([0xc0]), unusedBits: 6 }).toBER(false),
    }),
  ];
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey as never, engine);
  await cert.sign(keys.privateKey as never, 'SHA-256', engine);
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    certificatePem: pem('CERTIFICATE', cert.toSchema(true).toBER(false)),
    privateKeyPem: pem('PRIVATE KEY', pkcs8),
  };
}
