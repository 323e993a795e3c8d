/**
 * The embedded KSeF 2.0 simulator (issue 13 §2): KSeF TEST's behaviour for the subset in
 * `ksef-api-subset-simulator.json`. It is a simulator, named so in its certificates, logs and UPOs.
 *
 * Asynchronous stages without timers: each operation is decided when it arrives (an invoice is decrypted, XSD-checked
 * on the CPU pool and numbered in its request) and stored with the times its stages become visible (`delayMs` apart),
 * so status reads answer from timestamps and a restart loses nothing.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ZipFile } from 'yazl';
import { unzipSync } from 'fflate';
import { aesDecrypt, aesEncrypt, makeKsefNumber } from '@portal/ksef';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { BlobTooLargeError, type BlobStore } from '../../storage/blob-store.ts';
import { badRequest, forbidden, KSEF_CODES, KsefError, unauthorized } from './ksef-errors.ts';
import {
  createKsefSimulatorRepository,
  type SimAuthRow,
  type SimInvoiceRow,
  type SimKeyRow,
  type SimSessionRow,
} from './ksef-simulator.repository.ts';
import type { KsefSimStatus } from './ksef-simulator.repository.ts';
import type { InvoiceFields } from './ksef-simulator.tasks.ts';
import {
  generateSimKey,
  privateKeyOf,
  referenceNumber,
  rsaOaepDecrypt,
  sha256b64,
  type SimKeyName,
} from './sim-keys.ts';
import {
  DEFAULT_RATE_LIMITS,
  createRateLimiter,
  type RateLimitGroup,
  type RateLimitValues,
} from './sim-rate-limits.ts';
import { buildUpo, type UpoDocument } from './sim-upo.ts';
import { signEnveloped, verifyAuthTokenRequest } from './sim-xades.ts';

export type KsefSimulatorOptions = {
  /** Absolute base of the simulator's API (`…/ksef-simulator/v2`), for pre-signed URLs. */
  baseUrl: string;
  /** Between the stages of an asynchronous operation (100 → 150 → final). */
  delayMs: number;
  accessTtlSeconds: number;
  refreshTtlSeconds?: number;
  rateLimits?: Partial<Record<RateLimitGroup, RateLimitValues>>;
};

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type ContextIdentifier = { type: 'Nip' | 'InternalId' | 'NipVatUe' | 'PeppolId'; value: string };
export type AccessClaims = {
  authReference: string;
  context: ContextIdentifier;
  permissions: string[];
  method: string;
};

export const MAX_INVOICE_BYTES = 1024 * 1024;
export const MAX_SESSION_INVOICES = 10_000;
const CHALLENGE_SECONDS = 600;
const AUTH_TOKEN_SECONDS = 3600;
/** Authentication operations are kept 7 days, then `410 Gone` (NOTES §2). */
const AUTH_KEPT_SECONDS = 7 * 24 * 3600;
const SESSION_HOURS = 12;
const PRESIGNED_SECONDS = 3600;
const EXPORT_MAX_INVOICES = 10_000;
const EXPORT_MAX_BYTES = 100 * 1024 * 1024;
const EXPORT_KEEP_SECONDS = 7 * 24 * 3600;
const OWNER_PERMISSIONS = [
  'InvoiceRead',
  'InvoiceWrite',
  'CredentialsRead',
  'CredentialsManage',
  'SubunitManage',
  'Introspection',
];
/** Batch sessions (NOTES §8): KSeF's part limits; the whole archive is capped lower here, as this is a simulator. */
const BATCH_MAX_PARTS = 50;
const BATCH_PART_MAX_BYTES = 100 * 1024 * 1024;
export const BATCH_MAX_BYTES = 200 * 1024 * 1024;
/** An invoice with attachments may be 3 MB in a batch. */
const BATCH_ENTRY_MAX_BYTES = 3 * 1024 * 1024;
const BATCH_FAILURES: Record<number, string> = {
  405: 'Błąd weryfikacji poprawności dostarczonych elementów paczki',
  415: 'Błąd odszyfrowania dostarczonego klucza',
  420: 'Przekroczony limit faktur w sesji',
  430: 'Błąd dekompresji pierwotnego archiwum',
  435: 'Błąd odszyfrowania zaszyfrowanych części archiwum',
};
type BatchInfo = {
  fileSize: number;
  fileHash: string;
  offlineMode: boolean;
  parts: { ordinalNumber: number; fileSize: number; fileHash: string }[];
};
const partKey = (sessionRef: string, ordinal: number) => `ksef-simulator/batch/${sessionRef}/${ordinal}`;

const FA3 = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' };

const INVOICE_TYPES: Record<string, string> = {
  VAT: 'Vat',
  ZAL: 'Zal',
  KOR: 'Kor',
  ROZ: 'Roz',
  UPR: 'Upr',
  KOR_ZAL: 'KorZal',
  KOR_ROZ: 'KorRoz',
};

const AUTH_STATUS: Record<number, string> = {
  100: 'Uwierzytelnianie w toku',
  200: 'Uwierzytelnianie zakończone sukcesem',
  415: 'Uwierzytelnianie zakończone niepowodzeniem z powodu braku nadanych uprawnień',
  450: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu',
  460: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędu certyfikatu',
};
const status = (code: number, description: string, details?: string[]): KsefSimStatus =>
  details && details.length ? { code, description, details } : { code, description };

const addMs = (date: Date, ms: number) => new Date(date.getTime() + ms);
const iso = (date: Date) => date.toISOString();

/** Continuation tokens are offsets; a forged one is a 400 (21405). */
const offsetOf = (token: string | undefined): number => {
  if (!token) return 0;
  const n = Number(Buffer.from(token, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(n) || n < 0 || n > 1_000_000) {
    throw badRequest(KSEF_CODES.inputValidation, 'Nieprawidłowy token kontynuacji.');
  }
  return n;
};
const continuation = (offset: number) => Buffer.from(String(offset), 'utf8').toString('base64url');

/** Reads a base64 field strictly (the API's `format: byte`). */
const base64 = (value: string, field: string): Buffer => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
    throw badRequest(KSEF_CODES.inputValidation, `Nieprawidłowa wartość Base64: ${field}.`);
  }
  return Buffer.from(value, 'base64');
};

const nipOfContext = (context: ContextIdentifier): string => context.value.slice(0, 10);

