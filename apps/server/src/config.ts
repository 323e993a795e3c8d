import { resolve } from 'node:path';
import { z } from 'zod';
import { INBOUND_MAX_BYTES } from '@portal/contracts';
import { parseStorageUrl, StorageUrlError, type StorageLocation } from './storage/storage-url.ts';

/** Every setting of the server, read from the environment once at start (README lists them). */
const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Open EDI Portal <no-reply@localhost>'),
  SUPPORT_EMAIL: z.email().default('support@localhost.localdomain'),
  PUBLIC_URL: z.url().optional(),
  LEGACY_EDI_URL: z.url().default('https://legacy-edi.example.com/'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JWT_PRIVATE_KEY: z.string().optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
  DEMO_DATA: booleanString.default(true),
  TRUST_PROXY: booleanString.default(false),
  WEB_DIST: z.string().optional(),
  EDIFACT_DIRECTORIES_IMPORT: z.string().optional(),
  EDIFACT_DOWNLOAD_BASE_URL: z.url().optional(),
  CPU_TASK_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(30_000),
  CPU_QUEUE_WAIT_MS: z.coerce.number().int().min(1).max(600_000).default(30_000),
  DOCUMENTS_INLINE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(2 * 1024 * 1024),
  /** The largest body of `POST /api/documents/inbound`, read as a stream (at most the contract's 100 MB). */
  INBOUND_MAX_BYTES: z.coerce.number().int().min(1024).max(INBOUND_MAX_BYTES).default(INBOUND_MAX_BYTES),
  /** Messages per batch of the documents' ingest (decision 0024). */
  DOCUMENTS_INGEST_BATCH_MESSAGES: z.coerce.number().int().min(1).max(100_000).default(500),
  CPU_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  STORAGE_URL: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        parseStorageUrl(value);
      } catch (error) {
        if (!(error instanceof StorageUrlError)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message });
      }
    }),
  EDIFACT_SHIPPED_DIRECTORIES: booleanString.default(true),
  JOB_WORKERS: booleanString.default(true),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
  /** An OpenAI-compatible endpoint that phrases the help assistant's answers (decision 0031); none: passages only. */
  CHAT_LLM_URL: z.url().optional(),
  CHAT_LLM_MODEL: z.string().min(1).max(200).default('gpt-4o-mini'),
  CHAT_LLM_API_KEY: z.string().min(1).optional(),
  CHAT_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  CHAT_QUESTIONS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Rebuild the help index when the article files change (development). */
  CHAT_HELP_WATCH: booleanString.default(false),
  /** 32 bytes in base64: seals the secrets companies give (KSeF tokens and keys); unset, DATA_DIR/secrets.key. */
  SECRETS_KEY: z.string().min(1).optional(),
  /** Between a company's runs of receiving invoices from KSeF (on KSeF itself never under 15 minutes). */
  KSEF_RECEIVE_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  /** The embedded KSeF simulator at /ksef-simulator/v2 (issue 13 §2). */
  KSEF_SIMULATOR: booleanString.default(true),
  KSEF_SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  KSEF_SIMULATOR_ACCESS_TTL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(900),
  /** JSON overrides of its rate limits by group, e.g. `{"invoiceSend":{"perSecond":1,"perMinute":5,"perHour":50}}`. */
  KSEF_SIMULATOR_RATE_LIMITS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return {};
      const Limits = z.record(
        z.string(),
        z.object({
          perSecond: z.number().int().min(1),
          perMinute: z.number().int().min(1),
          perHour: z.number().int().min(1),
        }),
      );
      try {
        const parsed = Limits.safeParse(JSON.parse(value));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object of {perSecond, perMinute, perHour} by group' });
      return z.NEVER;
    }),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  publicUrl: string;
  legacyEdiUrl: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  jwtPrivateKey: string | undefined;
  /** Seals company secrets at rest (decision 0037); undefined: a key file in DATA_DIR. */
  secretsKey: string | undefined;
  accessTokenTtlSeconds: number;
  demoData: boolean;
  trustProxy: boolean;
  webDist: string | undefined;
  edifactDirectoriesImport: string[];
  edifactDownloadBaseUrl: string | undefined;
  /** Import the D96A and D01B zips shipped with packages/edifact on first start. */
  edifactShippedDirectories: boolean;
  /** Longest a CPU pool task (validation, CONTRL, a directory zip) may run. */
  cpuTaskTimeoutMs: number;
  /** Longest a CPU pool task may wait for a thread before it is answered `server.busy`. */
  cpuQueueWaitMs: number;
  /** Uploaded files up to this size are ingested while the upload waits; larger ones by the job alone (0022). */
  documentsInlineMaxBytes: number;
  documentsIngestBatchMessages: number;
  inboundMaxBytes: number;
  /** Threads of the CPU pool (unset: the cores less one, 1 to 4). */
  cpuThreads: number | undefined;
  /** Where blobs live: the database unless STORAGE_URL names an S3-compatible bucket. */
  storage: StorageLocation;
  /** Run the job workers in this process (false: an API-only process, with `npm run worker` elsewhere). */
  jobWorkers: boolean;
  /** How often an idle job worker looks for due jobs. */
  jobPollSeconds: number;
  /** The help assistant: its model (absent: answers from the passages alone), rate limit and index rebuilds. */
  chat: {
    model: { url: string; model: string; apiKey: string | undefined; timeoutMs: number } | undefined;
    questionsPerMinute: number;
    watchHelp: boolean;
  };
  /** Between a company's runs of the `ksef.receive` job (KSEF_RECEIVE_INTERVAL_MS). */
  ksefReceiveIntervalMs: number;
  /** The embedded KSeF simulator: on unless KSEF_SIMULATOR=false; its stage delay, access-token lifetime, rate limits. */
  ksefSimulator: {
    enabled: boolean;
    delayMs: number;
    accessTtlSeconds: number;
    rateLimits: Record<string, { perSecond: number; perMinute: number; perHour: number }>;
  };
};

