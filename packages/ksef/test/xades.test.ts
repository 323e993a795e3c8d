import 'reflect-metadata';
import { X509Certificate as NodeX509, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { buildAuthTokenRequest, createTestCertificate, signXades, verifyXades } from '../src/client/index.ts';

x509.cryptoProvider.set(webcrypto as never);

/** A self-signed certificate carrying a NIP, as KSeF's TEST environment accepts it. */
async function selfSigned(kind: 'rsa' | 'ec', nip = '5265877635') {
  const algorithm =
    kind === 'rsa'
      ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 }
      : { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '0a1b2c',
    name: `CN=Demo KSeF, O=Demo KSeF Sp. z o.o., 2.5.4.97=VATPL-${nip}, C=PL`,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 86_400_000),
    keys,
    signingAlgorithm: algorithm,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    certificatePem: cert.toString('pem'),
    privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`,
  };
}

const request = () =>
  buildAuthTokenRequest({
    challenge: '20261127-CR-0123456789-ABCDEF0123-4F',
    context: { type: 'Nip', value: '5265877635' },
  });

describe('XAdES of the AuthTokenRequest', () => {
  it.each(['rsa', 'ec'] as const)(
    'signs with %s and verifies, naming the certificate and covering the document',
    async (kind) => {
      const { certificatePem, privateKeyPem } = await selfSigned(kind);
      const signed = signXades(request(), certificatePem, privateKeyPem);
      expect(signed).toContain('<xades:SigningCertificate>');
      const verified = verifyXades(signed);
      expect(verified).not.toBeNull();
      expect(verified!.certificate.subject).toContain('VATPL-5265877635');
      expect(verified!.document.localName).toBe('AuthTokenRequest');
      expect(verified!.document.getElementsByTagName('Challenge')[0]!.textContent).toBe(
        '20261127-CR-0123456789-ABCDEF0123-4F',
      );
    },
  );

  it('refuses a changed challenge, a changed signing time, a swapped certificate and a second signature', async () => {
    const { certificatePem, privateKeyPem } = await selfSigned('ec');
    const other = await selfSigned('ec', '1111111111');
    const signed = signXades(request(), certificatePem, privateKeyPem);
    expect(verifyXades(signed.replace('ABCDEF0123', 'ABCDEF0124'))).toBeNull();
    expect(
      verifyXades(signed.replace(/<xades:SigningTime>[^<]+/, '<xades:SigningTime>2020-01-01T00:00:00.000Z')),
    ).toBeNull();
    const otherDer = other.certificatePem.replace(/-----[^-]+-----|\s/g, '');
    expect(verifyXades(signed.replace(/<ds:X509Certificate>[^<]+/, `<ds:X509Certificate>${otherDer}`))).toBeNull();
    const twice = signXades(signed, certificatePem, privateKeyPem);
    expect(verifyXades(twice)).toBeNull();
  });

  it('refuses a document type, a document that is not well-formed, and an unsigned one', async () => {
    const { certificatePem, privateKeyPem } = await selfSigned('rsa');
    const signed = signXades(request(), certificatePem, privateKeyPem);
    expect(
      verifyXades(signed.replace('<AuthTokenRequest', '<!DOCTYPE a [<!ENTITY x "y">]><AuthTokenRequest')),
    ).toBeNull();
    expect(verifyXades(signed.replace('</AuthTokenRequest>', ''))).toBeNull();
    expect(verifyXades(request())).toBeNull();
  });
});

describe('a TEST certificate', () => {
  it('carries the NIP, and a login document signed with its key verifies', async () => {
    const { certificatePem, privateKeyPem } = await createTestCertificate({ nip: '5265877635', name: 'Demo KSeF' });
    const verified = verifyXades(signXades(request(), certificatePem, privateKeyPem));
    expect(verified?.certificate.subject).toContain('VATPL-5265877635');
  });

  it('is valid DER every time: its random serial number is a positive, minimal INTEGER', async () => {
    // A first byte of 0 before one below 0x80 was an invalid INTEGER, about one certificate in 300.
    for (let i = 0; i < 100; i++) {
      const { certificatePem } = await createTestCertificate({ nip: '5265877635', name: 'Demo KSeF' });
      const serial = new NodeX509(certificatePem).serialNumber;
      expect(serial).toMatch(/^[4-7][0-9A-F]{31}$/);
    }
  });

  it('names its subject one attribute per RDN, as KSeF TEST certificates do', async () => {
    const { certificatePem } = await createTestCertificate({ nip: '5265877635', name: 'Demo KSeF' });
    const cert = new x509.X509Certificate(certificatePem);
    // Each RDN a SET of its own: four of them, not one SET of four attributes.
    const rdns = cert.subjectName.toJSON();
    expect(rdns.map((rdn) => Object.keys(rdn))).toEqual([['C'], ['O'], ['2.5.4.97'], ['CN']]);
    expect(cert.issuer).toBe(cert.subject);
    expect(await cert.verify({ signatureOnly: true })).toBe(true);
  });
});
