/** The encryption steps against known vectors (NIST SP 800-38A) and round trips with a generated RSA key. */
import { constants, createHash, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  aesDecrypt,
  aesEncrypt,
  encryptInvoice,
  encryptionInfo,
  encryptKsefToken,
  generateSymmetricKey,
  rsaOaepEncrypt,
} from '../src/crypto.ts';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s/g, ''), 'hex');

// NIST SP 800-38A, F.2.5 CBC-AES256.Encrypt.
const NIST = {
  key: hex('603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4'),
  iv: hex('000102030405060708090a0b0c0d0e0f'),
  plain: hex(`6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
              30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710`),
  cipher: hex(`f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d
               39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b`),
};

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const oaepDecrypt = (data: Buffer): Buffer =>
  privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);

describe('AES-256-CBC', () => {
  it('matches the NIST vector, with one whole PKCS#7 padding block after it and no IV in front', () => {
    const out = aesEncrypt(NIST.plain, NIST.key, NIST.iv);
    expect(out).toHaveLength(80);
    expect(out.subarray(0, 64).equals(NIST.cipher)).toBe(true);
    expect(aesDecrypt(out, NIST.key, NIST.iv).equals(NIST.plain)).toBe(true);
  });

  it('pads to the next block and refuses wrong key and IV lengths', () => {
    const { key, iv } = generateSymmetricKey();
    expect(key).toHaveLength(32);
    expect(iv).toHaveLength(16);
    expect(aesEncrypt(Buffer.from('x'.repeat(17)), key, iv)).toHaveLength(32);
    expect(aesEncrypt(Buffer.alloc(0), key, iv)).toHaveLength(16);
    expect(() => aesEncrypt(Buffer.from('x'), key.subarray(0, 16), iv)).toThrow(RangeError);
    expect(() => aesEncrypt(Buffer.from('x'), key, iv.subarray(0, 8))).toThrow(RangeError);
  });
});

describe('RSA-OAEP SHA-256', () => {
  it('wraps the symmetric key so that OAEP SHA-256/MGF1-SHA-256 unwraps it', () => {
    const { key, iv } = generateSymmetricKey();
    const info = encryptionInfo(publicKey, 'key-id', key, iv);
    expect(info.publicKeyId).toBe('key-id');
    expect(Buffer.from(info.initializationVector, 'base64').equals(iv)).toBe(true);
    const wrapped = Buffer.from(info.encryptedSymmetricKey, 'base64');
    expect(wrapped).toHaveLength(256);
    expect(oaepDecrypt(wrapped).equals(key)).toBe(true);
    // OAEP with SHA-1 (Node's default) must not unwrap it: the hash is really SHA-256.
    expect(() => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, wrapped)).toThrow();
  });

  it('encrypts the KSeF token as "{token}|{timestampMs}"', () => {
    const encrypted = encryptKsefToken(publicKey, '20251010-EC-ABCDEF|nip-1234|secret', 1760000000123);
    expect(oaepDecrypt(Buffer.from(encrypted, 'base64')).toString('utf8')).toBe(
      '20251010-EC-ABCDEF|nip-1234|secret|1760000000123',
    );
    expect(() => encryptKsefToken(publicKey, 't', 1.5)).toThrow(RangeError);
  });

  it('is randomised (two encryptions differ)', () => {
    const data = Buffer.from('same');
    expect(rsaOaepEncrypt(publicKey, data).equals(rsaOaepEncrypt(publicKey, data))).toBe(false);
  });
});

describe('encryptInvoice', () => {
  it('gives the hashes and sizes of the plain and the encrypted bytes', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><Faktura>Zażółć</Faktura>';
    const plain = Buffer.from(xml, 'utf8');
    const out = encryptInvoice(xml, NIST.key, NIST.iv);
    const cipher = Buffer.from(out.encryptedInvoiceContent, 'base64');
    expect(out.invoiceSize).toBe(plain.length);
    expect(out.invoiceHash).toBe(createHash('sha256').update(plain).digest('base64'));
    expect(out.encryptedInvoiceSize).toBe(cipher.length);
    expect(out.encryptedInvoiceSize).toBe((Math.floor(plain.length / 16) + 1) * 16);
    expect(out.encryptedInvoiceHash).toBe(createHash('sha256').update(cipher).digest('base64'));
    expect(aesDecrypt(cipher, NIST.key, NIST.iv).equals(plain)).toBe(true);
    expect(encryptInvoice(plain, NIST.key, NIST.iv)).toEqual(out);
  });
});
