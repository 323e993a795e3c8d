/**
 * XAdES for the simulator, with xml-crypto (XML-DSig) and @xmldom/xmldom: verifying the signed `AuthTokenRequest`
 * of `POST /auth/xades-signature` (enveloped or enveloping; detached is refused, as KSeF does), and signing UPOs
 * enveloped with the simulator's own key (XAdES-BES: SigningTime and SigningCertificate in SignedProperties).
 *
 * Input is untrusted: the caller bounds its size; a DOCTYPE or entity declaration is refused before parsing, and
 * what is read afterwards is taken from the signed content only, never from the unsigned rest of the document.
 */
import { createHash, createPublicKey, verify, X509Certificate, type KeyLike } from 'node:crypto';
import { createRequire } from 'node:module';
import { SignedXml, type SignatureAlgorithm } from 'xml-crypto';
import { badRequest, KSEF_CODES } from './ksef-errors.ts';

/**
 * The few DOM members used here. xmldom's typings pull the browser's DOM library into the whole server program (where
 * it clashes with Node's types), so it is loaded untyped and seen through these, as `@portal/ksef`'s client does.
 */
type XmlNode = {
  nodeType: number;
  localName: string | null;
  namespaceURI: string | null;
  textContent: string | null;
  childNodes: ArrayLike<XmlNode>;
};
type XmlElement = XmlNode & {
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
  getElementsByTagNameNS(namespace: string, localName: string): ArrayLike<XmlElement>;
};
type XmlDocument = {
  documentElement: XmlElement | null;
  getElementsByTagNameNS(namespace: string, localName: string): ArrayLike<XmlElement>;
};
const { DOMParser } = createRequire(import.meta.url)('@xmldom/xmldom') as {
  DOMParser: new (options: {
    errorHandler: { warning(m: string): void; error(m: string): void; fatalError(m: string): void };
  }) => { parseFromString(xml: string, mimeType: string): XmlDocument };
};
const all = <T>(list: ArrayLike<T>): T[] => Array.from(list);

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const AUTH_NAMESPACES = new Set(['http://ksef.mf.gov.pl/auth/token/2.0', 'http://ksef.mf.gov.pl/auth/token/2.1']);
const CONTEXT_TYPES: Record<string, 'Nip' | 'InternalId' | 'NipVatUe' | 'PeppolId'> = {
  Nip: 'Nip',
  InternalId: 'InternalId',
  NipVatUe: 'NipVatUe',
  PeppolId: 'PeppolId',
};

/**
 * ECDSA for XML-DSig (RFC 4051), which xml-crypto lacks: the signature value is R||S (NOTES §2), so node:crypto
 * verifies it with `dsaEncoding: 'ieee-p1363'`. Verification only.
 */
const ECDSA: Record<string, 'sha256' | 'sha384' | 'sha512'> = {
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384': 'sha384',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512': 'sha512',
};
function addEcdsa(verifier: SignedXml): void {
  for (const [uri, hash] of Object.entries(ECDSA)) {
    const algorithm = class {
      getSignature(): string {
        throw new Error('ECDSA: verification only');
      }
      verifySignature(material: string, key: KeyLike, signatureValue: string): boolean {
        const publicKey = typeof key === 'string' || Buffer.isBuffer(key) ? createPublicKey(key) : key;
        return verify(
          hash,
          Buffer.from(material, 'utf8'),
          { key: publicKey, dsaEncoding: 'ieee-p1363' },
          Buffer.from(signatureValue, 'base64'),
        );
      }
      getAlgorithmName(): string {
        return uri;
      }
    };
    verifier.SignatureAlgorithms[uri] = algorithm as unknown as new () => SignatureAlgorithm;
  }
}

export type VerifiedAuthRequest = {
  challenge: string;
  context: { type: 'Nip' | 'InternalId' | 'NipVatUe' | 'PeppolId'; value: string };
  subjectIdentifierType: 'certificateSubject' | 'certificateFingerprint';
  /** The NIP the certificate carries (`VATPL-…`, `TINPL-…` or a bare serialNumber), if any. */
  certificateNip: string | undefined;
  /** SHA-256 of the certificate, upper-case hex. */
  fingerprint: string;
  certificateValidFrom: Date;
  certificateValidTo: Date;
  /** SHA-256 (Base64) of the document as received, for the UPO. */
  documentHash: string;
};

