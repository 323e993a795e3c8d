/**
 * The encryption steps of KSeF 2.0 (NOTES §2 and §3), with node:crypto: AES-256-CBC with PKCS#7 padding and no IV
 * prefix for invoices and exports; RSA-OAEP with SHA-256 and MGF1-SHA-256 for the symmetric key and the KSeF token.
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  publicEncrypt,
  randomBytes,
  type KeyLike,
} from 'node:crypto';

const AES = 'aes-256-cbc';

const checkKeyIv = (key: Uint8Array, iv: Uint8Array): void => {
  if (key.length !== 32) throw new RangeError('AES-256 key: 32 bytes expected');
  if (iv.length !== 16) throw new RangeError('IV: 16 bytes expected');
};

/** A fresh random AES-256 key (32 bytes) and IV (16 bytes), one pair per session or export. */
export function generateSymmetricKey(): { key: Buffer; iv: Buffer } {
  return { key: randomBytes(32), iv: randomBytes(16) };
}

/** AES-256-CBC, PKCS#7 padding; the ciphertext only (KSeF does not want the IV in front). */
export function aesEncrypt(plain: Uint8Array, key: Uint8Array, iv: Uint8Array): Buffer {
  checkKeyIv(key, iv);
  const cipher = createCipheriv(AES, key, iv);
  return Buffer.concat([cipher.update(plain), cipher.final()]);
}

/** The inverse of {@link aesEncrypt}: for export packages and tests. Throws on a wrong key or bad padding. */
export function aesDecrypt(cipherText: Uint8Array, key: Uint8Array, iv: Uint8Array): Buffer {
  checkKeyIv(key, iv);
  const decipher = createDecipheriv(AES, key, iv);
  return Buffer.concat([decipher.update(cipherText), decipher.final()]);
}

/** RSA-OAEP with SHA-256 and MGF1-SHA-256, the padding KSeF expects for both the key and the token. */
export function rsaOaepEncrypt(publicKey: KeyLike, data: Uint8Array): Buffer {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);
}

/** The `encryption` object of `/sessions/online`, `/sessions/batch` and `/invoices/exports` (NOTES §3 step 3). */
export function encryptionInfo(
  publicKey: KeyLike,
  publicKeyId: string,
  key: Uint8Array,
  iv: Uint8Array,
): { encryptedSymmetricKey: string; initializationVector: string; publicKeyId: string } {
  checkKeyIv(key, iv);
  return {
    encryptedSymmetricKey: rsaOaepEncrypt(publicKey, key).toString('base64'),
    initializationVector: Buffer.from(iv).toString('base64'),
    publicKeyId,
  };
}

/** `encryptedToken` of `POST /auth/ksef-token`: Base64 of RSA-OAEP over UTF-8 `"{token}|{timestampMs}"` (NOTES §2). */
export function encryptKsefToken(publicKey: KeyLike, token: string, timestampMs: number): string {
  if (!Number.isSafeInteger(timestampMs)) throw new RangeError('timestampMs: an integer expected');
  return rsaOaepEncrypt(publicKey, Buffer.from(`${token}|${timestampMs}`, 'utf8')).toString('base64');
}

const sha256b64 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('base64');

/** The body of `POST /sessions/online/{ref}/invoices` without `offlineMode`. */
export type EncryptedInvoice = {
  invoiceHash: string;
  invoiceSize: number;
  encryptedInvoiceHash: string;
  encryptedInvoiceSize: number;
  encryptedInvoiceContent: string;
};

/**
 * One invoice for an online session (NOTES §3 step 4): hash and size of the plain bytes, then of the AES-256-CBC
 * ciphertext (no IV prefix), and the ciphertext in Base64. A string is taken as UTF-8 (KSeF wants UTF-8, no BOM).
 */
export function encryptInvoice(plain: Uint8Array | string, key: Uint8Array, iv: Uint8Array): EncryptedInvoice {
  const bytes = typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain;
  const cipherText = aesEncrypt(bytes, key, iv);
  return {
    invoiceHash: sha256b64(bytes),
    invoiceSize: bytes.length,
    encryptedInvoiceHash: sha256b64(cipherText),
    encryptedInvoiceSize: cipherText.length,
    encryptedInvoiceContent: cipherText.toString('base64'),
  };
}