export class ConfigError extends Error {}

/** Parses the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    publicUrl,
    legacyEdiUrl: e.LEGACY_EDI_URL,
    logLevel: e.LOG_LEVEL,
    jwtPrivateKey: e.JWT_PRIVATE_KEY,
    secretsKey: e.SECRETS_KEY,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    demoData: e.DEMO_DATA,
    trustProxy: e.TRUST_PROXY,
    webDist: e.WEB_DIST,
    edifactDownloadBaseUrl: e.EDIFACT_DOWNLOAD_BASE_URL,
    edifactShippedDirectories: e.EDIFACT_SHIPPED_DIRECTORIES,
    cpuTaskTimeoutMs: e.CPU_TASK_TIMEOUT_MS,
    cpuQueueWaitMs: e.CPU_QUEUE_WAIT_MS,
    documentsInlineMaxBytes: e.DOCUMENTS_INLINE_MAX_BYTES,
    documentsIngestBatchMessages: e.DOCUMENTS_INGEST_BATCH_MESSAGES,
    inboundMaxBytes: e.INBOUND_MAX_BYTES,
    cpuThreads: e.CPU_THREADS,
    storage: parseStorageUrl(e.STORAGE_URL),
    jobWorkers: e.JOB_WORKERS,
    jobPollSeconds: e.JOB_POLL_SECONDS,
    chat: {
      model: e.CHAT_LLM_URL
        ? { url: e.CHAT_LLM_URL, model: e.CHAT_LLM_MODEL, apiKey: e.CHAT_LLM_API_KEY, timeoutMs: e.CHAT_LLM_TIMEOUT_MS }
        : undefined,
      questionsPerMinute: e.CHAT_QUESTIONS_PER_MINUTE,
      watchHelp: e.CHAT_HELP_WATCH,
    },
    ksefReceiveIntervalMs: e.KSEF_RECEIVE_INTERVAL_MS,
    ksefSimulator: {
      enabled: e.KSEF_SIMULATOR,
      delayMs: e.KSEF_SIMULATOR_DELAY_MS,
      accessTtlSeconds: e.KSEF_SIMULATOR_ACCESS_TTL_SECONDS,
      rateLimits: e.KSEF_SIMULATOR_RATE_LIMITS,
    },
    edifactDirectoriesImport: (e.EDIFACT_DIRECTORIES_IMPORT ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}
