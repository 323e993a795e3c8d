/**
 * Reading a company's KSeF certificate (PKCS#12, or PEM with its key), on the CPU pool: a key file's iteration count
 * is the uploader's choice, so its decryption runs off the event loop under the pool's time limit. A user's mistake
 * is returned as a code, not thrown.
 */
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { unzipSync } from 'fflate';
import forge from 'node-forge';
import type { CanonicalDocument } from '@portal/documents';
import {
  buildFa3,
  canonicalToKsefInvoice,
  fa3ToCanonical,
  Fa3ParseError,
  MAX_FA3_BYTES,
  parseFa3,
  validateFa3,
} from '@portal/ksef';

export type ReadCertificateTask = { data: Uint8Array; password: string };

export type ReadCertificateResult =
  | {
      ok: true;
      certificatePem: string;
      privateKeyPem: string;
      subject: string;
      validFrom: string;
      validTo: string;
      fingerprint: string;
    }
  | { ok: false; code: 'unreadable' | 'wrongPassword' | 'noKey' | 'noCertificate' | 'keyMismatch' | 'weakKey' };

const PEM = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** The certificate and key of a PKCS#12 file: the first certificate whose public key is the key's. */
function fromPkcs12(data: Uint8Array, password: string): { certs: string[]; key: string | null } | 'wrongPassword' {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(data).toString('binary')));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    return /password|MAC|Invalid/i.test(String(error)) ? 'wrongPassword' : { certs: [], key: null };
  }
  const bags = (type: string): forge.pkcs12.Bag[] => p12.getBags({ bagType: type })[type] ?? [];
  const { certBag, pkcs8ShroudedKeyBag, keyBag } = forge.pki.oids as Record<string, string>;
  const certs = bags(certBag!).flatMap((b) => (b.cert ? [forge.pki.certificateToPem(b.cert)] : []));
  const keyBags = [...bags(pkcs8ShroudedKeyBag!), ...bags(keyBag!)];
  const bag = keyBags.find((b) => b.key || b.asn1);
  let key: string | null = null;
  if (bag?.key) key = forge.pki.privateKeyToPem(bag.key);
  else if (bag?.asn1) {
    // An EC key forge cannot model: its PKCS#8 structure, for node:crypto to read.
    key = forge.pki.privateKeyInfoToPem(bag.asn1);
  }
  return { certs, key };
}

export async function readCertificateTask(input: ReadCertificateTask): Promise<ReadCertificateResult> {
  const text = Buffer.from(input.data).toString('latin1');
  let certs: string[] = [];
  let keyPem: string | null = null;
  if (text.includes('-----BEGIN')) {
    for (const [block, label] of text.matchAll(PEM)) {
      if (label === 'CERTIFICATE') certs.push(block);
      else if (label!.endsWith('PRIVATE KEY')) keyPem ??= block;
    }
  } else {
    const read = fromPkcs12(input.data, input.password);
    if (read === 'wrongPassword') return { ok: false, code: 'wrongPassword' };
    certs = read.certs;
    keyPem = read.key;
  }
  if (certs.length === 0) return { ok: false, code: keyPem ? 'noCertificate' : 'unreadable' };
  if (!keyPem) return { ok: false, code: 'noKey' };
  let key;
  try {
    key = createPrivateKey({ key: keyPem, format: 'pem', ...(input.password ? { passphrase: input.password } : {}) });
  } catch (error) {
    return { ok: false, code: /bad decrypt|passphrase/i.test(String(error)) ? 'wrongPassword' : 'unreadable' };
  }
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const cert = certs
    .map((pem) => {
      try {
        return new X509Certificate(pem);
      } catch {
        return null;
      }
    })
    .find((c) => c?.publicKey.export({ type: 'spki', format: 'der' }).equals(spki));
  if (!cert) return { ok: false, code: 'keyMismatch' };
  // KSeF's requirements (NOTES §2): RSA of at least 2048 bits, or ECDSA of at least 256.
  const details = key.asymmetricKeyDetails ?? {};
  const strong =
    (key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048) ||
    (key.asymmetricKeyType === 'ec' && ['prime256v1', 'secp384r1', 'secp521r1'].includes(details.namedCurve ?? ''));
  if (!strong) return { ok: false, code: 'weakKey' };
  return {
    ok: true,
    certificatePem: cert.toString(),
    privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    subject: cert.subject.split('\n').join(', '),
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: new Date(cert.validTo).toISOString(),
    fingerprint: cert.fingerprint256,
  };
}

export type BuildInvoiceTask = {
  body: CanonicalDocument;
  sellerNip: string;
  createdAt: string;
  /** A correction's: the corrected invoice's KSeF number (NrKSeF = 1); absent, it was issued outside KSeF (NrKSeFN). */
  correctedKsefNumber?: string;
};
export type BuildInvoiceResult = { ok: true; xml: string } | { ok: false; reasons: string[] };