/** Refuses what no AuthTokenRequest or UPO needs: a DTD (entity expansion) and NUL bytes. */
export function assertPlainXml(xml: string): void {
  if (xml.includes('\u0000') || /<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw badRequest(KSEF_CODES.unreadable, 'Nieprawidłowy dokument XML.', ['DOCTYPE and entities are not allowed.']);
  }
}

function parseXml(xml: string): XmlDocument & { documentElement: XmlElement } {
  assertPlainXml(xml);
  const fail = (message: string): never => {
    throw badRequest(KSEF_CODES.unreadable, 'Nieprawidłowy dokument XML.', [message]);
  };
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: (m: string) => fail(m), fatalError: (m: string) => fail(m) },
  }).parseFromString(xml, 'application/xml');
  if (!doc.documentElement) return fail('no root element');
  return doc as XmlDocument & { documentElement: XmlElement };
}

const childElements = (node: XmlNode): XmlNode[] => all(node.childNodes).filter((n) => n.nodeType === 1);
const childText = (parent: XmlNode, localName: string): string | undefined => {
  const el = childElements(parent).find((c) => c.localName === localName);
  return el?.textContent?.trim() ?? undefined;
};

/** The NIP a self-signed TEST certificate carries in its subject (as KSeF TEST reads it). */
export function nipOfCertificate(subject: string): string | undefined {
  const prefixed = /(?:VATPL|TINPL|NIP)[-:]?(\d{10})\b/i.exec(subject);
  if (prefixed) return prefixed[1];
  const serial = /(?:^|\n|,\s*)serialNumber=(\d{10})(?:$|\n|,)/.exec(subject);
  return serial?.[1];
}

/** Verifies a signed AuthTokenRequest; throws a KsefError (400) when it is not one or its signature fails. */
export function verifyAuthTokenRequest(xml: string): VerifiedAuthRequest {
  const doc = parseXml(xml);
  const signature = all(doc.getElementsByTagNameNS(DSIG, 'Signature'))[0];
  if (!signature) throw badRequest(KSEF_CODES.xadesNoSignature, 'Brak podpisu w dokumencie.');
  const refs = all(signature.getElementsByTagNameNS(DSIG, 'Reference'));
  const uris = refs.map((r) => r.getAttribute('URI') ?? '');
  if (uris.length === 0 || uris.every((u) => u !== '' && !u.startsWith('#'))) {
    throw badRequest(KSEF_CODES.xadesDetached, 'Podpis odłączony (detached) nie jest obsługiwany.');
  }
  const certText = all(signature.getElementsByTagNameNS(DSIG, 'X509Certificate'))[0]?.textContent?.replace(/\s+/g, '');
  if (!certText) throw badRequest(KSEF_CODES.xadesCertificate, 'Brak certyfikatu w podpisie.');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(certText, 'base64'));
  } catch {
    throw badRequest(KSEF_CODES.xadesCertificate, 'Nieprawidłowy certyfikat.');
  }
  const key = certificate.publicKey;
  const details = key.asymmetricKeyDetails;
  const strongEnough =
    key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss'
      ? (details?.modulusLength ?? 0) >= 2048
      : key.asymmetricKeyType === 'ec' && ['prime256v1', 'secp384r1', 'secp521r1'].includes(details?.namedCurve ?? '');
  if (!strongEnough) throw badRequest(KSEF_CODES.xadesCertificate, 'Klucz certyfikatu jest za słaby.');

  const verifier = new SignedXml({ publicCert: certificate.toString(), getCertFromKeyInfo: () => null });
  addEcdsa(verifier);
  let valid: boolean;
  try {
    // xml-crypto's types name the DOM's Node, which this program does not load: xmldom's node is one.
    verifier.loadSignature(signature as never);
    valid = verifier.checkSignature(xml);
  } catch (error) {
    throw badRequest(KSEF_CODES.xadesInvalid, 'Nieprawidłowy podpis.', [(error as Error).message.slice(0, 300)]);
  }
  if (!valid) throw badRequest(KSEF_CODES.xadesInvalid, 'Nieprawidłowy podpis.');

  // Only what the signature covers counts.
  let request: XmlElement | undefined;
  for (const signed of verifier.getSignedReferences()) {
    const signedDoc = parseXml(signed);
    const root = signedDoc.documentElement;
    const candidates = [root, ...all(root.getElementsByTagName('*'))];
    request = candidates.find(
      (el) => el.localName === 'AuthTokenRequest' && AUTH_NAMESPACES.has(el.namespaceURI ?? ''),
    );
    if (request) break;
  }
  if (!request) throw badRequest(KSEF_CODES.xadesInvalid, 'Podpis nie obejmuje AuthTokenRequest.');

  const challenge = childText(request, 'Challenge');
  const contextEl = childElements(request).find((c) => c.localName === 'ContextIdentifier');
  const contextChild = contextEl ? childElements(contextEl)[0] : undefined;
  const contextType = contextChild ? CONTEXT_TYPES[contextChild.localName ?? ''] : undefined;
  const contextValue = contextChild?.textContent?.trim();
  const subjectIdentifierType = childText(request, 'SubjectIdentifierType');
  if (
    !challenge ||
    !contextType ||
    !contextValue ||
    (subjectIdentifierType !== 'certificateSubject' && subjectIdentifierType !== 'certificateFingerprint')
  ) {
    throw badRequest(KSEF_CODES.inputValidation, 'Nieprawidłowy AuthTokenRequest.');
  }
  return {
    challenge,
    context: { type: contextType, value: contextValue },
    subjectIdentifierType,
    certificateNip: nipOfCertificate(certificate.subject),
    fingerprint: certificate.fingerprint256.replaceAll(':', ''),
    certificateValidFrom: new Date(certificate.validFrom),
    certificateValidTo: new Date(certificate.validTo),
    documentHash: createHash('sha256').update(xml, 'utf8').digest('base64'),
  };
}

