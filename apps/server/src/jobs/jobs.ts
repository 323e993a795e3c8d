import { z } from 'zod';

/**
 * Every job the server runs: its name, the schema of its payload and its retry policy. A payload is checked when it is
 * enqueued and again when it is run, so a job written by an older build fails loudly instead of running on bad data.
 */
export type JobDefinition = {
  payload: z.ZodType<Record<string, unknown>>;
  /** Runs after the first that may follow a failure; the job is dead (state `failed`) after the last. */
  retryLimit: number;
  /** Base delay of the exponential backoff: a retry waits delay × 2^(n-1) to twice that (jittered). */
  retryDelaySeconds: number;
  /** A run still going after this long counts as failed (a crashed or hung worker), and is retried. */
  expireInSeconds: number;
};

export const JOBS = {
  /** Delivers one stored e-mail (`outbound_emails`) over SMTP. Six retries over 30 to 60 minutes, then dead. */
  'mail.send': {
    payload: z.object({ emailId: z.uuid() }),
    retryLimit: 6,
    retryDelaySeconds: 30,
    expireInSeconds: 120,
  },
  /**
   * Reads one uploaded interchange (`interchanges`) into documents and routes them. Idempotent: an interchange already
   * read is left alone, and a message's copy is unique per company and direction. Ten minutes a run (20 MB files).
   */
  'documents.ingest': {
    payload: z.object({ interchangeId: z.uuid() }),
    retryLimit: 5,
    retryDelaySeconds: 30,
    expireInSeconds: 900,
  },
  /**
   * Answers one received interchange with a CONTRL (decision 0035), stored as the receiving company's outbox upload
   * and routed to the sender when it is on the platform. Idempotent: the control reference is taken when the job is
   * written, so a retry's upload is the same UNB key, a duplicate the outbox answers with the first one's document.
   */
  'documents.contrl': {
    payload: z.object({ interchangeId: z.uuid(), controlReference: z.string().min(1).max(14) }),
    retryLimit: 5,
    retryDelaySeconds: 30,
    expireInSeconds: 600,
  },
  /**
   * Makes a demo login's sample documents through the ingest (decision 0027). Idempotent: the set's interchanges
   * are the same files on a retry, and duplicates store nothing.
   */
  'documents.demo.create': {
    payload: z.object({ sessionId: z.uuid(), userId: z.uuid(), companyId: z.uuid() }),
    retryLimit: 3,
    retryDelaySeconds: 10,
    expireInSeconds: 300,
  },
  /**
   * Uploads a demo-ksef company's presentation set (toggle DEMO_KSEF_SIEMENS) to its outbox, once (decision 0041): a
   * login enqueues it keyed by the company. Idempotent: the interchange's control reference comes from the company id,
   * so a second upload is a duplicate that stores nothing.
   */
  'documents.demo.presentation': {
    payload: z.object({ companyId: z.uuid(), userId: z.uuid() }),
    retryLimit: 3,
    retryDelaySeconds: 10,
    expireInSeconds: 300,
  },
  /** Deletes a demo session's documents, interchanges and blobs (its logout). */
  'documents.demo.remove': {
    payload: z.object({ sessionId: z.uuid() }),
    retryLimit: 5,
    retryDelaySeconds: 30,
    expireInSeconds: 300,
  },
  /**
   * Submits one invoice of the outbox to the company's KSeF (issue 13, part 3). Idempotent: a run that finds the
   * invoice sent before only reads its status, and a duplicate (440) adopts the original KSeF number, so a retry
   * never sends twice. Eight retries over about two hours (KSeF's maintenance windows, errors); a 429 asking to wait
   * longer than the client waits is no failed run: the handler enqueues the document's next run to start after the
   * Retry-After (decision 0038). A correction whose invoice is still on its way to KSeF waits for its KSeF number the
   * same way: a next run a little later, `waits` counting them (bounded).
   */
  'ksef.send': {
    payload: z.object({ documentId: z.uuid(), waits: z.number().int().min(0).optional() }),
    retryLimit: 8,
    retryDelaySeconds: 30,
    expireInSeconds: 600,
  },
  /**
   * Receives one company's purchase invoices from KSeF into its inbox (issue 13): an export since the company's
   * high-water mark, each invoice stored once by its KSeF number. Enqueues the company's next run itself (every
   * KSEF_RECEIVE_INTERVAL_MS on the simulator, at least 15 minutes on KSeF), keyed by the period, so at most one
   * waits per period; a failed run is retried twice, and the next period's run goes on regardless.
   */
  'ksef.receive': {
    payload: z.object({ companyId: z.uuid() }),
    retryLimit: 2,
    retryDelaySeconds: 30,
    expireInSeconds: 900,
  },
  /** Deletes the demo documents of every session that is over, then enqueues the next sweep (every 15 minutes). */
  'documents.demo.sweep': {
    payload: z.object({}),
    retryLimit: 3,
    retryDelaySeconds: 60,
    expireInSeconds: 900,
  },
} as const satisfies Record<string, JobDefinition>;

export type JobDefinitions = Record<string, JobDefinition>;
export type PayloadOf<D extends JobDefinitions, N extends keyof D> = z.infer<D[N]['payload']>;

/** What a handler knows about the run it is in. */
export type JobRun = {
  id: string;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** No retry follows when this run fails: the job becomes dead. */
  isLastAttempt: boolean;
};

/** One handler for every job name of a set of definitions. */
export type HandlersOf<D extends JobDefinitions> = {
  [N in keyof D & string]: (payload: PayloadOf<D, N>, run: JobRun) => Promise<void>;
};

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = PayloadOf<typeof JOBS, N>;
/** The handlers of the server's jobs: the list the workers run from (see handlers.ts). */
export type JobHandlers = HandlersOf<typeof JOBS>;
