/**
 * XAdES for KSeF's authentication (NOTES §2): the `AuthTokenRequest` document (schema `auth/schemat_auth_v2-1.xsd`)
 * and its enveloped XAdES-B signature: one reference to the whole document (enveloped-signature transform, exclusive
 * c14n), one to the `SignedProperties` (signing time, the certificate's digest and issuer/serial), both SHA-256,
 * signed with RSA PKCS#1 v1.5 or ECDSA (`R||S`, as XML-DSig wants). The canonicalization is xml-crypto's; the
 * assembly is ours, as xml-crypto cannot reference an element inside the signature it is making.
 */
import { createHash, createPrivateKey, sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { ExclusiveCanonicalization } from 'xml-crypto';

/**
 * The few DOM members used here. xmldom's own typings pull the browser's DOM library into every program that imports
 * this module (the server's Node types then clash with it), so it is loaded untyped and seen through these.
 */
export type XmlNode = {
  nodeType: number;
  localName: string | null;
  namespaceURI: string | null;
  textContent: string | null;
  firstChild: XmlNode | null;
  nextSibling: XmlNode | null;
};
export type XmlElement = {
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
  appendChild(node: XmlNode): XmlNode;
  removeChild(node: XmlNode): XmlNode;
} & XmlNode;
type XmlDocument = {
  documentElement: XmlElement | null;
  importNode(node: XmlNode, deep: boolean): XmlNode;
};
type ErrorHandler = { error?: (m: unknown) => void; fatalError?: (m: unknown) => void };
const xmldom = createRequire(import.meta.url)('@xmldom/xmldom') as {
  DOMParser: new (options?: { errorHandler?: ErrorHandler }) => {
    parseFromString(xml: string, mimeType: string): XmlDocument;
  };
  XMLSerializer: new () => { serializeToString(node: XmlDocument | XmlNode): string };
};
const { DOMParser, XMLSerializer } = xmldom;

export const AUTH_NAMESPACE = 'http://ksef.mf.gov.pl/auth/token/2.0';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const XADES = 'http://uri.etsi.org/01903/v1.3.2#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const ECDSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256';

/** The context a login acts for (NOTES §2: a NIP, an internal id, a NIP-VAT-UE pair or a Peppol id). */
export type ContextIdentifier = { type: 'Nip' | 'InternalId' | 'NipVatUe' | 'PeppolId'; value: string };

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The unsigned `AuthTokenRequest` for a challenge: the context and how the signer is identified (by the
 * certificate's subject, or its fingerprint for a KSeF certificate).
 */
export function buildAuthTokenRequest(options: {
  challenge: string;
  context: ContextIdentifier;
  subjectIdentifierType?: 'certificateSubject' | 'certificateFingerprint';
}): string {
  const { challenge, context } = options;
  return (
    `<?xml version="1.0" encoding="utf-8"?>` +
    `<AuthTokenRequest xmlns="${AUTH_NAMESPACE}">` +
    `<Challenge>${escape(challenge)}</Challenge>` +
    `<ContextIdentifier><${context.type}>${escape(context.value)}</${context.type}></ContextIdentifier>` +
    `<SubjectIdentifierType>${options.subjectIdentifierType ?? 'certificateSubject'}</SubjectIdentifierType>` +
    `</AuthTokenRequest>`
  );
}

const c14n = (node: XmlNode): string => new ExclusiveCanonicalization().process(node as never, {}).toString();
const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('base64');

/** The first element of a local name under `root` (depth first). */
function find(root: XmlElement, localName: string): XmlElement | null {
  if (root.localName === localName) return root;
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) {
      const found = find(n as XmlElement, localName);
      if (found) return found;
    }
  }
  return null;
}

/** `X509Certificate.issuer` (one attribute a line) as an RFC 4514-ish distinguished name. */
const issuerName = (cert: X509Certificate) =>
  cert.issuer
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .reverse()
    .join(', ');

/**
 * Signs an XML document (the `AuthTokenRequest`) with an enveloped XAdES-B signature appended to its root. The key
 * is RSA (≥ 2048 bits) or EC P-256 (KSeF's requirements); `signingTime` defaults to a minute ago, so a clock a little
 * ahead of KSeF's is not refused.
 */
