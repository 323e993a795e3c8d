/**
 * The parallel mode (opt-in, Node only): one input validated by several worker threads, each reading a part cut at
 * a message boundary, the results merged in input order. The findings are exactly those of
 * `validate(input, { levels })` with the same levels; an input that cannot be cut that way (see `planParts`) is
 * validated by one worker.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { addOmitted, FindingList, MAX_FINDINGS_PER_VALIDATION, noneOmitted } from '../../findings.ts';
import type { Finding } from '../../model.ts';
import { partSummary, type MessageSummary, type PartResult, type ValidationResult } from '../../validate.ts';
import { planParts, type PartPlan } from './plan.ts';

/** Options of the parallel validator. */
export type ParallelValidatorOptions = {
  /** The directory store each worker opens for the specification level (e.g. `DATA_DIR/edifact`). */
  store: string;
  /** Worker threads (default: the available parallelism, at most 4). */
  workers?: number;
  /** Also the map level, with the shipped EANCOM guides (as `edifact validate` runs it). */
  map?: boolean;
  strict?: boolean;
  maxFindingsPerMessage?: number;
  /** Smallest part worth a worker, in bytes (default 1 MB): smaller inputs are validated by one worker. */
  minPartSize?: number;
};

/** What `ParallelValidator.validate` gives: `validate`'s result without the parsed interchanges. */
export type ParallelValidationResult = Omit<ValidationResult, 'interchanges'> & {
  /** How many parts were read in parallel (1: the input was validated by one worker). */
  parts: number;
};

/** @internal The setup a worker receives. */
export type WorkerSetup = { store: string; map: boolean; strict: boolean; maxFindingsPerMessage: number | undefined };

/** @internal One part to validate: its bytes (a copy, transferred) and, after the first part, the header's. */
export type PartJob = {
  id: number;
  header: Uint8Array | undefined;
  body: Uint8Array;
  part: Omit<PartPlan, 'expected' | 'references'> & { references: string[] };
};

type Reply = { id: number; result?: PartResult; error?: string } | { ready: true };

const WHITESPACE = 'EDI_WHITESPACE_BETWEEN_SEGMENTS';

/** A copy of bytes[start, end) in its own buffer (Buffer's `slice` would be a view). */
const copy = (bytes: Uint8Array, start: number, end: number): Uint8Array => {
  const out = new Uint8Array(end - start);
  out.set(bytes.subarray(start, end));
  return out;
};

/**
 * Validates inputs with a pool of worker threads (syntax and specification levels, and the map level with `map`).
 * The workers start with the validator and open the store once; call `close` when done.
 */
export class ParallelValidator {
  private readonly options: ParallelValidatorOptions;
  private readonly workers: Worker[] = [];
  private readonly ready: Promise<void>;
  private readonly pending = new Map<number, { resolve: (r: PartResult) => void; reject: (e: Error) => void }>();
  private nextId = 0;

  constructor(options: ParallelValidatorOptions) {
    this.options = options;
    const count = Math.max(1, options.workers ?? Math.min(4, availableParallelism()));
    const setup: WorkerSetup = {
      store: options.store,
      map: options.map === true,
      strict: options.strict === true,
      maxFindingsPerMessage: options.maxFindingsPerMessage,
    };
    // From the TypeScript sources, the entry registers a loader first (see worker-entry.mjs).
    const url = new URL(import.meta.url.endsWith('.ts') ? './worker-entry.mjs' : './worker.js', import.meta.url);
    const started: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      // A worker's young generation starts small; parsing allocates fast, and a larger one saves scavenges.
      const worker = new Worker(url, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: 48 } });
      started.push(
        new Promise((resolve, reject) => {
          worker.once('error', reject);
          worker.on('message', (reply: Reply) => {
            if ('ready' in reply) resolve();
            else this.settle(reply);
          });
        }),
      );
      worker.on('error', (error) => {
        for (const p of this.pending.values()) p.reject(error);
        this.pending.clear();
      });
      this.workers.push(worker);
    }
    this.ready = Promise.all(started).then(() => undefined);
    // Until the first validate, an unhandled start failure must not crash the process.
    this.ready.catch(() => undefined);
  }

  /** Validates one input (bytes); the findings are those of `validate` with the same levels. */
  async validate(input: Uint8Array): Promise<ParallelValidationResult> {
    await this.ready;
    const plan = planParts(input, this.workers.length, this.options.minPartSize ?? 1024 * 1024);
    if (plan) {
      const results = await Promise.all(plan.map((part, i) => this.run(i, input, part)));
      // The plan holds if every part read the messages it found and ended between two messages.
      const holds = results.every(
        (r, i) =>
          (plan[i]?.last || !r.open) &&
          r.references.length === plan[i]?.expected.length &&
          r.references.every((x, j) => x === plan[i]?.expected[j]),
      );
      if (holds) return merge(results);
    }
    const whole = {
      start: 0,
      end: input.length,
      header: 0,
      line: 1,
      lineStart: 0,
      messages: 0,
      references: [],
      last: true,
    };
    return { ...merge([await this.run(0, input, whole)]), parts: 1 };
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private run(worker: number, input: Uint8Array, part: PartJob['part'] & { expected?: string[] }): Promise<PartResult> {
    const id = this.nextId++;
    const { expected: _expected, ...rest } = part;
    // Copies (a worker reads its own memory: parsing from a SharedArrayBuffer measured a third slower).
    const body = copy(input, part.start, part.end);
    const header = part.start > 0 ? copy(input, 0, part.header) : undefined;
    const job: PartJob = { id, header, body, part: rest };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const transfer = [body.buffer as ArrayBuffer, ...(header ? [header.buffer as ArrayBuffer] : [])];
      this.workers[worker % this.workers.length]?.postMessage(job, transfer);
    });
  }

  private settle(reply: { id: number; result?: PartResult; error?: string }): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (reply.result) p.resolve(reply.result);
    else p.reject(new Error(reply.error ?? 'worker failed'));
  }
}

/** The parts' results in input order, as `validate` assembles them. */
const merge = (results: PartResult[]): ParallelValidationResult => {
  // Capped as validate caps a run: the findings outside messages first, then the messages', the first by position.
  const global = new FindingList(MAX_FINDINGS_PER_VALIDATION);
  // Whitespace between segments is reported once per input: the first part's report stands.
  let whitespace = false;
  for (const r of results) {
    for (const f of r.global) {
      if (f.code === WHITESPACE) {
        if (whitespace) continue;
        whitespace = true;
      }
      global.push(f);
    }
  }
  const inMessages = new FindingList(MAX_FINDINGS_PER_VALIDATION);
  const messages: MessageSummary[] = [];
  const omitted = noneOmitted();
  for (const r of results) {
    for (const f of r.findings) inMessages.push(f);
    for (let i = 0; i < r.references.length; i++) messages.push(partSummary(r, i));
    addOmitted(omitted, r.omitted);
  }
  const all = new FindingList(MAX_FINDINGS_PER_VALIDATION);
  for (const f of global.take()) all.push(f);
  for (const f of inMessages.take()) all.push(f);
  const findings: Finding[] = all.take();
  for (const list of [global, inMessages, all]) addOmitted(omitted, list.omitted);
  const ok = omitted.errors === 0 && !findings.some((f) => f.severity === 'error');
  return { ok, messages, findings, omitted, parts: results.length };
};
