/**
 * What the parts of the KSeF simulator's service share: its options and caller types, the session limits, the FA(3)
 * form code, status objects, continuation tokens and the small checks every operation makes.
 */
import type { Clock } from '../../lib/clock.ts';
import { badRequest, forbidden, KSEF_CODES } from './ksef-errors.ts';
import type { KsefSimStatus, KsefSimulatorRepository, SimAuthRow } from './ksef-simulator.repository.ts';
import type { RateLimitGroup, RateLimitValues } from './sim-rate-limits.ts';

export type KsefSimulatorOptions = {
  /** Absolute base of the simulator's API (`…/ksef-simulator/v2`), for pre-signed URLs. */
  baseUrl: string;
  /** Between the stages of an asynchronous operation (100 → 150 → final). */
  delayMs: number;
  accessTtlSeconds: number;
  refreshTtlSeconds?: number;
  rateLimits?: Partial<Record<RateLimitGroup, RateLimitValues>>;
};

export type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** What every part of the service is built on; `delay` is `options.delayMs`. */
export type SimBase = { repo: KsefSimulatorRepository; clock: Clock; log: Log; delay: number };

export type ContextIdentifier = { type: 'Nip' | 'InternalId' | 'NipVatUe' | 'PeppolId'; value: string };
export type AccessClaims = {
  authReference: string;
  context: ContextIdentifier;
  permissions: string[];
  method: string;
};

/** A session's `encryption`: the symmetric key wrapped with the SymmetricKeyEncryption key, and the IV. */
export type EncryptionInfo = {
  encryptedSymmetricKey: string;
  initializationVector: string;
  publicKeyId?: string | null | undefined;
};
export type FormCode = { systemCode: string; schemaVersion: string; value: string };

export const MAX_INVOICE_BYTES = 1024 * 1024;
export const MAX_SESSION_INVOICES = 10_000;

export const FA3 = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' };

/** Sessions take FA(3) only. */
export function checkFormCode(f: FormCode): void {
  if (f.systemCode !== FA3.systemCode || f.schemaVersion !== FA3.schemaVersion || f.value !== FA3.value) {
    throw badRequest(KSEF_CODES.inputValidation, 'Nieobsługiwany kod formularza.', [
      'Symulator przyjmuje FA (3), 1-0E, FA.',
    ]);
  }
}

/**
 * The columns an online and a batch session are opened with alike: the caller's context and authentication, and the
 * unwrapped key (without one the session is 415 from the start).
 */
export const openedSession = (
  caller: AccessClaims,
  auth: SimAuthRow | undefined,
  key: Buffer | undefined,
  iv: Buffer,
  now: Date,
) => ({
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
});

export const status = (code: number, description: string, details?: string[]): KsefSimStatus =>
  details && details.length ? { code, description, details } : { code, description };

export const addMs = (date: Date, ms: number) => new Date(date.getTime() + ms);
export const iso = (date: Date) => date.toISOString();

/** Continuation tokens are offsets; a forged one is a 400 (21405). */
export const offsetOf = (token: string | undefined): number => {
  if (!token) return 0;
  const n = Number(Buffer.from(token, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(n) || n < 0 || n > 1_000_000) {
    throw badRequest(KSEF_CODES.inputValidation, 'Nieprawidłowy token kontynuacji.');
  }
  return n;
};
export const continuation = (offset: number) => Buffer.from(String(offset), 'utf8').toString('base64url');

/** Reads a base64 field strictly (the API's `format: byte`). */
export const base64 = (value: string, field: string): Buffer => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
    throw badRequest(KSEF_CODES.inputValidation, `Nieprawidłowa wartość Base64: ${field}.`);
  }
  return Buffer.from(value, 'base64');
};

export const nipOfContext = (context: ContextIdentifier): string => context.value.slice(0, 10);

export const requirePermission = (caller: AccessClaims, permission: string) => {
  if (!caller.permissions.includes(permission)) {
    throw forbidden(`Brak uprawnienia ${permission} w kontekście ${caller.context.value}.`);
  }
};
export const ctxOf = (caller: AccessClaims) => ({
  contextType: caller.context.type,
  contextValue: caller.context.value,
});
