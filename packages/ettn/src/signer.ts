/**
 * Signatures of e-TTN transactions.
 *
 * `Signer` is where a qualified Ukrainian signer (DSTU 4145 keys of an accredited provider, КЕП) plugs in. The
 * portal's default is `DemoSigner`: CMS SignedData with CAdES-BES signed attributes (content type, message digest,
 * signing time, ESS signing-certificate-v2), ECDSA P-256 with SHA-256, over a per-user self-signed demo certificate.
 * Its signatures are not qualified and the registry of a real deployment would refuse them.
 *
 * Built on pkijs and asn1js with the platform's WebCrypto (node:crypto's webcrypto, or a browser's) as engine.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { checkChain } from './lifecycle.ts';
import { contentElement, type EttnDocument, type PartySignature } from './model.ts';
import { serializeXml } from './xml.ts';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  serialNumber: '2.5.4.5',
  countryName: '2.5.4.6',
  title: '2.5.4.12',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
} as const;

const webcrypto = globalThis.crypto;
/** WebCrypto's key type, named without the DOM library. */
export type CryptoKey = Awaited<ReturnType<typeof webcrypto.subtle.importKey>>;
type CryptoKeyPair = { publicKey: CryptoKey; privateKey: CryptoKey };
const engine = new pkijs.CryptoEngine({ name: 'webcrypto', crypto: webcrypto });
const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;

export type SignatureMode = 'detached' | 'enveloping';

export type SignRequest = {
  /** The party role the signer signs as (CZ, CA, DR, CN, …): carried beside the signature in UaSignatureStorage. */
  role: string;
  /** Detached (the transaction's bytes travel apart, as in the v3 format) or enveloping (they are inside). */
  mode?: SignatureMode;
  signingTime?: Date;
};

export type SignatureCheck = {
  ok: boolean;
  /** The e-TTN error code when not ok: 30, document signature not verified. */
  code?: 30;
  reason?: string;
  signerName?: string;
  signerSerialNumber?: string;
  signingTime?: Date;
  /** The signer certificate (DER). */
  certificate?: Uint8Array;
};

export type VerifyOptions = {
  /** When given, the signer certificate must be one of these (DER). */
  trustedCertificates?: readonly Uint8Array[];
  /** Checked against the certificate's validity; now by default. */
  at?: Date;
};

/** The contract of every signer: sign a transaction's bytes as CMS for a party role, verify a signature or chain. */
export type Signer = {
  /** Shown with signatures: `demo` for DemoSigner. */
  readonly kind: string;
  /** A DER-encoded CMS ContentInfo (SignedData). */
  sign(content: Uint8Array, request: SignRequest): Promise<Uint8Array>;
  /** Verifies a CMS signature; `content` is required for a detached one and compared for an enveloping one. */
  verify(signature: Uint8Array, content: Uint8Array | undefined, options?: VerifyOptions): Promise<SignatureCheck>;
};

// --- demo certificates --------------------------------------------------------------------------------------------

export type DemoIdentity = {
  /** The signer's full name. */
  name: string;
  /** RNOKPP of the signer (the certificate's serialNumber, as Ukrainian qualified certificates carry it). */
  rnokpp?: string;
  organization?: string;
  position?: string;
};

export type DemoCredential = {
  identity: DemoIdentity;
  certificate: Uint8Array;
  privateKey: CryptoKey;
};

const printable = (value: string) => new asn1js.Utf8String({ value });
const rdn = (type: string, value: string) => new pkijs.AttributeTypeAndValue({ type, value: printable(value) });

const randomSerial = (): Uint8Array => {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // positive INTEGER
  return bytes;
};

/**
 * A self-signed ECDSA P-256 certificate for one user, marked as a demo in its subject (O=…, CN=… (DEMO)). The key
 * is extractable so the server can keep it with the user (PKCS#8, `exportDemoCredential`).
 */
