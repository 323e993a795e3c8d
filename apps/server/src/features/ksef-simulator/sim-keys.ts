/**
 * The simulator's own keys: RSA-2048 pairs with self-signed certificates, as KSeF TEST publishes at
 * `GET /security/public-key-certificates`, and the RSA-OAEP / AES steps that use them. Generated on first start and
 * kept in `ksef_sim_keys` (plain PEM: it is a simulator).
 */
import {
  constants,
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { ksefNumberChecksum } from '@portal/ksef';
import { selfSignedCertificate } from './sim-certificate.ts';

export type SimKeyName = 'KsefTokenEncryption' | 'SymmetricKeyEncryption' | 'UpoSigning';

export type GeneratedKey = {
  privateKeyPem: string;
  certificateDer: Buffer;
  publicKeyId: string;
  validFrom: Date;
  validTo: Date;
};

const sha256b64 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('base64');

/** An RSA-2048 key pair and a self-signed certificate naming the simulator (valid two years from `now`). */
export function generateSimKey(name: SimKeyName, now: Date): GeneratedKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const validFrom = new Date(Math.floor(now.getTime() / 1000) * 1000 - 60_000);
  const validTo = new Date(validFrom.getTime() + 2 * 365 * 24 * 3600 * 1000);
  const certificateDer = selfSignedCertificate({
    privateKey,
    subject: [
      ['C', 'PL'],
      ['O', 'Open EDI Portal - KSeF simulator (not the Ministry of Finance)'],
      ['CN', `KSeF simulator ${name}`],
    ],
    notBefore: validFrom,
    notAfter: validTo,
  });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificateDer,
    publicKeyId: sha256b64(publicKey.export({ type: 'spki', format: 'der' })),
    validFrom,
    validTo,
  };
}

export const privateKeyOf = (pem: string): KeyObject => createPrivateKey(pem);

/** RSA-OAEP with SHA-256 and MGF1-SHA-256 (NOTES §3); throws on a wrong key or padding. */
export function rsaOaepDecrypt(privateKey: KeyObject, data: Buffer): Buffer {
  return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);
}

export { sha256b64 };

/** Reference numbers (NOTES §7): `YYYYMMDD-TT-HHHHHHHHHH-HHHHHHHHHH-CC`. */
export function referenceNumber(type: 'CR' | 'AU' | 'SO' | 'SB' | 'EE' | 'EU' | 'EC' | 'EH', now: Date): string {
  const date = now.toISOString().slice(0, 10).replaceAll('-', '');
  const hex = randomBytes(10).toString('hex').toUpperCase();
  const body = `${date}-${type}-${hex.slice(0, 10)}-${hex.slice(10)}`;
  return `${body}-${ksefNumberChecksum(body)}`;
}
