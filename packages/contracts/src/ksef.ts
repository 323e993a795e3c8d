import { z } from 'zod';
import { isValidNip } from './identifiers.ts';
import { text } from './rules.ts';

/**
 * A company's KSeF connection (issue 13, part 3): its NIP, which KSeF it talks to, and how it logs in. The secrets (a
 * KSeF token, a certificate's private key) are written once and never read back: the API says only whether one is
 * set, and the certificate's subject and validity.
 */

/** Where the company's invoices go: the portal's simulator, KSeF's TEST, DEMO or production, or another address. */
export const KSEF_ENVIRONMENT_NAMES = ['simulator', 'test', 'demo', 'production', 'custom'] as const;
export const KsefEnvironmentSchema = z.enum(KSEF_ENVIRONMENT_NAMES);
export type KsefEnvironmentName = z.infer<typeof KsefEnvironmentSchema>;

export const KSEF_AUTH_METHODS = ['token', 'certificate'] as const;
export const KsefAuthMethodSchema = z.enum(KSEF_AUTH_METHODS);

/** A KSeF token is about 160 characters; anything much longer is not one. */
export const KSEF_TOKEN_MAX = 1000;
/** A certificate file (PKCS#12 or PEM with its key) is a few kilobytes. */
export const KSEF_CERTIFICATE_MAX_BYTES = 64 * 1024;

const nip = text({ error: 'required' })
  .trim()
  .max(20, 'invalidNip')
  .transform((v) => v.replace(/[\s-]/g, ''))
  .refine((v) => v.length > 0, 'required')
  .refine((v) => isValidNip(v), 'invalidNip');

export const KsefSettingsUpdateSchema = z
  .object({
    nip,
    environment: KsefEnvironmentSchema,
    /** Only for `custom`: the API base, e.g. `https://api-test.ksef.mf.gov.pl/v2`. */
    baseUrl: text()
      .trim()
      .max(500, 'tooLong')
      .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), 'invalidUrl')
      .optional(),
    authMethod: KsefAuthMethodSchema,
    /** A new KSeF token; absent or empty keeps the one set before. */
    token: text().trim().max(KSEF_TOKEN_MAX, 'tooLong').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.environment === 'custom' && !v.baseUrl) {
      ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'required' });
    }
  });
export type KsefSettingsUpdate = z.input<typeof KsefSettingsUpdateSchema>;

/** What the API shows of the settings: never a secret. */
export const KsefConnectionSchema = z.object({
  configured: z.boolean(),
  nip: z.string().nullable(),
  environment: KsefEnvironmentSchema.nullable(),
  baseUrl: z.string().nullable(),
  authMethod: KsefAuthMethodSchema.nullable(),
  hasToken: z.boolean(),
  certificate: z
    .object({ subject: z.string(), validFrom: z.string(), validTo: z.string(), fingerprint: z.string() })
    .nullable(),
  updatedAt: z.string().nullable(),
  /** When the last run of the receiving job finished (`ksef.receive`); null before the first. */
  receivedAt: z.string().nullable(),
});
export type KsefConnectionView = z.infer<typeof KsefConnectionSchema>;

/** The answer of "Test the connection": a login to the chosen KSeF, or what KSeF said. */
export const KsefConnectionTestSchema = z.object({
  ok: z.boolean(),
  /** KSeF's error or status code when it refused (21115, 450…), null when the request did not reach it. */
  code: z.number().nullable(),
  message: z.string().nullable(),
});
export type KsefConnectionTest = z.infer<typeof KsefConnectionTestSchema>;
export type KsefSettings = KsefConnectionView;

/** The answer of "Receive now" (202): the company's receiving job is queued; received invoices land in the inbox. */
export const KsefReceiveAcceptedSchema = z.object({ queued: z.literal(true) });
export type KsefReceiveAccepted = z.infer<typeof KsefReceiveAcceptedSchema>;

/**
 * The portal's own codes of a submission (its `errorCode`), in a range KSeF's invoice status codes (100 to 550, NOTES
 * §5) never use. The web words each one (`ksef:submission.code.<code>`), as it does KSeF's; `errorDetails` holds only
 * data, never a sentence.
 */
export const KSEF_PORTAL_CODES = {
  /** `queued`: a correction waits for the KSeF number of the invoice it corrects; details: `FV/1 (2026-11-16)`. */
  correctionWaiting: 9001,
  /** `failed`: that invoice was still on its way to KSeF after the correction's last wait; details as above. */
  correctionWaitLimit: 9002,
  /** `failed`: the outbox document to send is no longer there; no details. */
  documentGone: 9003,
  /** `rejected`: the portal's own FA(3) check (the seller's NIP, the XSD) refused the invoice; details: its reasons. */
  invoiceCheck: 9004,
} as const;
export type KsefPortalCode = (typeof KSEF_PORTAL_CODES)[keyof typeof KSEF_PORTAL_CODES];
/** The portal's range: 9000 to 9999. */
export const isKsefPortalCode = (code: number): boolean => code >= 9000 && code <= 9999;

/** What the document view shows of an invoice's way to KSeF (the description's KSeF list labels among them). */
export const KSEF_SUBMISSION_STATES = ['queued', 'sending', 'accepted', 'rejected', 'failed'] as const;
export const KsefSubmissionViewSchema = z.object({
  state: z.enum(KSEF_SUBMISSION_STATES),
  /** KSeF reference number. */
  ksefNumber: z.string().nullable(),
  /** Acquisition timestamp. */
  acquisitionDate: z.string().nullable(),
  /** Session number. */
  sessionReference: z.string().nullable(),
  /** Element number. */
  elementReference: z.string().nullable(),
  /** Token: the authentication's or KSeF token's reference, never a secret. */
  tokenReference: z.string().nullable(),
  /** KSeF's invoice status code of a refusal (410, 450…), or one of the portal's own (`KSEF_PORTAL_CODES`). */
  errorCode: z.number().nullable(),
  /**
   * The Ministry's reasons (450) as KSeF gave them, or the data of a portal code (the corrected invoice, the FA(3)
   * check's reasons), or a failure's technical message. The web words a code's meaning in the user's language.
   */
  errorDetails: z.array(z.string()),
  hasUpo: z.boolean(),
  updatedAt: z.string(),
});
export type KsefSubmissionView = z.infer<typeof KsefSubmissionViewSchema>;