/**
 * An outbox invoice as FA(3) (issue 13, part 1), checked against the official XSD before it leaves: on the CPU pool,
 * as every parse and validation is. A body FA(3) cannot hold (no seller NIP, no address, an unknown rate) or output
 * the schema refuses is a reason, not a throw; nothing is sent then.
 */
export async function buildInvoiceTask(input: BuildInvoiceTask): Promise<BuildInvoiceResult> {
  let xml: string;
  try {
    const invoice = canonicalToKsefInvoice(input.body, {
      createdAt: input.createdAt,
      systemInfo: 'Open EDI Portal',
      ...(input.correctedKsefNumber ? { correctedKsefNumber: input.correctedKsefNumber } : {}),
    });
    if (invoice.seller.nip !== input.sellerNip) {
      return {
        ok: false,
        reasons: [`The seller's NIP ${invoice.seller.nip} is not the company's KSeF NIP ${input.sellerNip}`],
      };
    }
    xml = buildFa3(invoice);
  } catch (error) {
    return { ok: false, reasons: [error instanceof Error ? error.message : String(error)] };
  }
  const checked = await validateFa3(xml);
  if (!checked.valid)
    return { ok: false, reasons: checked.errors.map((e) => `${e.line ? `${e.line}: ` : ''}${e.message}`) };
  return { ok: true, xml };
}

export type ReadExportTask = { zip: Uint8Array };

/** One invoice of an export package: read (with what the inbox lists of it), or why it could not be. */
export type ReceivedInvoice = {
  ksefNumber: string;
  xml: Uint8Array;
  /** KSeF's metadata of it (`_metadata.json`), used when the XML cannot be read. */
  meta: { invoiceNumber: string | null; issueDate: string | null; sellerNip: string | null; sellerName: string | null };
} & (
  | {
      ok: true;
      body: CanonicalDocument;
      number: string;
      issueDate: string;
      sellerNip: string;
      sellerName: string;
      sellerGln: string | null;
      buyerNip: string | null;
    }
  | { ok: false; code: string; message: string }
);

export type ReadExportResult = { ok: true; invoices: ReceivedInvoice[] } | { ok: false; reason: string };

type ExportMetadata = {
  ksefNumber?: string;
  invoiceNumber?: string;
  issueDate?: string;
  seller?: { nip?: string; name?: string };
};

/**
 * A decrypted export package (NOTES §9: the invoices' XML files and `_metadata.json`) read into invoices on the CPU
 * pool: each FA(3) parsed and mapped to the canonical body the document view shows. A file the parser refuses is
 * kept with the reason, not thrown, so one bad invoice does not hold back the package.
 */
export function readExportTask(input: ReadExportTask): Promise<ReadExportResult> {
  let files: Record<string, Uint8Array>;
  try {
    // Files larger than FA(3) allows are left in the archive: a package is never inflated beyond what it may hold.
    files = unzipSync(input.zip, { filter: (f) => f.originalSize <= MAX_FA3_BYTES * 2 });
  } catch (error) {
    return Promise.resolve({ ok: false, reason: error instanceof Error ? error.message : String(error) });
  }
  const metadata = new Map<string, ExportMetadata>();
  const metaFile = files['_metadata.json'];
  if (metaFile) {
    try {
      const parsed = JSON.parse(Buffer.from(metaFile).toString('utf8')) as { invoices?: ExportMetadata[] };
      for (const m of parsed.invoices ?? []) if (m.ksefNumber) metadata.set(m.ksefNumber, m);
    } catch {
      // Without metadata the file names still give the KSeF numbers.
    }
  }
  const invoices: ReceivedInvoice[] = [];
  for (const [name, xml] of Object.entries(files)) {
    if (!name.toLowerCase().endsWith('.xml')) continue;
    const ksefNumber = name.replace(/^.*\//, '').replace(/\.xml$/i, '');
    const m = metadata.get(ksefNumber) ?? {};
    const meta = {
      invoiceNumber: m.invoiceNumber || null,
      issueDate: m.issueDate || null,
      sellerNip: m.seller?.nip || null,
      sellerName: m.seller?.name || null,
    };
    try {
      const invoice = parseFa3(xml);
      invoices.push({
        ksefNumber,
        xml,
        meta,
        ok: true,
        body: fa3ToCanonical(invoice),
        number: invoice.number,
        issueDate: invoice.issueDate,
        sellerNip: invoice.seller.nip,
        sellerName: invoice.seller.name,
        sellerGln: invoice.seller.address.gln ?? null,
        buyerNip: invoice.buyer.id.type === 'nip' ? invoice.buyer.id.nip : null,
      });
    } catch (error) {
      invoices.push({
        ksefNumber,
        xml,
        meta,
        ok: false,
        code: error instanceof Fa3ParseError ? error.code : 'unreadable',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return Promise.resolve({ ok: true, invoices });
}
