/**
 * Authentication (NOTES §2): the challenge, a login with a KSeF token or a signed XAdES AuthTokenRequest, its status,
 * the one-time redeem of the access and refresh tokens, refresh, the list of authentications and their revocation.
 * The simulator's tokens are HS256 JWTs signed with its secret; an access token names its authentication, so a
 * revoked one is refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { badRequest, forbidden, KSEF_CODES, KsefError, unauthorized } from './ksef-errors.ts';
import type { SimAuthRow } from './ksef-simulator.repository.ts';
import type { SimKeyStore } from './sim-key-store.ts';
import { privateKeyOf, referenceNumber, rsaOaepDecrypt } from './sim-keys.ts';
import {
  addMs,
  base64,
  continuation,
  ctxOf,
  iso,
  nipOfContext,
  offsetOf,
  status,
  type AccessClaims,
  type ContextIdentifier,
  type KsefSimulatorOptions,
  type SimBase,
} from './sim-shared.ts';
import { verifyAuthTokenRequest } from './sim-xades.ts';

const CHALLENGE_SECONDS = 600;
const AUTH_TOKEN_SECONDS = 3600;
/** Authentication operations are kept 7 days, then `410 Gone` (NOTES §2). */
const AUTH_KEPT_SECONDS = 7 * 24 * 3600;
const OWNER_PERMISSIONS = [
  'InvoiceRead',
  'InvoiceWrite',
  'CredentialsRead',
  'CredentialsManage',
  'SubunitManage',
  'Introspection',
];

const AUTH_STATUS: Record<number, string> = {
  100: 'Uwierzytelnianie w toku',
  200: 'Uwierzytelnianie zakończone sukcesem',
  415: 'Uwierzytelnianie zakończone niepowodzeniem z powodu braku nadanych uprawnień',
  450: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu',
  460: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędu certyfikatu',
};

type TokenKind = 'auth' | 'access' | 'refresh';

function authView(row: SimAuthRow, now: Date) {
  const decided = now >= row.decidedAt;
  const xades = row.method !== 'Token';
  return {
    startDate: iso(row.startedAt),
    authenticationMethod: row.method,
    authenticationMethodInfo: xades
      ? {
          category: 'XadesSignature',
          code: 'seal.self-signed',
          displayName: 'Pieczęć (certyfikat samopodpisany, TEST)',
        }
      : { category: 'Token', code: 'token.ksef', displayName: 'Token KSeF' },
    status: decided ? row.status : status(100, AUTH_STATUS[100] ?? ''),
    ...(row.redeemedAt ? { isTokenRedeemed: true } : { isTokenRedeemed: false }),
    ...(row.lastRefreshAt ? { lastTokenRefreshDate: iso(row.lastRefreshAt) } : {}),
    ...(row.refreshValidUntil ? { refreshTokenValidUntil: iso(row.refreshValidUntil) } : {}),
  };
}

