/**
 * The simulator's keys in use: the three key pairs and the HMAC secret, generated on first use and kept in
 * `ksef_sim_keys`; the certificates it publishes, the unwrapping of a session's symmetric key, and the pre-signed URLs
 * signed with the secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, forbidden, KSEF_CODES, KsefError } from './ksef-errors.ts';
import type { KsefSimulatorRepository, SimKeyRow } from './ksef-simulator.repository.ts';
import { generateSimKey, privateKeyOf, rsaOaepDecrypt, sha256b64, type SimKeyName } from './sim-keys.ts';
import { addMs, base64, iso, type EncryptionInfo, type Log } from './sim-shared.ts';

const PRESIGNED_SECONDS = 3600;

type Keys = Record<SimKeyName, SimKeyRow> & { secret: Buffer };

export function createSimKeyStore(deps: {
  repo: KsefSimulatorRepository;
  clock: Clock;
  log: Log;
  /** Absolute base of the simulator's API, for pre-signed URLs. */
  baseUrl: string;
}) {
  const { repo, clock, log } = deps;

  let keysPromise: Promise<Keys> | undefined;
  /** The key pairs, generated on first use and kept (a second process reads the first one's). */
  const keys = (): Promise<Keys> =>
    (keysPromise ??= (async () => {
      const names: SimKeyName[] = ['KsefTokenEncryption', 'SymmetricKeyEncryption', 'UpoSigning'];
      let rows = await repo.listKeys();
      const now = clock.now();
      for (const name of names) {
        if (rows.some((r) => r.name === name)) continue;
        const key = generateSimKey(name, now);
        await repo.insertKey({ name, ...key });
        log.info({ key: name, publicKeyId: key.publicKeyId }, 'KSeF simulator: generated its key pair');
      }
      if (!rows.some((r) => r.name === 'secret')) {
        await repo.insertKey({
          name: 'secret',
          privateKeyPem: randomBytes(32).toString('base64'),
          validFrom: now,
          validTo: addMs(now, 100 * 365 * 24 * 3600 * 1000),
        });
      }
      rows = await repo.listKeys();
      const byName = (name: string) => {
        const row = rows.find((r) => r.name === name);
        if (!row) throw new Error(`KSeF simulator: key ${name} missing`);
        // PGlite answers bytea as a Uint8Array, node-postgres as a Buffer.
        return { ...row, certificateDer: row.certificateDer ? Buffer.from(row.certificateDer) : null };
      };
      return {
        KsefTokenEncryption: byName('KsefTokenEncryption'),
        SymmetricKeyEncryption: byName('SymmetricKeyEncryption'),
        UpoSigning: byName('UpoSigning'),
        secret: Buffer.from(byName('secret').privateKeyPem, 'base64'),
      };
    })().catch((error: unknown) => {
      keysPromise = undefined;
      throw error;
    }));

  // ---------- pre-signed URLs (no token; KSeF's are Azure blob URLs) ----------
  async function presign(kind: string, a: string, b: string, now: Date) {
    const expires = Math.floor(now.getTime() / 1000) + PRESIGNED_SECONDS;
    const sig = createHmac('sha256', (await keys()).secret)
      .update(`${kind}|${a}|${b}|${expires}`)
      .digest('base64url');
    const url = `${deps.baseUrl}/presigned/${kind}/${encodeURIComponent(a)}/${encodeURIComponent(b)}?se=${expires}&sig=${sig}`;
    return { url, expirationDate: iso(new Date(expires * 1000)) };
  }
  async function checkPresigned(kind: string, a: string, b: string, se: string, sig: string) {
    const expected = createHmac('sha256', (await keys()).secret)
      .update(`${kind}|${a}|${b}|${se}`)
      .digest();
    const given = Buffer.from(sig, 'base64url');
    const ok = given.length === expected.length && timingSafeEqual(given, expected);
    if (!ok || !(Number(se) * 1000 > clock.now().getTime())) {
      throw forbidden('Adres wygasł lub jest nieprawidłowy.', 'invalid-signature');
    }
  }

  /** A session's symmetric key (undefined when it cannot be unwrapped: the session is then 415) and its IV. */
  async function unwrapKey(encryption: EncryptionInfo) {
    const key = (await keys()).SymmetricKeyEncryption;
    if (encryption.publicKeyId && encryption.publicKeyId !== key.publicKeyId) {
      throw badRequest(KSEF_CODES.unknownPublicKey, 'Nieznany lub wycofany klucz publiczny.', [
        `publicKeyId: ${encryption.publicKeyId}`,
      ]);
    }
    const iv = base64(encryption.initializationVector, 'initializationVector');
    if (iv.length !== 16) throw badRequest(KSEF_CODES.inputValidation, 'Wektor inicjujący musi mieć 16 bajtów.');
    try {
      const symmetric = rsaOaepDecrypt(
        privateKeyOf(key.privateKeyPem),
        base64(encryption.encryptedSymmetricKey, 'encryptedSymmetricKey'),
      );
      return { key: symmetric.length === 32 ? symmetric : undefined, iv };
    } catch (error) {
      if (error instanceof KsefError) throw error;
      return { key: undefined, iv };
    }
  }

  /** `GET /security/public-key-certificates`: the two encryption keys' certificates. */
  async function publicKeyCertificates() {
    const k = await keys();
    return (['KsefTokenEncryption', 'SymmetricKeyEncryption'] as const).map((name) => ({
      certificate: (k[name].certificateDer ?? Buffer.alloc(0)).toString('base64'),
      certificateId: sha256b64(k[name].certificateDer ?? Buffer.alloc(0)),
      publicKeyId: k[name].publicKeyId ?? '',
      validFrom: iso(k[name].validFrom),
      validTo: iso(k[name].validTo),
      usage: [name],
    }));
  }

  return { keys, presign, checkPresigned, unwrapKey, publicKeyCertificates };
}

export type SimKeyStore = ReturnType<typeof createSimKeyStore>;
