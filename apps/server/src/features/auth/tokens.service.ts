import { createPrivateKey, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS, type AccessTokenClaims } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { seconds } from '../../lib/clock.ts';
import { createAuthRepository } from './auth.repository.ts';

const ALG = 'EdDSA';
const AUDIENCE = 'open-edi-portal';
/** How many verified tokens a process remembers (about 1 kB each). */
const VERIFIED_TOKENS = 2000;

type KeyLike = Awaited<ReturnType<typeof importJWK>>;
export type AccessClaimsInput = Omit<AccessTokenClaims, 'exp' | 'iat'>;
export type TokenService = Awaited<ReturnType<typeof createTokenService>>;

/**
 * Signs and verifies access tokens with an Ed25519 key. The key comes from JWT_PRIVATE_KEY (PKCS#8 PEM) or from
 * the database, where it is generated on first start, so every process of a scaled deployment shares it.
 */
export async function createTokenService(deps: {
  db: Db;
  clock: Clock;
  issuer: string;
  privateKeyPem?: string | undefined;
  accessTtlSeconds?: number;
}) {
  const repo = createAuthRepository(deps.db);
  let kid: string;
  let privateJwk: JWK;
  let publicJwk: JWK;
  if (deps.privateKeyPem) {
    const key = createPrivateKey(deps.privateKeyPem);
    const jwk = key.export({ format: 'jwk' }) as JWK;
    if (jwk.crv !== 'Ed25519') throw new Error('JWT_PRIVATE_KEY must be an Ed25519 private key (PKCS#8 PEM)');
    privateJwk = jwk;
    publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
    kid = 'configured';
  } else {
    const existing = await repo.findActiveSigningKey();
    if (existing) {
      kid = existing.kid;
      privateJwk = existing.privateJwk as JWK;
      publicJwk = existing.publicJwk as JWK;
    } else {
      const pair = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
      kid = randomUUID();
      privateJwk = await exportJWK(pair.privateKey);
      publicJwk = await exportJWK(pair.publicKey);
      // Two processes starting at once may both generate: the insert that loses is ignored and re-read.
      await repo.insertSigningKey({ kid, algorithm: ALG, privateJwk, publicJwk });
      const row = await repo.findSigningKey(kid);
      if (!row) throw new Error('signing key was not stored');
    }
  }
  const privateKey = (await importJWK(privateJwk, ALG)) as KeyLike;
  const publicKey = (await importJWK(publicJwk, ALG)) as KeyLike;
  const ttl = deps.accessTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  // Tokens already verified, with their claims: the key is fixed for the life of the process, so a token that
  // verified once verifies again until it expires, and Ed25519 verification was a twentieth of the CPU of every
  // authenticated request (decision 0043). Expiry is checked on every hit; the oldest entry goes when it is full.
  const verified = new Map<string, AccessTokenClaims>();

  return {
    accessTtlSeconds: ttl,
    jwks(): { keys: JWK[] } {
      return { keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] };
    },
    async sign(claims: AccessClaimsInput): Promise<string> {
      const now = seconds(deps.clock.now());
      const { sub, ...rest } = claims;
      return new SignJWT({ ...rest })
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(deps.issuer)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ttl)
        .setJti(randomUUID())
        .sign(privateKey);
    },
    /** Returns the claims of a valid token, or undefined for any bad, foreign or expired one. */
    async verify(token: string): Promise<AccessTokenClaims | undefined> {
      const now = deps.clock.now();
      const known = verified.get(token);
      if (known) {
        if (known.exp > seconds(now)) return known;
        verified.delete(token);
        return undefined;
      }
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: deps.issuer,
          audience: AUDIENCE,
          algorithms: [ALG],
          currentDate: now,
        });
        const claims = Object.freeze(payload as unknown as AccessTokenClaims);
        if (verified.size >= VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
        verified.set(token, claims);
        return claims;
      } catch {
        return undefined;
      }
    },
  };
}