/**
 * Signs `xml` enveloped (XAdES-BES): the whole document (enveloped-signature transform, exclusive C14N) and the
 * SignedProperties, RSA-SHA256, the certificate in KeyInfo. Deterministic for the same input and signing time.
 */
export function signEnveloped(xml: string, privateKeyPem: string, certificateDer: Buffer, signingTime: Date): string {
  const certificate = new X509Certificate(certificateDer);
  const certB64 = certificateDer.toString('base64');
  const certDigest = createHash('sha256').update(certificateDer).digest('base64');
  const serial = BigInt(`0x${certificate.serialNumber}`).toString(10);
  const issuer = certificate.issuer.split('\n').reverse().join(', ');
  const escape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  const qualifying =
    `<xades:QualifyingProperties xmlns:xades="http://uri.etsi.org/01903/v1.3.2#" Target="#Signature-KSeF-simulator">` +
    `<xades:SignedProperties Id="SignedProperties-KSeF-simulator">` +
    `<xades:SignedSignatureProperties>` +
    `<xades:SigningTime>${signingTime.toISOString()}</xades:SigningTime>` +
    `<xades:SigningCertificate><xades:Cert><xades:CertDigest>` +
    `<ds:DigestMethod xmlns:ds="${DSIG}" Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>` +
    `<ds:DigestValue xmlns:ds="${DSIG}">${certDigest}</ds:DigestValue></xades:CertDigest>` +
    `<xades:IssuerSerial><ds:X509IssuerName xmlns:ds="${DSIG}">${escape(issuer)}</ds:X509IssuerName>` +
    `<ds:X509SerialNumber xmlns:ds="${DSIG}">${serial}</ds:X509SerialNumber></xades:IssuerSerial>` +
    `</xades:Cert></xades:SigningCertificate>` +
    `</xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties>`;
  const signer = new SignedXml({
    privateKey: privateKeyPem,
    publicCert: `-----BEGIN CERTIFICATE-----\n${certB64}\n-----END CERTIFICATE-----\n`,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    getKeyInfoContent: ({ prefix } = {}) => {
      const p = prefix ? `${prefix}:` : '';
      return `<${p}X509Data><${p}X509Certificate>${certB64}</${p}X509Certificate></${p}X509Data>`;
    },
    objects: [{ content: qualifying }],
  });
  signer.addReference({
    xpath: "/*[local-name(.)='Potwierdzenie' or true()][not(parent::*)]",
    isEmptyUri: true,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.addReference({
    xpath: "//*[local-name(.)='SignedProperties']",
    type: 'http://uri.etsi.org/01903#SignedProperties',
    transforms: ['http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    attrs: { Id: 'Signature-KSeF-simulator' },
    location: { reference: '/*', action: 'append' },
  });
  return signer.getSignedXml();
}