export function signXades(
  xml: string,
  certificatePem: string,
  privateKey: string | KeyObject,
  options: { signingTime?: Date } = {},
): string {
  const cert = new X509Certificate(certificatePem);
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const ec = key.asymmetricKeyType === 'ec';
  if (!ec && key.asymmetricKeyType !== 'rsa') throw new Error('the key must be RSA or EC');
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  if (!root) throw new Error('the document has no root element');

  const signingTime = (options.signingTime ?? new Date(Date.now() - 60_000)).toISOString();
  const serial = BigInt(`0x${cert.serialNumber}`).toString(10);
  const qualifying =
    `<xades:QualifyingProperties xmlns:xades="${XADES}" xmlns:ds="${DS}" Target="#Signature">` +
    `<xades:SignedProperties Id="SignedProperties"><xades:SignedSignatureProperties>` +
    `<xades:SigningTime>${signingTime}</xades:SigningTime>` +
    `<xades:SigningCertificate><xades:Cert><xades:CertDigest>` +
    `<ds:DigestMethod Algorithm="${SHA256}"/><ds:DigestValue>${sha256(cert.raw)}</ds:DigestValue>` +
    `</xades:CertDigest><xades:IssuerSerial><ds:X509IssuerName>${escape(issuerName(cert))}</ds:X509IssuerName>` +
    `<ds:X509SerialNumber>${serial}</ds:X509SerialNumber></xades:IssuerSerial></xades:Cert>` +
    `</xades:SigningCertificate></xades:SignedSignatureProperties></xades:SignedProperties>` +
    `</xades:QualifyingProperties>`;
  const qualifyingDoc = new DOMParser().parseFromString(qualifying, 'text/xml');
  const signedProperties = find(qualifyingDoc.documentElement!, 'SignedProperties')!;

  // The document's digest before the signature is in it is the enveloped transform's result.
  const reference = (uri: string, digest: string, transforms: string[], type?: string) =>
    `<ds:Reference URI="${uri}"${type ? ` Type="${type}"` : ''}><ds:Transforms>` +
    transforms.map((t) => `<ds:Transform Algorithm="${t}"/>`).join('') +
    `</ds:Transforms><ds:DigestMethod Algorithm="${SHA256}"/><ds:DigestValue>${digest}</ds:DigestValue></ds:Reference>`;
  const signedInfo =
    `<ds:SignedInfo xmlns:ds="${DS}"><ds:CanonicalizationMethod Algorithm="${EXC_C14N}"/>` +
    `<ds:SignatureMethod Algorithm="${ec ? ECDSA_SHA256 : RSA_SHA256}"/>` +
    reference('', sha256(c14n(root)), [ENVELOPED, EXC_C14N]) +
    reference(
      '#SignedProperties',
      sha256(c14n(signedProperties)),
      [EXC_C14N],
      'http://uri.etsi.org/01903#SignedProperties',
    ) +
    `</ds:SignedInfo>`;
  const signedInfoNode = new DOMParser().parseFromString(signedInfo, 'text/xml').documentElement!;
  const value = sign('sha256', Buffer.from(c14n(signedInfoNode), 'utf8'), {
    key,
    ...(ec ? { dsaEncoding: 'ieee-p1363' as const } : {}),
  }).toString('base64');
  const signature =
    `<ds:Signature xmlns:ds="${DS}" Id="Signature">${signedInfo}<ds:SignatureValue>${value}</ds:SignatureValue>` +
    `<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert.raw.toString('base64')}</ds:X509Certificate>` +
    `</ds:X509Data></ds:KeyInfo><ds:Object>${qualifying}</ds:Object></ds:Signature>`;
  root.appendChild(doc.importNode(new DOMParser().parseFromString(signature, 'text/xml').documentElement!, true));
  return new XMLSerializer().serializeToString(doc);
}

/** The first element with this `Id` under `root`. */
function byId(root: XmlElement, id: string): XmlElement | null {
  if (root.getAttribute('Id') === id) return root;
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) {
      const found = byId(n as XmlElement, id);
      if (found) return found;
    }
  }
  return null;
}

const childrenNamed = (parent: XmlElement, localName: string): XmlElement[] => {
  const out: XmlElement[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as XmlElement).localName === localName) out.push(n as XmlElement);
  }
  return out;
};