export function createSimAuth(deps: SimBase & { keyStore: SimKeyStore; options: KsefSimulatorOptions }) {
  const { repo, clock, log, delay, keyStore, options } = deps;
  const { keys } = keyStore;
  const refreshTtl = options.refreshTtlSeconds ?? 7 * 24 * 3600;

  // ---------- JWTs ----------
  async function issue(kind: TokenKind, auth: SimAuthRow, seconds: number) {
    const now = clock.now();
    const validUntil = addMs(now, seconds * 1000);
    const token = await new SignJWT({
      typ: kind,
      ctxT: auth.contextType,
      ctxV: auth.contextValue,
      ...(kind === 'access' ? { per: auth.permissions, met: auth.method } : {}),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('ksef-simulator')
      .setSubject(auth.referenceNumber)
      .setJti(randomBytes(8).toString('hex'))
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(validUntil.getTime() / 1000))
      .sign((await keys()).secret);
    return { token, validUntil: iso(validUntil) };
  }

  async function verify(kind: TokenKind, header: string | undefined) {
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    if (!token) throw unauthorized('Brak tokenu uwierzytelniającego.');
    try {
      const { payload } = await jwtVerify(token, (await keys()).secret, {
        issuer: 'ksef-simulator',
        currentDate: clock.now(),
        algorithms: ['HS256'],
      });
      if (payload.typ !== kind || typeof payload.sub !== 'string') throw unauthorized('Nieprawidłowy rodzaj tokenu.');
      return payload as typeof payload & { sub: string; per?: string[]; met?: string; ctxT: string; ctxV: string };
    } catch (error) {
      if (error instanceof KsefError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw unauthorized('Token wygasł.');
      throw unauthorized('Nieprawidłowy token.');
    }
  }

  /** Decides an authentication now; the answer is visible from `decidedAt`. */
  async function startAuthentication(
    row: Omit<Parameters<typeof repo.insertAuthentication>[0], 'referenceNumber' | 'startedAt' | 'decidedAt'>,
  ) {
    const now = clock.now();
    const auth = { ...row, referenceNumber: referenceNumber('AU', now), startedAt: now, decidedAt: addMs(now, delay) };
    await repo.insertAuthentication(auth);
    log.info(
      { reference: auth.referenceNumber, context: auth.contextValue, status: auth.status.code },
      'KSeF simulator: authentication',
    );
    const saved = (await repo.findAuthentication(auth.referenceNumber)) as SimAuthRow;
    return {
      referenceNumber: auth.referenceNumber,
      authenticationToken: await issue('auth', saved, AUTH_TOKEN_SECONDS),
    };
  }

  return {
    /** The caller of a protected route, from its access token; a revoked authentication is a 401. */
    async authenticate(header: string | undefined): Promise<AccessClaims> {
      const payload = await verify('access', header);
      const auth = await repo.findAuthentication(payload.sub);
      if (!auth || auth.revokedAt) throw unauthorized('Sesja uwierzytelniania została unieważniona.');
      return {
        authReference: auth.referenceNumber,
        context: { type: auth.contextType as ContextIdentifier['type'], value: auth.contextValue },
        permissions: payload.per ?? [],
        method: payload.met ?? auth.method,
      };
    },

    /** The context of a valid access token (for rate limiting), or undefined. */
    async contextOf(header: string | undefined): Promise<string | undefined> {
      try {
        const payload = await verify('access', header);
        return `${payload.ctxT}:${payload.ctxV}`;
      } catch {
        return undefined;
      }
    },

    async challenge(clientIp: string) {
      const now = clock.now();
      const challenge = referenceNumber('CR', now);
      await repo.deleteChallengesBefore(addMs(now, -24 * 3600 * 1000));
      await repo.insertChallenge({
        challenge,
        timestampMs: now.getTime(),
        expiresAt: addMs(now, CHALLENGE_SECONDS * 1000),
      });
      return { challenge, timestamp: iso(now), timestampMs: now.getTime(), clientIp };
    },

    async authWithKsefToken(body: {
      challenge: string;
      contextIdentifier: ContextIdentifier;
      encryptedToken: string;
      publicKeyId?: string | null | undefined;
    }) {
      const now = clock.now();
      const k = await keys();
      if (body.publicKeyId && body.publicKeyId !== k.KsefTokenEncryption.publicKeyId) {
        throw badRequest(KSEF_CODES.unknownPublicKey, 'Nieznany lub wycofany klucz publiczny.');
      }
      const encrypted = base64(body.encryptedToken, 'encryptedToken');
      const challenge = await repo.useChallenge(body.challenge, now);
      if (!challenge) throw badRequest(KSEF_CODES.invalidChallenge, 'Nieprawidłowe wyzwanie autoryzacyjne.');
      const ctx = body.contextIdentifier;
      const fail = (code: number, detail: string) =>
        startAuthentication({
          contextType: ctx.type,
          contextValue: ctx.value,
          method: 'Token',
          subjectType: 'Token',
          subjectValue: '',
          permissions: [],
          status: status(code, AUTH_STATUS[code] ?? '', [detail]),
        });
      let plain: string;
      try {
        plain = rsaOaepDecrypt(privateKeyOf(k.KsefTokenEncryption.privateKeyPem), encrypted).toString('utf8');
      } catch {
        return fail(450, 'Nie udało się odszyfrować tokenu.');
      }
      const separator = plain.lastIndexOf('|');
      const token = plain.slice(0, separator);
      if (separator < 0 || Number(plain.slice(separator + 1)) !== challenge.timestampMs) {
        return fail(450, 'Znacznik czasu nie odpowiada wyzwaniu.');
      }
      const row = await repo.findTokenByHash(createHash('sha256').update(token, 'utf8').digest('hex'));
      if (!row || row.revokedAt || now < row.activeAt)
        return fail(450, 'Token KSeF nie istnieje lub nie jest aktywny.');
      if (row.contextType !== ctx.type || row.contextValue !== ctx.value) {
        return fail(415, 'Token nie należy do wskazanego kontekstu.');
      }
      await repo.touchToken(row.referenceNumber, now);
      return startAuthentication({
        contextType: ctx.type,
        contextValue: ctx.value,
        method: 'Token',
        subjectType: row.authorType,
        subjectValue: row.authorValue,
        tokenReference: row.referenceNumber,
        permissions: row.permissions,
        status: status(200, AUTH_STATUS[200] ?? ''),
      });
    },

    async authWithXades(xml: string) {
      const now = clock.now();
      const verified = verifyAuthTokenRequest(xml);
      const challenge = await repo.useChallenge(verified.challenge, now);
      if (!challenge) throw badRequest(KSEF_CODES.invalidChallenge, 'Nieprawidłowe wyzwanie autoryzacyjne.');
      const ctx = verified.context;
      let st = status(200, AUTH_STATUS[200] ?? '');
      if (now < verified.certificateValidFrom || now > verified.certificateValidTo) {
        st = status(460, AUTH_STATUS[460] ?? '', ['Certyfikat jest nieważny w tej chwili.']);
      } else if (!verified.certificateNip) {
        st = status(460, AUTH_STATUS[460] ?? '', [
          'Certyfikat nie zawiera numeru NIP (serialNumber / organizationIdentifier VATPL-…).',
        ]);
      } else if ((ctx.type !== 'Nip' && ctx.type !== 'InternalId') || nipOfContext(ctx) !== verified.certificateNip) {
        st = status(415, AUTH_STATUS[415] ?? '', [
          `Certyfikat (NIP ${verified.certificateNip}) nie ma uprawnień w kontekście ${ctx.value}.`,
        ]);
      }
      return startAuthentication({
        contextType: ctx.type,
        contextValue: ctx.value,
        method: 'QualifiedSeal',
        subjectType: verified.subjectIdentifierType === 'certificateFingerprint' ? 'Fingerprint' : 'Nip',
        subjectValue:
          verified.subjectIdentifierType === 'certificateFingerprint'
            ? verified.fingerprint
            : (verified.certificateNip ?? ''),
        documentHash: verified.documentHash,
        permissions: st.code === 200 ? OWNER_PERMISSIONS : [],
        status: st,
      });
    },

    async authStatus(reference: string, header: string | undefined) {
      const payload = await verify('auth', header);
      if (payload.sub !== reference) throw forbidden('Token nie dotyczy tej operacji uwierzytelniania.');
      const row = await repo.findAuthentication(reference);
      if (!row) throw badRequest(KSEF_CODES.notAuthorised, 'Operacja uwierzytelniania nie istnieje.');
      const now = clock.now();
      if (now.getTime() - row.startedAt.getTime() > AUTH_KEPT_SECONDS * 1000) {
        throw new KsefError('gone', 410, 'Operacja uwierzytelniania jest starsza niż 7 dni.');
      }
      return authView(row, now);
    },

    async redeem(header: string | undefined) {
      const payload = await verify('auth', header);
      const now = clock.now();
      const row = await repo.findAuthentication(payload.sub);
      if (!row || now < row.decidedAt || row.status.code !== 200) {
        throw badRequest(KSEF_CODES.notAuthorised, 'Brak autoryzacji.', [
          'Uwierzytelnianie nie zakończyło się sukcesem.',
        ]);
      }
      const redeemed = await repo.redeem(row.referenceNumber, now, addMs(now, refreshTtl * 1000));
      if (!redeemed) throw badRequest(KSEF_CODES.notAuthorised, 'Brak autoryzacji.', ['Tokeny zostały już pobrane.']);
      return {
        accessToken: await issue('access', redeemed, options.accessTtlSeconds),
        refreshToken: await issue('refresh', redeemed, refreshTtl),
      };
    },

    async refresh(header: string | undefined) {
      const payload = await verify('refresh', header);
      const now = clock.now();
      const row = await repo.findAuthentication(payload.sub);
      if (!row || row.revokedAt || !row.refreshValidUntil || row.refreshValidUntil < now) {
        throw unauthorized('Token odświeżający został unieważniony.');
      }
      await repo.markRefreshed(row.referenceNumber, now);
      return { accessToken: await issue('access', row, options.accessTtlSeconds) };
    },

    async listAuthSessions(caller: AccessClaims, pageSize: number, continuationToken: string | undefined) {
      const offset = offsetOf(continuationToken);
      const rows = await repo.listAuthentications(ctxOf(caller), pageSize + 1, offset);
      const now = clock.now();
      return {
        ...(rows.length > pageSize ? { continuationToken: continuation(offset + pageSize) } : {}),
        items: rows.slice(0, pageSize).map((row) => ({
          ...authView(row, now),
          referenceNumber: row.referenceNumber,
          isCurrent: row.referenceNumber === caller.authReference,
        })),
      };
    },

    async revokeCurrent(caller: AccessClaims) {
      await repo.revokeAuthentication(caller.authReference, clock.now());
    },
  };
}
