import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Secrets a company gives the portal to act for it (a KSeF token, a certificate's private key) are stored encrypted
 * with a key from the configuration (decision 0037): AES-256-GCM, a fresh 96-bit nonce each time, the tag checked on
 * opening, and a purpose bound in as associated data, so a sealed token cannot be opened as a key elsewhere.
 */
export type SecretBox = {
  seal(plain: string | Uint8Array, purpose: string): string;
  open(sealed: string, purpose: string): Buffer;
};

const VERSION = 'v1';

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  return {
    seal(plain, purpose) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose, 'utf8'));
      const body = Buffer.concat([
        cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain),
        cipher.final(),
      ]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed, purpose) {
      const [version, data] = sealed.split(':', 2);
      if (version !== VERSION || !data) throw new Error('not a sealed secret of this version');
      const bytes = Buffer.from(data, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
    },
  };
}

/**
 * The key: `SECRETS_KEY` (32 bytes in base64) when configured, as production should; otherwise one generated on
 * first start into `DATA_DIR/secrets.key` (readable by the process's user only), so a demo or a development machine
 * works without setup and keeps its secrets across restarts. `warn` says which, once.
 */
export function loadSecretsKey(configured: string | undefined, file: string, warn: (message: string) => void): Buffer {
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes in base64');
    return key;
  }
  const read = () => {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key in base64`);
    return key;
  };
  if (existsSync(file)) return read();
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process (the job worker) wrote it first: its key is the key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw error;
  }
  chmodSync(file, 0o600);
  warn(`SECRETS_KEY is not set: a key was generated in ${file}; set SECRETS_KEY in production`);
  return key;
}