/** A verified enveloped signature: the signer's certificate and the document element it covers. */
export type VerifiedXml = { certificate: X509Certificate; document: XmlElement };

/**
 * Verifies the enveloped XML-DSig/XAdES signature of a document as {@link signXades} makes it, and as KSeF's
 * clients do: exactly one `Signature` child of the root, whose SignedInfo (exclusive c14n, SHA-256, RSA or ECDSA)
 * holds a reference `""` to the whole document (enveloped, so nothing of it is left unsigned) and, optionally, one
 * to the XAdES SignedProperties inside the signature, which must then name this certificate. Returns null when any
 * part does not hold. Who the certificate belongs to is the caller's question.
 */
export function verifyXades(xml: string): VerifiedXml | null {
  // No document type: no entity of any kind is expanded.
  if (/<!DOCTYPE/i.test(xml)) return null;
  try {
    const doc = new DOMParser({
      // A document that is not well-formed is not verified, however much of it could be read.
      errorHandler: {
        error: (m: unknown) => {
          throw new Error(String(m));
        },
        fatalError: (m: unknown) => {
          throw new Error(String(m));
        },
      },
    }).parseFromString(xml, 'text/xml');
    const root = doc.documentElement;
    if (!root) return null;
    const signatures = childrenNamed(root, 'Signature').filter((s) => s.namespaceURI === DS);
    if (signatures.length !== 1) return null;
    const signature = signatures[0]!;
    const [signedInfo] = childrenNamed(signature, 'SignedInfo');
    const [valueNode] = childrenNamed(signature, 'SignatureValue');
    const certText = find(signature, 'X509Certificate')?.textContent;
    if (!signedInfo || !valueNode || !certText) return null;
    const certificate = new X509Certificate(Buffer.from(certText.replace(/\s+/g, ''), 'base64'));
    const method = childrenNamed(signedInfo, 'SignatureMethod')[0]?.getAttribute('Algorithm');
    const canonical = childrenNamed(signedInfo, 'CanonicalizationMethod')[0]?.getAttribute('Algorithm');
    if (canonical !== EXC_C14N || (method !== RSA_SHA256 && method !== ECDSA_SHA256)) return null;

    let wholeDocument = false;
    for (const ref of childrenNamed(signedInfo, 'Reference')) {
      const uri = ref.getAttribute('URI') ?? '';
      const transforms = find(ref, 'Transforms');
      const algorithms = transforms
        ? childrenNamed(transforms, 'Transform').map((t) => t.getAttribute('Algorithm'))
        : [];
      if (find(ref, 'DigestMethod')?.getAttribute('Algorithm') !== SHA256) return null;
      const expected = find(ref, 'DigestValue')?.textContent?.trim();
      let digest: string;
      if (uri === '') {
        if (algorithms.join(' ') !== `${ENVELOPED} ${EXC_C14N}` && algorithms.join(' ') !== ENVELOPED) return null;
        // The enveloped transform: the document without its signature.
        const copy = new DOMParser().parseFromString(new XMLSerializer().serializeToString(doc), 'text/xml');
        const copyRoot = copy.documentElement!;
        for (const s of childrenNamed(copyRoot, 'Signature')) copyRoot.removeChild(s);
        digest = sha256(c14n(copyRoot));
        wholeDocument = true;
      } else if (uri.startsWith('#')) {
        const target = byId(signature, uri.slice(1));
        if (!target || target.localName !== 'SignedProperties') return null;
        digest = sha256(c14n(target));
        const certDigest = find(target, 'CertDigest');
        if (certDigest && find(certDigest, 'DigestValue')?.textContent?.trim() !== sha256(certificate.raw)) return null;
      } else {
        return null;
      }
      if (digest !== expected) return null;
    }
    if (!wholeDocument) return null;
    const value = Buffer.from((valueNode.textContent ?? '').replace(/\s+/g, ''), 'base64');
    const ok = verify(
      'sha256',
      Buffer.from(c14n(signedInfo), 'utf8'),
      { key: certificate.publicKey, ...(method === ECDSA_SHA256 ? { dsaEncoding: 'ieee-p1363' as const } : {}) },
      value,
    );
    return ok ? { certificate, document: root } : null;
  } catch {
    return null;
  }
}