export const createDemoCredential = async (
  identity: DemoIdentity,
  options: { notBefore?: Date; days?: number } = {},
): Promise<DemoCredential> => {
  const keys = (await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ valueHex: randomSerial() });
  const subject = [
    rdn(OID.countryName, 'UA'),
    rdn(OID.organizationName, identity.organization ?? 'e-TTN demo'),
    rdn(OID.commonName, `${identity.name} (DEMO)`),
    ...(identity.position === undefined ? [] : [rdn(OID.title, identity.position)]),
    ...(identity.rnokpp === undefined ? [] : [rdn(OID.serialNumber, identity.rnokpp)]),
  ];
  cert.subject.typesAndValues.push(...subject);
  cert.issuer.typesAndValues.push(...subject);
  const notBefore = options.notBefore ?? new Date();
  cert.notBefore.value = notBefore;
  cert.notAfter.value = new Date(notBefore.getTime() + (options.days ?? 365) * 86_400_000);
  cert.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.keyUsage,
      critical: true,
      // digitalSignature (bit 0) and nonRepudiation (bit 1): 0b11000000, 6 unused bits.
      extnValue: new asn1js.BitString({ valueHex: new Uint8Array([0xc0]), unusedBits: 6 }).toBER(false),
    }),
  ];
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey, engine);
  await cert.sign(keys.privateKey, 'SHA-256', engine);
  return { identity, certificate: new Uint8Array(cert.toSchema(true).toBER(false)), privateKey: keys.privateKey };
};

/** A credential as stored with the user: the certificate and PKCS#8 private key, base64. */
export type StoredDemoCredential = { identity: DemoIdentity; certificate: string; privateKey: string };

const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};
const fromBase64 = (text: string): Uint8Array =>
  Uint8Array.from(atob(text.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
export { fromBase64, toBase64 };

export const exportDemoCredential = async (credential: DemoCredential): Promise<StoredDemoCredential> => ({
  identity: credential.identity,
  certificate: toBase64(credential.certificate),
  privateKey: toBase64(new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', credential.privateKey))),
});

export const importDemoCredential = async (stored: StoredDemoCredential): Promise<DemoCredential> => ({
  identity: stored.identity,
  certificate: fromBase64(stored.certificate),
  privateKey: await webcrypto.subtle.importKey('pkcs8', fromBase64(stored.privateKey), EC_KEY, false, ['sign']),
});

// --- CMS ----------------------------------------------------------------------------------------------------------

const sha256 = async (data: Uint8Array): Promise<ArrayBuffer> => webcrypto.subtle.digest('SHA-256', data);

const subjectValue = (cert: pkijs.Certificate, type: string): string | undefined => {
  const found = cert.subject.typesAndValues.find((tv) => tv.type === type);
  return found === undefined ? undefined : String((found.value as asn1js.Utf8String).valueBlock.value);
};

/** ESS SigningCertificateV2 (RFC 5035) naming the signer certificate by its SHA-256 hash: the CAdES-BES binding. */
const signingCertificateV2 = (certHash: ArrayBuffer): asn1js.Sequence =>
  new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash })] })],
      }),
    ],
  });

const attribute = (type: string, value: asn1js.AsnType) => new pkijs.Attribute({ type, values: [value] });

/** The demo signer: CAdES-BES over ECDSA P-256, one credential (one user) per instance. */
export class DemoSigner implements Signer {
  readonly kind = 'demo';

  constructor(private readonly credential?: DemoCredential) {}