export function createKsefSimulatorService(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  /** Where uploaded batch parts are kept until the session is processed. */
  blobs: BlobStore;
  log: Log;
  options: KsefSimulatorOptions;
}) {
  const { clock, cpu, log, options } = deps;
  const repo = createKsefSimulatorRepository(deps.db);
  const delay = options.delayMs;
  const refreshTtl = options.refreshTtlSeconds ?? 7 * 24 * 3600;
  const limiter = createRateLimiter({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits });

  type Keys = Record<SimKeyName, SimKeyRow> & { secret: Buffer };
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

  // ---------- JWTs ----------
  type TokenKind = 'auth' | 'access' | 'refresh';
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

  /** The caller of a protected route, from its access token; a revoked authentication is a 401. */
  async function authenticate(header: string | undefined): Promise<AccessClaims> {
    const payload = await verify('access', header);
    const auth = await repo.findAuthentication(payload.sub);
    if (!auth || auth.revokedAt) throw unauthorized('Sesja uwierzytelniania została unieważniona.');
    return {
      authReference: auth.referenceNumber,
      context: { type: auth.contextType as ContextIdentifier['type'], value: auth.contextValue },
      permissions: payload.per ?? [],
      method: payload.met ?? auth.method,
    };
  }

  const requirePermission = (caller: AccessClaims, permission: string) => {
    if (!caller.permissions.includes(permission)) {
      throw forbidden(`Brak uprawnienia ${permission} w kontekście ${caller.context.value}.`);
    }
  };
  const ctxOf = (caller: AccessClaims) => ({ contextType: caller.context.type, contextValue: caller.context.value });

  // ---------- pre-signed URLs (no token; KSeF's are Azure blob URLs) ----------
  async function presign(kind: string, a: string, b: string, now: Date) {
    const expires = Math.floor(now.getTime() / 1000) + PRESIGNED_SECONDS;
    const sig = createHmac('sha256', (await keys()).secret)
      .update(`${kind}|${a}|${b}|${expires}`)
      .digest('base64url');
    const url = `${options.baseUrl}/presigned/${kind}/${encodeURIComponent(a)}/${encodeURIComponent(b)}?se=${expires}&sig=${sig}`;
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

  // ---------- views ----------
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

  function invoiceStage(row: SimInvoiceRow, now: Date): KsefSimStatus & { extensions?: Record<string, string> } {
    if (now < row.processingAt) return status(100, 'Faktura przyjęta do dalszego przetwarzania');
    if (now < row.decidedAt) return status(150, 'Trwa przetwarzanie');
    return row.status;
  }

  async function invoiceView(row: SimInvoiceRow, now: Date) {
    const stage = invoiceStage(row, now);
    const done = stage.code === 200;
    const meta = (row.metadata ?? {}) as { invoiceNumber?: string };
    const upo = done ? await presign('upo-invoice', row.sessionReference, row.referenceNumber, now) : undefined;
    return {
      ordinalNumber: row.ordinalNumber,
      ...(now >= row.decidedAt && (row.invoiceNumber ?? meta.invoiceNumber)
        ? { invoiceNumber: row.invoiceNumber }
        : {}),
      ...(done && row.ksefNumber ? { ksefNumber: row.ksefNumber } : {}),
      referenceNumber: row.referenceNumber,
      invoiceHash: row.invoiceHash,
      ...(row.invoiceFileName ? { invoiceFileName: row.invoiceFileName } : {}),
      ...(done ? { acquisitionDate: iso(row.decidedAt), permanentStorageDate: iso(row.decidedAt) } : {}),
      invoicingDate: iso(row.receivedAt),
      ...(upo ? { upoDownloadUrl: upo.url, upoDownloadUrlExpirationDate: upo.expirationDate } : {}),
      invoicingMode: row.invoicingMode,
      status: stage,
    };
  }

  /** UPO page references are derived from the session's, so they are stable without being stored. */
  const upoPageReference = (sessionReference: string, page: number) => {
    const hex = createHash('sha256').update(`${sessionReference}|${page}`).digest('hex').toUpperCase().slice(0, 20);
    const date = sessionReference.slice(0, 8);
    const body = `${date}-EU-${hex.slice(0, 10)}-${hex.slice(10)}`;
    return `${body}-${createHash('sha256').update(body).digest('hex').slice(0, 2).toUpperCase()}`;
  };

  /** A session left open past `validUntil` is closed by KSeF then: shown as closed at that time. */
  const effective = (row: SimSessionRow, now: Date): SimSessionRow =>
    !row.closedAt && row.validUntil < now ? { ...row, closedAt: row.validUntil, processedAt: row.validUntil } : row;

  async function sessionView(stored: SimSessionRow, now: Date) {
    const row = effective(stored, now);
    const counts = await repo.sessionCounts(row.referenceNumber, now);
    const online = row.kind === 'Online';
    let st: KsefSimStatus;
    let upo:
      { pages: { referenceNumber: string; downloadUrl: string; downloadUrlExpirationDate: string }[] } | undefined;
    if (row.statusCode !== 100) st = status(row.statusCode, BATCH_FAILURES[row.statusCode] ?? 'Błąd przetwarzania');
    else if (!row.closedAt) {
      st = status(100, online ? 'Sesja interaktywna otwarta' : 'Sesja wsadowa rozpoczęta');
    } else if (!row.processedAt) {
      // A batch being processed; after a restart the first status read takes it up again.
      void ensureProcessing(row.referenceNumber);
      st = status(150, 'Trwa przetwarzanie');
    } else if (now < row.processedAt) {
      st = status(online ? 170 : 150, online ? 'Sesja interaktywna zamknięta' : 'Trwa przetwarzanie');
    } else if (counts.total === 0) st = status(440, 'Sesja anulowana', ['Nie przesłano faktur']);
    else if (counts.accepted === 0) st = status(445, 'Błąd weryfikacji, brak poprawnych faktur');
    else {
      st = status(200, online ? 'Sesja interaktywna przetworzona pomyślnie' : 'Sesja wsadowa przetworzona pomyślnie');
      const pages = Math.ceil(counts.accepted / MAX_SESSION_INVOICES);
      upo = { pages: [] };
      for (let page = 1; page <= pages; page++) {
        const ref = upoPageReference(row.referenceNumber, page);
        const url = await presign('upo-session', row.referenceNumber, ref, now);
        upo.pages.push({ referenceNumber: ref, downloadUrl: url.url, downloadUrlExpirationDate: url.expirationDate });
      }
    }
    return {
      status: st,
      dateCreated: iso(row.createdAt),
      dateUpdated: iso(row.processedAt && now >= row.processedAt ? row.processedAt : row.updatedAt),
      validUntil: iso(row.validUntil),
      ...(upo ? { upo } : {}),
      invoiceCount: counts.total,
      successfulInvoiceCount: counts.decidedAccepted,
      failedInvoiceCount: counts.decidedFailed,
    };
  }

  const upoDocument = (row: SimInvoiceRow): UpoDocument => ({
    sellerNip: row.sellerNip ?? '',
    ksefNumber: row.ksefNumber ?? '',
    invoiceNumber: row.invoiceNumber ?? '',
    issueDate: row.issueDate ?? '',
    receivedAt: row.receivedAt,
    acquiredAt: row.decidedAt,
    invoiceHash: row.invoiceHash,
    invoicingMode: row.invoicingMode === 'Offline' ? 'Offline' : 'Online',
  });

  async function signUpo(
    session: SimSessionRow,
    documents: UpoDocument[],
    signingTime: Date,
    page?: { number: number; pages: number; from: number; to: number; total: number },
  ) {
    const xml = buildUpo({
      sessionReference: session.referenceNumber,
      context: { type: session.contextType, value: session.contextValue },
      tokenReference: session.tokenReference,
      authDocumentHash: session.authDocumentHash,
      documents,
      ...(page ? { page } : {}),
    });
    const key = (await keys()).UpoSigning;
    const signed = signEnveloped(xml, key.privateKeyPem, key.certificateDer ?? Buffer.alloc(0), signingTime);
    return { xml: signed, hash: sha256b64(Buffer.from(signed, 'utf8')) };
  }

  function invoiceMetadata(row: SimInvoiceRow) {
    const m = (row.metadata ?? {}) as Partial<InvoiceFields>;
    return {
      ksefNumber: row.ksefNumber ?? '',
      invoiceNumber: row.invoiceNumber ?? '',
      issueDate: row.issueDate ?? '',
      invoicingDate: iso(row.receivedAt),
      acquisitionDate: iso(row.decidedAt),
      permanentStorageDate: iso(row.decidedAt),
      seller: { nip: row.sellerNip ?? '', ...(m.sellerName ? { name: m.sellerName } : {}) },
      buyer: {
        identifier: { type: m.buyer?.type ?? 'None', ...(m.buyer?.value ? { value: m.buyer.value } : {}) },
        ...(m.buyer?.name ? { name: m.buyer.name } : {}),
      },
      netAmount: m.netAmount ?? 0,
      grossAmount: m.grossAmount ?? 0,
      vatAmount: m.vatAmount ?? 0,
      currency: m.currency ?? 'PLN',
      invoicingMode: row.invoicingMode,
      invoiceType: INVOICE_TYPES[row.invoiceType ?? ''] ?? 'Vat',
      formCode: FA3,
      isSelfInvoicing: m.isSelfInvoicing ?? false,
      hasAttachment: false,
      invoiceHash: row.invoiceHash,
    };
  }

  async function unwrapKey(encryption: {
    encryptedSymmetricKey: string;
    initializationVector: string;
    publicKeyId?: string | null | undefined;
  }) {
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

  async function zipOf(files: { name: string; data: Buffer }[]): Promise<Buffer> {
    const zip = new ZipFile();
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<void>((resolve, reject) => {
      out.on('end', resolve);
      out.on('error', reject);
    });
    zip.outputStream.pipe(out);
    for (const file of files) zip.addBuffer(file.data, file.name);
    zip.end();
    await done;
    return Buffer.concat(chunks);
  }

  /**
   * Decides one received invoice (online or from a batch) and stores it with the times its stages become visible:
   * 435 not decrypted, 450 not UTF-8 or not FA(3)-valid (the XSD on the CPU pool), 410 another seller, 440 a
   * duplicate, else 200 with a KSeF number.
   */
  async function recordInvoice(input: {
    sessionRef: string;
    ordinal: number;
    contextValue: string;
    invoiceHash: string;
    invoicingMode: 'Online' | 'Offline';
    fileName: string | null;
    plain: Buffer | undefined;
    now: Date;
    /** Decided before reading: a file of a batch that is not taken at all. */
    refusal?: KsefSimStatus;
  }): Promise<{ referenceNumber: string }> {
    const { sessionRef, ordinal, plain, now } = input;
    const ref = referenceNumber('EE', now);
    const processingAt = addMs(now, delay);
    const decidedAt = addMs(now, 2 * delay);
    const base = {
      referenceNumber: ref,
      sessionReference: sessionRef,
      ordinalNumber: ordinal,
      invoiceHash: input.invoiceHash,
      invoiceFileName: input.fileName,
      invoicingMode: input.invoicingMode,
      receivedAt: now,
      processingAt,
      decidedAt,
    };
    const reject = async (
      st: KsefSimStatus & { extensions?: Record<string, string> },
      fields?: InvoiceFields,
      xml?: string,
    ) => {
      await repo.insertInvoice({
        ...base,
        status: st,
        accepted: false,
        ...(fields
          ? {
              sellerNip: fields.sellerNip,
              invoiceType: fields.invoiceType,
              invoiceNumber: fields.invoiceNumber,
              issueDate: fields.issueDate,
            }
          : {}),
        plainXml: xml ?? null,
      });
      log.info({ reference: ref, session: sessionRef, status: st.code }, 'KSeF simulator: invoice rejected');
      return { referenceNumber: ref };
    };
    if (input.refusal) return reject(input.refusal);
    if (!plain) return reject(status(435, 'Błąd odszyfrowania pliku'));
    let xml: string;
    try {
      if (plain[0] === 0xef && plain[1] === 0xbb && plain[2] === 0xbf) throw new Error('BOM');
      xml = new TextDecoder('utf-8', { fatal: true }).decode(plain);
    } catch {
      return reject(
        status(450, 'Błąd weryfikacji semantyki dokumentu faktury', ['Dokument musi być w UTF-8 bez BOM.']),
      );
    }
    const checked = await cpu.run({ name: 'ksefSimulator.checkInvoice', xml });
    if (!checked.valid) {
      return reject(status(450, 'Błąd weryfikacji semantyki dokumentu faktury', checked.errors), undefined, xml);
    }
    const fields = checked.fields;
    if (fields.issueDate > iso(decidedAt).slice(0, 10)) {
      return reject(
        status(450, 'Błąd weryfikacji semantyki dokumentu faktury', [
          `Data wystawienia (P_1) ${fields.issueDate} jest późniejsza niż data przyjęcia faktury.`,
        ]),
        fields,
        xml,
      );
    }
    if (fields.sellerNip !== input.contextValue.slice(0, 10)) {
      return reject(
        status(410, 'Nieprawidłowy zakres uprawnień', [
          `NIP sprzedawcy ${fields.sellerNip} różni się od kontekstu ${input.contextValue}.`,
        ]),
        fields,
        xml,
      );
    }
    const duplicate = async () => {
      const original = await repo.findAcceptedDuplicate(fields.sellerNip, fields.invoiceType, fields.invoiceNumber);
      if (!original) return undefined;
      return reject(
        {
          ...status(440, 'Duplikat faktury', [
            `Faktura o numerze ${fields.invoiceNumber} została już przyjęta z numerem KSeF ${original.ksefNumber ?? ''}.`,
          ]),
          extensions: {
            originalKsefNumber: original.ksefNumber ?? '',
            originalSessionReferenceNumber: original.sessionReference,
          },
        },
        fields,
        xml,
      );
    };
    const dup = await duplicate();
    if (dup) return dup;
    const ksefNumber = makeKsefNumber(fields.sellerNip, iso(decidedAt).slice(0, 10), randomBytes(6).toString('hex'));
    const inserted = await repo.insertInvoice({
      ...base,
      status: status(200, 'Sukces'),
      accepted: true,
      ksefNumber,
      sellerNip: fields.sellerNip,
      buyerNip: fields.buyer.type === 'Nip' ? (fields.buyer.value ?? null) : null,
      invoiceType: fields.invoiceType,
      invoiceNumber: fields.invoiceNumber,
      issueDate: fields.issueDate,
      metadata: { ...fields },
      plainXml: xml,
    });
    if (!inserted) {
      // Another request accepted the same (seller, type, number) between the check and the insert.
      const lost = await duplicate();
      if (lost) return lost;
      throw new Error('KSeF simulator: invoice insert conflicted without a duplicate');
    }
    log.info({ reference: ref, session: sessionRef, ksefNumber }, 'KSeF simulator: invoice accepted');
    return { referenceNumber: ref };
  }

  const processing = new Map<string, Promise<void>>();
  function ensureProcessing(sessionRef: string): Promise<void> {
    const running = processing.get(sessionRef);
    if (running) return running;
    const started = processBatch(sessionRef)
      .catch((error: unknown) =>
        log.warn({ err: error, session: sessionRef }, 'KSeF simulator: batch processing failed'),
      )
      .finally(() => processing.delete(sessionRef));
    processing.set(sessionRef, started);
    return started;
  }

  /**
   * Processes a closed batch session: the parts decrypted one by one (same key and IV), joined, checked against the
   * declared size and hash, unzipped within bounds, then each file decided as an online invoice. Invoices already
   * recorded (by ordinal) are skipped, so a run cut short by a restart resumes where it stopped.
   */
  async function processBatch(sessionRef: string): Promise<void> {
    const session = await repo.findSessionByReference(sessionRef);
    if (!session?.closedAt || session.processedAt || !session.symmetricKey || !session.iv) return;
    const batch = session.batch as BatchInfo;
    const finish = async (code: number) => {
      const counts = await repo.sessionCounts(sessionRef, clock.now());
      const now = clock.now();
      const last = counts.lastDecidedAt && counts.lastDecidedAt > now ? counts.lastDecidedAt : now;
      await repo.finishBatch(sessionRef, code, addMs(last, delay));
      log.info({ session: sessionRef, status: code }, 'KSeF simulator: batch session processed');
    };
    const plainParts: Buffer[] = [];
    for (const part of [...batch.parts].sort((a, b) => a.ordinalNumber - b.ordinalNumber)) {
      const blob = await deps.blobs.get(partKey(sessionRef, part.ordinalNumber));
      const chunks: Buffer[] = [];
      for await (const chunk of blob.body) chunks.push(Buffer.from(chunk as Uint8Array));
      try {
        plainParts.push(aesDecrypt(Buffer.concat(chunks), session.symmetricKey, session.iv));
      } catch {
        return finish(435);
      }
    }
    const zip = Buffer.concat(plainParts);
    if (zip.length !== batch.fileSize || sha256b64(zip) !== batch.fileHash) return finish(405);
    // First the central directory only (nothing inflated), held to the session's bounds.
    const listing: { name: string; size: number }[] = [];
    let total = 0;
    try {
      unzipSync(zip, {
        filter: (file) => {
          if (file.name.endsWith('/')) return false;
          listing.push({ name: file.name, size: file.originalSize });
          total += Math.min(file.originalSize, BATCH_ENTRY_MAX_BYTES);
          if (listing.length > MAX_SESSION_INVOICES) throw new RangeError('too many invoices');
          return false;
        },
      });
    } catch (error) {
      return finish(error instanceof RangeError ? 420 : 430);
    }
    if (total > BATCH_MAX_BYTES) return finish(430);
    listing.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    // Then a few files at a time (at most 8 MB declared), so no single step holds the event loop long; fflate
    // inflates into a buffer of the declared size, so a file cannot grow past what the listing allowed.
    let start = 0;
    while (start < listing.length) {
      const group: typeof listing = [];
      let groupBytes = 0;
      for (const entry of listing.slice(start)) {
        if (group.length > 0 && (group.length >= 50 || groupBytes + entry.size > 8 * 1024 * 1024)) break;
        group.push(entry);
        groupBytes += Math.min(entry.size, BATCH_ENTRY_MAX_BYTES);
      }
      const wanted = new Set(group.filter((e) => e.size <= BATCH_ENTRY_MAX_BYTES).map((e) => e.name));
      let files: Record<string, Uint8Array>;
      try {
        files = wanted.size ? unzipSync(zip, { filter: (file) => wanted.has(file.name) }) : {};
      } catch {
        return finish(430);
      }
      for (const [offset, entry] of group.entries()) {
        const ordinal = start + offset + 1;
        if (await repo.hasInvoiceAt(sessionRef, ordinal)) continue;
        const data = files[entry.name] ? Buffer.from(files[entry.name] ?? new Uint8Array()) : undefined;
        await recordInvoice({
          sessionRef,
          ordinal,
          contextValue: session.contextValue,
          invoiceHash: data ? sha256b64(data) : '',
          invoicingMode: batch.offlineMode ? 'Offline' : 'Online',
          fileName: entry.name.slice(0, 128),
          plain: data,
          now: clock.now(),
          ...(data
            ? {}
            : { refusal: status(450, 'Błąd weryfikacji semantyki dokumentu faktury', ['Faktura większa niż 3 MB.']) }),
        });
      }
      start += group.length;
    }
    for (const part of batch.parts) await deps.blobs.delete(partKey(sessionRef, part.ordinalNumber));
    return finish(100);
  }

  return {
    rateLimit(group: RateLimitGroup, key: string) {
      const over = limiter.take(group, key, clock.now());
      if (over) {
        log.warn({ group, key }, 'KSeF simulator: rate limit');
        throw new KsefError('too-many', 429, 'Too Many Requests', [over.message], {
          retryAfterSeconds: over.retryAfterSeconds,
        });
      }
    },
    authenticate,
    /** The context of a valid access token (for rate limiting), or undefined. */
    async contextOf(header: string | undefined): Promise<string | undefined> {
      try {
        const payload = await verify('access', header);
        return `${payload.ctxT}:${payload.ctxV}`;
      } catch {
        return undefined;
      }
    },

    async publicKeyCertificates() {
      const k = await keys();
      return (['KsefTokenEncryption', 'SymmetricKeyEncryption'] as const).map((name) => ({
        certificate: (k[name].certificateDer ?? Buffer.alloc(0)).toString('base64'),
        certificateId: sha256b64(k[name].certificateDer ?? Buffer.alloc(0)),
        publicKeyId: k[name].publicKeyId ?? '',
        validFrom: iso(k[name].validFrom),
        validTo: iso(k[name].validTo),
        usage: [name],
      }));
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

    // ---------- KSeF tokens ----------
    async generateToken(caller: AccessClaims, body: { permissions: string[]; description: string }) {
      if (caller.method === 'Token') {
        throw forbidden('Token KSeF można wygenerować tylko po uwierzytelnieniu podpisem XAdES.');
      }
      requirePermission(caller, 'CredentialsManage');
      if (caller.context.type !== 'Nip' && caller.context.type !== 'InternalId') {
        throw badRequest(KSEF_CODES.inputValidation, 'Tokeny KSeF są dostępne w kontekście Nip lub InternalId.');
      }
      const auth = await repo.findAuthentication(caller.authReference);
      const now = clock.now();
      const ref = referenceNumber('EC', now);
      const token = `${ref}|${caller.context.type === 'Nip' ? 'nip' : 'internalId'}-${caller.context.value}|${randomBytes(32).toString('hex')}`;
      await repo.insertToken({
        referenceNumber: ref,
        tokenHash: createHash('sha256').update(token, 'utf8').digest('hex'),
        contextType: caller.context.type,
        contextValue: caller.context.value,
        authorType: auth?.subjectType === 'Fingerprint' ? 'Fingerprint' : 'Nip',
        authorValue: auth?.subjectValue ?? caller.context.value,
        description: body.description,
        permissions: [...new Set(body.permissions)],
        createdAt: now,
        activeAt: addMs(now, delay),
      });
      log.info({ reference: ref, context: caller.context.value }, 'KSeF simulator: KSeF token generated');
      return { referenceNumber: ref, token };
    },

    tokenView(row: NonNullable<Awaited<ReturnType<typeof repo.findToken>>>) {
      const now = clock.now();
      return {
        referenceNumber: row.referenceNumber,
        authorIdentifier: { type: row.authorType, value: row.authorValue },
        contextIdentifier: { type: row.contextType, value: row.contextValue },
        description: row.description,
        requestedPermissions: row.permissions,
        dateCreated: iso(row.createdAt),
        ...(row.lastUseAt ? { lastUseDate: iso(row.lastUseAt) } : {}),
        status: row.revokedAt ? 'Revoked' : now < row.activeAt ? 'Pending' : 'Active',
      };
    },

    async getToken(caller: AccessClaims, reference: string) {
      requirePermission(caller, 'CredentialsRead');
      const row = await repo.findToken(ctxOf(caller), reference);
      if (!row) throw badRequest(KSEF_CODES.inputValidation, 'Token o podanym numerze referencyjnym nie istnieje.');
      return this.tokenView(row);
    },

    async listTokens(
      caller: AccessClaims,
      pageSize: number,
      continuationToken: string | undefined,
      statuses: string[],
    ) {
      requirePermission(caller, 'CredentialsRead');
      const offset = offsetOf(continuationToken);
      const rows = await repo.listTokens(ctxOf(caller), pageSize + 1, offset);
      const tokens = rows.slice(0, pageSize).map((row) => this.tokenView(row));
      return {
        ...(rows.length > pageSize ? { continuationToken: continuation(offset + pageSize) } : {}),
        tokens: statuses.length ? tokens.filter((t) => statuses.includes(t.status)) : tokens,
      };
    },

    async revokeToken(caller: AccessClaims, reference: string) {
      requirePermission(caller, 'CredentialsManage');
      const row = await repo.findToken(ctxOf(caller), reference);
      if (!row) throw badRequest(KSEF_CODES.inputValidation, 'Token o podanym numerze referencyjnym nie istnieje.');
      await repo.revokeToken(reference, clock.now());
    },

    // ---------- online sessions ----------
    async openOnline(
      caller: AccessClaims,
      body: {
        formCode: { systemCode: string; schemaVersion: string; value: string };
        encryption: {
          encryptedSymmetricKey: string;
          initializationVector: string;
          publicKeyId?: string | null | undefined;
        };
      },
    ) {
      requirePermission(caller, 'InvoiceWrite');
      const f = body.formCode;
      if (f.systemCode !== FA3.systemCode || f.schemaVersion !== FA3.schemaVersion || f.value !== FA3.value) {
        throw badRequest(KSEF_CODES.inputValidation, 'Nieobsługiwany kod formularza.', [
          'Symulator przyjmuje FA (3), 1-0E, FA.',
        ]);
      }
      const { key, iv } = await unwrapKey(body.encryption);
      const now = clock.now();
      const auth = await repo.findAuthentication(caller.authReference);
      const ref = referenceNumber('SO', now);
      const validUntil = addMs(now, SESSION_HOURS * 3600 * 1000);
      await repo.insertSession({
        referenceNumber: ref,
        kind: 'Online',
        contextType: caller.context.type,
        contextValue: caller.context.value,
        authReference: caller.authReference,
        tokenReference: auth?.tokenReference ?? null,
        authDocumentHash: auth?.documentHash ?? null,
        formCode: FA3,
        symmetricKey: key ?? null,
        iv,
        statusCode: key ? 100 : 415,
        createdAt: now,
        updatedAt: now,
        validUntil,
      });
      log.info(
        { reference: ref, context: caller.context.value, status: key ? 100 : 415 },
        'KSeF simulator: online session opened',
      );
      return { referenceNumber: ref, validUntil: iso(validUntil) };
    },

    async sendInvoice(
      caller: AccessClaims,
      sessionRef: string,
      body: {
        invoiceHash: string;
        invoiceSize: number;
        encryptedInvoiceHash: string;
        encryptedInvoiceSize: number;
        encryptedInvoiceContent: string;
        offlineMode?: boolean | undefined;
      },
    ) {
      requirePermission(caller, 'InvoiceWrite');
      const now = clock.now();
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session || session.kind !== 'Online') {
        throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      }
      if (
        session.statusCode !== 100 ||
        session.closedAt ||
        session.validUntil < now ||
        !session.symmetricKey ||
        !session.iv
      ) {
        throw badRequest(KSEF_CODES.sessionStatusForbids, 'Status sesji nie pozwala na wykonanie operacji.');
      }
      if (body.invoiceSize > MAX_INVOICE_BYTES) {
        throw badRequest(KSEF_CODES.sizeMismatch, 'Przekroczono maksymalny rozmiar faktury (1 MB).');
      }
      const encrypted = base64(body.encryptedInvoiceContent, 'encryptedInvoiceContent');
      if (encrypted.length !== body.encryptedInvoiceSize) {
        throw badRequest(KSEF_CODES.sizeMismatch, 'Rozmiar zaszyfrowanej faktury nie zgadza się z podanym.');
      }
      if (sha256b64(encrypted) !== body.encryptedInvoiceHash) {
        throw badRequest(KSEF_CODES.hashMismatch, 'Skrót zaszyfrowanej faktury nie zgadza się z podanym.');
      }
      let plain: Buffer | undefined;
      try {
        plain = aesDecrypt(encrypted, session.symmetricKey, session.iv);
      } catch {
        plain = undefined;
      }
      if (plain && plain.length !== body.invoiceSize) {
        throw badRequest(KSEF_CODES.sizeMismatch, 'Rozmiar faktury nie zgadza się z podanym.');
      }
      if (plain && sha256b64(plain) !== body.invoiceHash) {
        throw badRequest(KSEF_CODES.hashMismatch, 'Skrót faktury nie zgadza się z podanym.');
      }
      const ordinal = await repo.nextOrdinal(sessionRef, MAX_SESSION_INVOICES, now);
      if (ordinal === undefined) {
        throw badRequest(KSEF_CODES.sessionInvoiceLimit, 'Przekroczono limit faktur w sesji.', [
          `Najwyżej ${MAX_SESSION_INVOICES} faktur w sesji.`,
        ]);
      }
      return recordInvoice({
        sessionRef,
        ordinal,
        contextValue: caller.context.value,
        invoiceHash: body.invoiceHash,
        invoicingMode: body.offlineMode ? 'Offline' : 'Online',
        fileName: null,
        plain,
        now,
      });
    },

    async openBatch(
      caller: AccessClaims,
      body: {
        formCode: { systemCode: string; schemaVersion: string; value: string };
        batchFile: {
          fileSize: number;
          fileHash: string;
          compressionType?: string | undefined;
          fileParts: { ordinalNumber: number; fileSize: number; fileHash: string }[];
        };
        encryption: {
          encryptedSymmetricKey: string;
          initializationVector: string;
          publicKeyId?: string | null | undefined;
        };
        offlineMode?: boolean | undefined;
      },
    ) {
      requirePermission(caller, 'InvoiceWrite');
      const f = body.formCode;
      if (f.systemCode !== FA3.systemCode || f.schemaVersion !== FA3.schemaVersion || f.value !== FA3.value) {
        throw badRequest(KSEF_CODES.inputValidation, 'Nieobsługiwany kod formularza.', [
          'Symulator przyjmuje FA (3), 1-0E, FA.',
        ]);
      }
      const parts = body.batchFile.fileParts;
      const ordinals = new Set(parts.map((p) => p.ordinalNumber));
      if (
        parts.length < 1 ||
        parts.length > BATCH_MAX_PARTS ||
        ordinals.size !== parts.length ||
        parts.some((p) => p.ordinalNumber < 1 || p.ordinalNumber > parts.length)
      ) {
        throw badRequest(KSEF_CODES.inputValidation, 'Nieprawidłowa lista części paczki.', [
          `Od 1 do ${BATCH_MAX_PARTS} części numerowanych od 1.`,
        ]);
      }
      const declared = parts.reduce((sum, p) => sum + p.fileSize, 0);
      if (
        parts.some((p) => p.fileSize > BATCH_PART_MAX_BYTES) ||
        declared > BATCH_MAX_BYTES ||
        body.batchFile.fileSize > BATCH_MAX_BYTES
      ) {
        throw badRequest(KSEF_CODES.inputValidation, 'Przekroczono dopuszczalny rozmiar paczki.', [
          `Symulator przyjmuje paczki do ${BATCH_MAX_BYTES / 1024 / 1024} MB.`,
        ]);
      }
      if (body.batchFile.compressionType && body.batchFile.compressionType !== 'Zip') {
        throw badRequest(KSEF_CODES.inputValidation, 'Symulator przyjmuje paczki ZIP.');
      }
      const { key, iv } = await unwrapKey(body.encryption);
      const now = clock.now();
      const auth = await repo.findAuthentication(caller.authReference);
      const ref = referenceNumber('SB', now);
      const batch: BatchInfo = {
        fileSize: body.batchFile.fileSize,
        fileHash: body.batchFile.fileHash,
        offlineMode: body.offlineMode ?? false,
        parts: parts.map((p) => ({ ordinalNumber: p.ordinalNumber, fileSize: p.fileSize, fileHash: p.fileHash })),
      };
      await repo.insertSession({
        referenceNumber: ref,
        kind: 'Batch',
        contextType: caller.context.type,
        contextValue: caller.context.value,
        authReference: caller.authReference,
        tokenReference: auth?.tokenReference ?? null,
        authDocumentHash: auth?.documentHash ?? null,
        formCode: FA3,
        symmetricKey: key ?? null,
        iv,
        statusCode: key ? 100 : 415,
        createdAt: now,
        updatedAt: now,
        validUntil: addMs(now, parts.length * 20 * 60 * 1000),
        batch,
      });
      const partUploadRequests = [];
      for (const part of [...parts].sort((a, b) => a.ordinalNumber - b.ordinalNumber)) {
        const url = await presign('batch-part', ref, String(part.ordinalNumber), now);
        partUploadRequests.push({
          ordinalNumber: part.ordinalNumber,
          method: 'PUT',
          url: url.url,
          headers: { 'Content-Type': 'application/octet-stream', 'x-ms-blob-type': 'BlockBlob' },
        });
      }
      log.info(
        { reference: ref, context: caller.context.value, parts: parts.length },
        'KSeF simulator: batch session opened',
      );
      return { referenceNumber: ref, partUploadRequests };
    },

    /** A part's upload to its pre-signed URL: streamed to the blob store, held to the declared size and hash. */
    async uploadBatchPart(
      sessionRef: string,
      ordinal: string,
      se: string,
      sig: string,
      body: AsyncIterable<Uint8Array>,
    ) {
      await checkPresigned('batch-part', sessionRef, ordinal, se, sig);
      const session = await repo.findSessionByReference(sessionRef);
      const part = (session?.batch as BatchInfo | null | undefined)?.parts.find(
        (p) => String(p.ordinalNumber) === ordinal,
      );
      if (!session || !part || session.kind !== 'Batch')
        throw badRequest(KSEF_CODES.noSuchSession, 'Sesja nie istnieje.');
      if (session.closedAt || session.statusCode !== 100 || session.validUntil < clock.now()) {
        throw badRequest(KSEF_CODES.uploadTimeout, 'Czas na przesłanie części minął lub sesja jest zamknięta.');
      }
      const hash = createHash('sha256');
      let size = 0;
      async function* counted() {
        for await (const chunk of body) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      }
      const key = partKey(sessionRef, part.ordinalNumber);
      try {
        await deps.blobs.put(key, counted(), { contentType: 'application/octet-stream', maxBytes: part.fileSize });
      } catch (error) {
        if (error instanceof BlobTooLargeError)
          throw badRequest(KSEF_CODES.sizeMismatch, 'Część jest większa niż zadeklarowano.');
        throw error;
      }
      if (size !== part.fileSize || hash.digest('base64') !== part.fileHash) {
        await deps.blobs.delete(key);
        throw badRequest(
          size !== part.fileSize ? KSEF_CODES.sizeMismatch : KSEF_CODES.hashMismatch,
          'Część nie zgadza się z deklaracją.',
        );
      }
    },

    async closeBatch(caller: AccessClaims, sessionRef: string) {
      requirePermission(caller, 'InvoiceWrite');
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session || session.kind !== 'Batch') {
        throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      }
      if (session.closedAt || session.statusCode !== 100 || session.validUntil < clock.now()) {
        throw badRequest(KSEF_CODES.sessionStatusForbids, 'Status sesji nie pozwala na wykonanie operacji.');
      }
      const missing = [];
      for (const part of (session.batch as BatchInfo).parts) {
        if (!(await deps.blobs.stat(partKey(sessionRef, part.ordinalNumber)))) missing.push(part.ordinalNumber);
      }
      if (missing.length) {
        throw badRequest(KSEF_CODES.sessionStatusForbids, 'Nie przesłano wszystkich części paczki.', [
          `Brak części: ${missing.join(', ')}.`,
        ]);
      }
      await repo.closeSession(sessionRef, clock.now(), null);
      log.info({ reference: sessionRef }, 'KSeF simulator: batch session closed');
      void ensureProcessing(sessionRef);
    },

    /** For tests and a graceful stop: waits for the batch processing under way in this process. */
    async settle(): Promise<void> {
      await Promise.all([...processing.values()]);
    },

    async closeOnline(caller: AccessClaims, sessionRef: string) {
      requirePermission(caller, 'InvoiceWrite');
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session || session.kind !== 'Online') {
        throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      }
      const now = clock.now();
      if (session.closedAt || session.statusCode !== 100 || session.validUntil < now) {
        throw badRequest(KSEF_CODES.sessionStatusForbids, 'Status sesji nie pozwala na wykonanie operacji.');
      }
      const counts = await repo.sessionCounts(sessionRef, now);
      const last = counts.lastDecidedAt && counts.lastDecidedAt > now ? counts.lastDecidedAt : now;
      await repo.closeSession(sessionRef, now, addMs(last, delay));
      log.info({ reference: sessionRef }, 'KSeF simulator: online session closed');
    },

    async getSession(caller: AccessClaims, sessionRef: string) {
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      return sessionView(session, clock.now());
    },

    async listSessions(
      caller: AccessClaims,
      query: {
        sessionType: string;
        referenceNumber?: string | undefined;
        pageSize: number;
        continuationToken?: string | undefined;
      },
    ) {
      const offset = offsetOf(query.continuationToken);
      const rows = await repo.listSessions(
        ctxOf(caller),
        { kind: query.sessionType, referenceNumber: query.referenceNumber },
        query.pageSize + 1,
        offset,
      );
      const now = clock.now();
      const sessions = [];
      for (const row of rows.slice(0, query.pageSize)) {
        const view = await sessionView(row, now);
        sessions.push({
          referenceNumber: row.referenceNumber,
          status: view.status,
          dateCreated: view.dateCreated,
          dateUpdated: view.dateUpdated,
          validUntil: view.validUntil,
          totalInvoiceCount: view.invoiceCount,
          successfulInvoiceCount: view.successfulInvoiceCount,
          failedInvoiceCount: view.failedInvoiceCount,
        });
      }
      return {
        ...(rows.length > query.pageSize ? { continuationToken: continuation(offset + query.pageSize) } : {}),
        sessions,
      };
    },

    async sessionInvoices(
      caller: AccessClaims,
      sessionRef: string,
      onlyFailed: boolean,
      pageSize: number,
      continuationToken: string | undefined,
    ) {
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      const offset = offsetOf(continuationToken);
      const now = clock.now();
      const rows = await repo.listSessionInvoices(sessionRef, onlyFailed, pageSize + 1, offset);
      const visible = onlyFailed ? rows.filter((r) => r.decidedAt <= now) : rows;
      const invoices = [];
      for (const row of visible.slice(0, pageSize)) invoices.push(await invoiceView(row, now));
      return {
        ...(rows.length > pageSize ? { continuationToken: continuation(offset + pageSize) } : {}),
        invoices,
      };
    },

    async invoiceStatus(caller: AccessClaims, sessionRef: string, invoiceRef: string) {
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      const row = await repo.findInvoice(sessionRef, invoiceRef);
      if (!row) throw badRequest(KSEF_CODES.invoiceNotFound, 'Faktura o podanym numerze referencyjnym nie istnieje.');
      return invoiceView(row, clock.now());
    },

    /** A per-invoice UPO, by the invoice's reference or its KSeF number; `caller` undefined: a pre-signed URL. */
    async invoiceUpo(
      caller: AccessClaims | undefined,
      sessionRef: string,
      by: { invoiceRef?: string; ksefNumber?: string },
    ) {
      const session = caller
        ? await repo.findSession(ctxOf(caller), sessionRef)
        : await repo.findSessionByReference(sessionRef);
      if (!session) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      const row = by.invoiceRef
        ? await repo.findInvoice(sessionRef, by.invoiceRef)
        : by.ksefNumber
          ? await repo.findInvoiceByKsefNumber(by.ksefNumber)
          : undefined;
      if (!row || row.sessionReference !== sessionRef || !row.accepted || clock.now() < row.decidedAt) {
        throw badRequest(KSEF_CODES.upoNotFound, 'UPO nie zostało odnalezione.');
      }
      return signUpo(session, [upoDocument(row)], row.decidedAt);
    },

    async sessionUpo(caller: AccessClaims | undefined, sessionRef: string, upoRef: string) {
      const stored = caller
        ? await repo.findSession(ctxOf(caller), sessionRef)
        : await repo.findSessionByReference(sessionRef);
      if (!stored) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      const now = clock.now();
      const session = effective(stored, now);
      const view = await sessionView(session, now);
      const page = view.upo?.pages.findIndex((p) => p.referenceNumber === upoRef) ?? -1;
      if (!view.upo || page < 0 || !session.processedAt)
        throw badRequest(KSEF_CODES.upoNotFound, 'UPO nie zostało odnalezione.');
      const accepted: SimInvoiceRow[] = [];
      for (let offset = 0; ; offset += 1000) {
        const rows = await repo.listSessionInvoices(sessionRef, false, 1000, offset);
        accepted.push(...rows.filter((r) => r.accepted));
        if (rows.length < 1000) break;
      }
      const from = page * MAX_SESSION_INVOICES;
      const docs = accepted.slice(from, from + MAX_SESSION_INVOICES).map(upoDocument);
      return signUpo(session, docs, session.processedAt, {
        number: page + 1,
        pages: view.upo.pages.length,
        from: from + 1,
        to: from + docs.length,
        total: accepted.length,
      });
    },

    async presignedUpo(kind: string, a: string, b: string, se: string, sig: string) {
      await checkPresigned(kind, a, b, se, sig);
      if (kind === 'upo-invoice') return this.invoiceUpo(undefined, a, { invoiceRef: b });
      if (kind === 'upo-session') return this.sessionUpo(undefined, a, b);
      throw forbidden('Adres jest nieprawidłowy.', 'invalid-signature');
    },

    // ---------- KOD I ----------
    /**
     * The KOD I page's answer (`/ksef-simulator/invoice/{NIP}/{DD-MM-YYYY}/{SHA-256 Base64URL}`): the accepted
     * invoice of that seller, issue date and hash, with what KSeF's page shows of it before any login (number, KSeF
     * number, date, seller, amounts); undefined when none is known (or not yet decided).
     */
    async verifyInvoice(nip: string, date: string, hashUrl: string) {
      const day = /^(\d{2})-(\d{2})-(\d{4})$/.exec(date);
      if (!/^\d{10}$/.test(nip) || !day || !/^[A-Za-z0-9_-]{43}$/.test(hashUrl)) return undefined;
      const hash = Buffer.from(hashUrl, 'base64url').toString('base64');
      const row = await repo.findAcceptedByHash(nip, hash);
      if (!row || row.issueDate !== `${day[3]}-${day[2]}-${day[1]}` || clock.now() < row.decidedAt) return undefined;
      const m = invoiceMetadata(row);
      return {
        ksefNumber: m.ksefNumber,
        invoiceNumber: m.invoiceNumber,
        issueDate: m.issueDate,
        acquisitionDate: m.acquisitionDate,
        seller: m.seller,
        buyer: m.buyer,
        grossAmount: m.grossAmount,
        currency: m.currency,
      };
    },

    // ---------- receiving ----------
    async invoiceByKsefNumber(caller: AccessClaims, ksefNumber: string) {
      requirePermission(caller, 'InvoiceRead');
      const row = await repo.findInvoiceByKsefNumber(ksefNumber);
      const nip = nipOfContext(caller.context);
      if (!row || !row.accepted || (row.sellerNip !== nip && row.buyerNip !== nip)) {
        throw badRequest(KSEF_CODES.invoiceNotFound, 'Faktura o podanym numerze KSeF nie istnieje.');
      }
      if (clock.now() < row.decidedAt)
        throw badRequest(KSEF_CODES.notYetAvailable, 'Faktura nie jest jeszcze dostępna.');
      const xml = (await repo.invoiceXmls([row.referenceNumber])).get(row.referenceNumber) ?? '';
      return { xml, hash: sha256b64(Buffer.from(xml, 'utf8')) };
    },

    async queryMetadata(
      caller: AccessClaims,
      filters: { subjectType: string; dateRange: { dateType: string; from: string; to?: string | null | undefined } },
      page: { pageOffset: number; pageSize: number; sortOrder: 'Asc' | 'Desc' },
    ) {
      requirePermission(caller, 'InvoiceRead');
      const now = clock.now();
      const side =
        filters.subjectType === 'Subject1' ? 'seller' : filters.subjectType === 'Subject2' ? 'buyer' : undefined;
      if (!side) return { hasMore: false, isTruncated: false, permanentStorageHwmDate: iso(now), invoices: [] };
      const from = new Date(filters.dateRange.from);
      const toAsked = filters.dateRange.to ? new Date(filters.dateRange.to) : now;
      const to = toAsked < now ? toAsked : now;
      const offset = page.pageOffset * page.pageSize;
      const rows = await repo.listReceivable(
        { side, nip: nipOfContext(caller.context), from, to },
        page.pageSize + 1,
        offset,
        page.sortOrder === 'Desc' ? 'desc' : 'asc',
      );
      return {
        hasMore: rows.length > page.pageSize,
        isTruncated: offset + page.pageSize >= 10_000 && rows.length > page.pageSize,
        permanentStorageHwmDate: iso(now),
        invoices: rows.slice(0, page.pageSize).map(invoiceMetadata),
      };
    },

    async createExport(
      caller: AccessClaims,
      body: {
        encryption: {
          encryptedSymmetricKey: string;
          initializationVector: string;
          publicKeyId?: string | null | undefined;
        };
        onlyMetadata?: boolean | undefined;
        filters: { subjectType: string; dateRange: { dateType: string; from: string; to?: string | null | undefined } };
      },
    ) {
      requirePermission(caller, 'InvoiceRead');
      const now = clock.now();
      if ((await repo.countRunningExports(ctxOf(caller), now)) >= 10) {
        throw badRequest(KSEF_CODES.concurrentExports, 'Przekroczono limit równoczesnych eksportów.');
      }
      const { key, iv } = await unwrapKey(body.encryption);
      const ref = referenceNumber('EH', now);
      const base = {
        referenceNumber: ref,
        contextType: caller.context.type,
        contextValue: caller.context.value,
        createdAt: now,
        readyAt: addMs(now, delay),
        expiresAt: addMs(now, EXPORT_KEEP_SECONDS * 1000),
      };
      if (!key) {
        await repo.insertExport({ ...base, status: status(415, 'Błąd odszyfrowania dostarczonego klucza') });
        return { referenceNumber: ref };
      }
      const side =
        body.filters.subjectType === 'Subject1'
          ? 'seller'
          : body.filters.subjectType === 'Subject2'
            ? 'buyer'
            : undefined;
      const from = new Date(body.filters.dateRange.from);
      const toAsked = body.filters.dateRange.to ? new Date(body.filters.dateRange.to) : now;
      const to = toAsked < now ? toAsked : now;
      const rows = side
        ? await repo.listReceivable({ side, nip: nipOfContext(caller.context), from, to }, EXPORT_MAX_INVOICES + 1, 0)
        : [];
      const files: { name: string; data: Buffer }[] = [];
      const included: SimInvoiceRow[] = [];
      let bytes = 0;
      let truncated = rows.length > EXPORT_MAX_INVOICES;
      const candidates = rows.slice(0, EXPORT_MAX_INVOICES);
      // The documents are read 100 at a time, up to the package's byte cap.
      let full = false;
      for (let start = 0; start < candidates.length && !full; start += 100) {
        const chunk = candidates.slice(start, start + 100);
        const xmls = body.onlyMetadata
          ? new Map<string, string>()
          : await repo.invoiceXmls(chunk.map((r) => r.referenceNumber));
        for (const row of chunk) {
          const data = Buffer.from(xmls.get(row.referenceNumber) ?? '', 'utf8');
          if (bytes + data.length > EXPORT_MAX_BYTES) {
            truncated = true;
            full = true;
            break;
          }
          bytes += data.length;
          included.push(row);
          if (!body.onlyMetadata) files.push({ name: `${row.ksefNumber ?? row.referenceNumber}.xml`, data });
        }
      }
      files.push({
        name: '_metadata.json',
        data: Buffer.from(JSON.stringify({ invoices: included.map(invoiceMetadata) }), 'utf8'),
      });
      const zip = await zipOf(files);
      const content = aesEncrypt(zip, key, iv);
      const last = included.at(-1);
      const pkg = {
        invoiceCount: included.length,
        size: zip.length,
        parts: [
          {
            ordinalNumber: 1,
            partName: `${ref}-001.zip.aes`,
            method: 'GET',
            partSize: zip.length,
            partHash: sha256b64(zip),
            encryptedPartSize: content.length,
            encryptedPartHash: sha256b64(content),
          },
        ],
        isTruncated: truncated,
        ...(last
          ? {
              lastIssueDate: last.issueDate,
              lastInvoicingDate: iso(last.receivedAt),
              lastPermanentStorageDate: iso(last.decidedAt),
            }
          : {}),
        permanentStorageHwmDate: iso(to),
      };
      await repo.insertExport({
        ...base,
        status: status(200, 'Eksport faktur zakończony sukcesem'),
        package: pkg,
        content,
      });
      log.info(
        { reference: ref, context: caller.context.value, invoices: included.length },
        'KSeF simulator: export prepared',
      );
      return { referenceNumber: ref };
    },

    async exportStatus(caller: AccessClaims, reference: string) {
      requirePermission(caller, 'InvoiceRead');
      const row = await repo.findExport(reference);
      if (!row || row.contextType !== caller.context.type || row.contextValue !== caller.context.value) {
        throw badRequest(KSEF_CODES.inputValidation, 'Eksport o podanym numerze referencyjnym nie istnieje.');
      }
      const now = clock.now();
      if (now < row.readyAt) return { status: status(100, 'Eksport faktur w toku') };
      if (now > row.expiresAt) return { status: status(210, 'Eksport wygasł') };
      if (row.status.code !== 200 || !row.package) return { status: row.status };
      const pkg = row.package as { parts: Record<string, unknown>[] } & Record<string, unknown>;
      const parts = [];
      for (const part of pkg.parts) {
        const url = await presign('export', row.referenceNumber, String(part.ordinalNumber), now);
        parts.push({ ...part, url: url.url, expirationDate: url.expirationDate });
      }
      return {
        status: row.status,
        completedDate: iso(row.readyAt),
        packageExpirationDate: iso(row.expiresAt),
        package: { ...pkg, parts },
      };
    },

    async presignedExportPart(reference: string, part: string, se: string, sig: string) {
      await checkPresigned('export', reference, part, se, sig);
      const row = await repo.findExport(reference);
      if (!row?.content || part !== '1') throw badRequest(KSEF_CODES.inputValidation, 'Część eksportu nie istnieje.');
      return { bytes: Buffer.from(row.content), hash: sha256b64(row.content) };
    },

    // ---------- limits ----------
    rateLimits() {
      const l = limiter.limits;
      const { auth: _auth, ...rest } = l;
      return rest;
    },
    contextLimits() {
      return {
        onlineSession: {
          maxInvoiceSizeInMB: 1,
          maxInvoiceWithAttachmentSizeInMB: 3,
          maxInvoices: MAX_SESSION_INVOICES,
        },
        batchSession: { maxInvoiceSizeInMB: 1, maxInvoiceWithAttachmentSizeInMB: 3, maxInvoices: MAX_SESSION_INVOICES },
      };
    },
  };
}

export type KsefSimulatorService = ReturnType<typeof createKsefSimulatorService>;