  async sign(content: Uint8Array, request: SignRequest): Promise<Uint8Array> {
    if (this.credential === undefined) throw new Error('DemoSigner: no credential to sign with');
    const certificate = pkijs.Certificate.fromBER(this.credential.certificate);
    const detached = (request.mode ?? 'detached') === 'detached';
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({
        eContentType: OID.data,
        ...(detached ? {} : { eContent: new asn1js.OctetString({ valueHex: content }) }),
      }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
              attribute(OID.signingTime, new asn1js.UTCTime({ valueDate: request.signingTime ?? new Date() })),
              attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: await sha256(content) })),
              attribute(OID.signingCertificateV2, signingCertificateV2(await sha256(this.credential.certificate))),
            ],
          }),
        }),
      ],
      certificates: [certificate],
    });
    await signedData.sign(this.credential.privateKey, 0, 'SHA-256', undefined, engine);
    const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
    return new Uint8Array(contentInfo.toSchema().toBER(false));
  }

  async verify(
    signature: Uint8Array,
    content: Uint8Array | undefined,
    options: VerifyOptions = {},
  ): Promise<SignatureCheck> {
    const fail = (reason: string, extra: Partial<SignatureCheck> = {}): SignatureCheck => ({
      ok: false,
      code: 30,
      reason,
      ...extra,
    });
    let signedData: pkijs.SignedData;
    try {
      const info = pkijs.ContentInfo.fromBER(signature);
      if (info.contentType !== OID.signedData) return fail('not a CMS SignedData');
      signedData = new pkijs.SignedData({ schema: info.content });
    } catch (error) {
      return fail(`not a CMS signature: ${(error as Error).message}`);
    }
    const signer = signedData.signerInfos[0];
    const certificate = signedData.certificates?.find((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
    if (signer === undefined || certificate === undefined) return fail('no signer or no certificate');
    const certificateDer = new Uint8Array(certificate.toSchema(true).toBER(false));
    const about: Partial<SignatureCheck> = {
      signerName: subjectValue(certificate, OID.commonName),
      signerSerialNumber: subjectValue(certificate, OID.serialNumber),
      certificate: certificateDer,
    };
    const time = signer.signedAttrs?.attributes.find((a) => a.type === OID.signingTime)?.values[0];
    if (time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime) about.signingTime = time.toDate();

    const embedded = signedData.encapContentInfo.eContent?.getValue();
    if (embedded === undefined && content === undefined) return fail('detached signature without its content', about);
    if (embedded !== undefined && content !== undefined && !equalBytes(new Uint8Array(embedded), content)) {
      return fail('the enveloped content is not the document', about);
    }
    const trusted = options.trustedCertificates;
    if (trusted !== undefined && !trusted.some((t) => equalBytes(t, certificateDer))) {
      return fail('signer certificate not trusted', about);
    }
    const at = options.at ?? new Date();
    if (at < certificate.notBefore.value || at > certificate.notAfter.value) {
      return fail('signer certificate not valid at the checked time', about);
    }
    if (!(await hasSigningCertificateV2(signer, certificateDer)))
      return fail('no CAdES signing-certificate attribute', about);
    try {
      const result = await signedData.verify(
        {
          signer: 0,
          ...(embedded === undefined && content !== undefined ? { data: toArrayBuffer(content) } : {}),
          checkChain: false,
          extendedMode: true,
        },
        engine,
      );
      if (result.signatureVerified !== true) return fail(result.message || 'signature does not verify', about);
      // Self-signed demo certificate: its own signature must hold (no chain to a provider).
      if (!(await certificate.verify(undefined, engine)))
        return fail('certificate self-signature does not verify', about);
      return { ok: true, ...about };
    } catch (error) {
      const message = (error as { message?: string }).message ?? String(error);
      return fail(message, about);
    }
  }
}

/** The ESS signing-certificate-v2 attribute names the certificate that signed (its SHA-256 hash). */
const hasSigningCertificateV2 = async (signer: pkijs.SignerInfo, certificateDer: Uint8Array): Promise<boolean> => {
  const value = signer.signedAttrs?.attributes.find((a) => a.type === OID.signingCertificateV2)?.values[0];
  if (!(value instanceof asn1js.Sequence)) return false;
  const certs = value.valueBlock.value[0];
  const first = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : undefined;
  if (!(first instanceof asn1js.Sequence)) return false;
  // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash OCTET STRING, issuerSerial OPTIONAL }
  const hash = first.valueBlock.value.find((v): v is asn1js.OctetString => v instanceof asn1js.OctetString);
  if (hash === undefined) return false;
  return equalBytes(new Uint8Array(hash.valueBlock.valueHexView), new Uint8Array(await sha256(certificateDer)));
};

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

// --- documents ----------------------------------------------------------------------------------------------------

/**
 * The bytes a party signs: the document's content element (`eCMR` or `ACT`) as the writer writes it, UTF-8, with no
 * declaration. The same tree always gives the same bytes, so a signature made on a written document verifies on the
 * same document read back.
 */
export const signedContent = (document: EttnDocument): Uint8Array => {
  const content = contentElement(document.root);
  if (content === undefined) throw new Error('not an e-TTN document');
  return new TextEncoder().encode(serializeXml(content, { declaration: false }));
};

/** Signs a document's content for a role and returns the storage entry to add. */
export const signDocument = async (
  signer: Signer,
  document: EttnDocument,
  request: SignRequest & { name?: string; position?: string; taxId?: string },
): Promise<PartySignature> => {
  const signature = await signer.sign(signedContent(document), request);
  return {
    roleCode: request.role,
    signature: toBase64(signature),
    ...(request.name === undefined ? {} : { name: request.name }),
    ...(request.position === undefined ? {} : { position: request.position }),
    ...(request.taxId === undefined ? {} : { taxId: request.taxId }),
  };
};

export type StorageCheck = SignatureCheck & { index: number; roleCode: string };

/**
 * Verifies every signature of a document's `UaSignatureStorage`. A signature verifies against the document's own
 * content or, for the parties who signed earlier transactions of the chain, against one of `previousContents` (the
 * bytes of those transactions, oldest first). `ok` is true only when there is at least one signature and every one
 * verifies; each failure carries code 30.
 */
export const verifySignatureStorage = async (
  document: EttnDocument,
  signer: Signer,
  options: VerifyOptions & { previousContents?: readonly Uint8Array[] } = {},
): Promise<{ ok: boolean; checks: StorageCheck[] }> => {
  const contents = [signedContent(document), ...(options.previousContents ?? [])];
  const checks: StorageCheck[] = [];
  for (const [index, entry] of document.model.signatures.entries()) {
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(entry.signature);
    } catch {
      checks.push({ index, roleCode: entry.roleCode, ok: false, code: 30, reason: 'not base64' });
      continue;
    }
    let check: SignatureCheck = { ok: false, code: 30, reason: 'no content matched' };
    for (const content of contents) {
      check = await signer.verify(bytes, content, options);
      if (check.ok) break;
    }
    checks.push({ index, roleCode: entry.roleCode, ...check });
  }
  return { ok: checks.length > 0 && checks.every((c) => c.ok), checks };
};

/** The back reference a transaction carries: the note's previous-version section, or an act's 916 reference. */
const backReference = (document: EttnDocument) =>
  document.model.kind === 'ettn'
    ? document.model.consignment.previous
    : document.model.references.find((r) => r.typeCode === '916');

export type ChainCheck = {
  ok: boolean;
  /** 31 for a broken back reference, 30 for a signature that does not verify. */
  code?: 30 | 31;
  reason?: string;
  /** Per transaction, oldest first: the checks of its signature storage. */
  transactions: StorageCheck[][];
};

/**
 * Verifies a transaction chain, oldest first: the back references (0, 1, 2 …, each naming the one before; 31) and
 * then every signature of every transaction, each against its own transaction's bytes or an earlier one's (30).
 */
export const verifyChain = async (
  signer: Signer,
  transactions: readonly EttnDocument[],
  options: VerifyOptions = {},
): Promise<ChainCheck> => {
  const links = transactions.map((t) => {
    const previous = backReference(t);
    return {
      transactionId: t.model.header.transactionId,
      ...(previous?.id === undefined ? {} : { previousId: previous.id }),
    };
  });
  const chain = checkChain(links);
  if (!chain.ok) return { ok: false, code: 31, reason: chain.reason, transactions: [] };
  const checks: StorageCheck[][] = [];
  for (const [i, transaction] of transactions.entries()) {
    const earlier = transactions.slice(0, i).map(signedContent).reverse();
    const result = await verifySignatureStorage(transaction, signer, { ...options, previousContents: earlier });
    checks.push(result.checks);
    if (!result.ok) {
      const failed = result.checks.find((c) => !c.ok);
      return {
        ok: false,
        code: 30,
        reason: `transaction ${i}: ${failed === undefined ? 'no signature' : `${failed.roleCode}: ${failed.reason ?? ''}`}`,
        transactions: checks,
      };
    }
  }
  return { ok: true, transactions: checks };
};
