/**
 * What `edifact validate` counts while it streams a file: findings by code and severity, messages by type and
 * status, and which directories and guides each message was checked against (so that "OK" never means "not
 * checked"). Also the reordering of findings into `validate()`'s order (by offset, then code) with bounded memory.
 */
import { compareFindings } from '../findings.ts';
import type { GuideIndex } from '../map/guide.ts';
import type { Finding, Message } from '../model.ts';
import { directoryName } from '../spec/specification.ts';
import type { MessageSummary } from '../validate.ts';

/** Findings of one code. */
export type CodeCount = { code: string; errors: number; warnings: number; infos: number };

/** Messages of one type, directory and association. */
export type MessageTypeCount = {
  type: string;
  version: string;
  association: string;
  messages: number;
  valid: number;
  warning: number;
  error: number;
};

/** What one message was checked against. */
export type Checked = {
  /** The directory of the specification level (e.g. `D96A`), or undefined when none was available. */
  directory: string | undefined;
  /** The guide of the map level (e.g. `EANCOM97-ORDERS`), when one covers the message's association. */
  guide: string | undefined;
  /** Why the message was not checked against a directory, e.g. `ORDERS:D:95Z:UN not in the store`. */
  missing: string | undefined;
};

/** The counts of a run over one file. */
export class Tally {
  interchanges = 0;
  messages = 0;
  findings = 0;
  errors = 0;
  warnings = 0;
  readonly codes = new Map<string, CodeCount>();
  readonly types = new Map<string, MessageTypeCount>();
  /** Messages per directory checked, per guide, and per message identifier no directory was available for. */
  readonly directories = new Map<string, number>();
  readonly guides = new Map<string, number>();
  readonly unchecked = new Map<string, number>();
  /** Findings the engine counted without listing them (its per-message and per-run caps), in `findings` too. */
  omitted = 0;
  private lastGuide: { key: string; id: string | undefined } = { key: '', id: undefined };

  constructor(private readonly checking: { levels: number; guides: GuideIndex | undefined }) {}

  get ok(): boolean {
    return this.errors === 0;
  }

  finding(f: Finding): void {
    this.findings++;
    let count = this.codes.get(f.code);
    if (count === undefined) this.codes.set(f.code, (count = { code: f.code, errors: 0, warnings: 0, infos: 0 }));
    if (f.severity === 'error') {
      this.errors++;
      count.errors++;
    } else if (f.severity === 'warning') {
      this.warnings++;
      count.warnings++;
    } else count.infos++;
  }

  /** Counts findings the engine left out of a message's list (`omitted` of a message event, when it has one). */
  omittedFindings(omitted: { errors: number; warnings: number; infos: number } | undefined): void {
    if (omitted === undefined) return;
    const n = omitted.errors + omitted.warnings + omitted.infos;
    if (n === 0) return;
    this.omitted += n;
    this.findings += n;
    this.errors += omitted.errors;
    this.warnings += omitted.warnings;
  }

  /** Counts a message (its findings are counted through `finding`) and returns what it was checked against. */
  message(message: Message, summary: MessageSummary, findings: readonly Finding[]): Checked {
    this.messages++;
    const association = summary.association ?? '';
    const key = `${summary.type}\u0000${summary.version}\u0000${association}`;
    let count = this.types.get(key);
    if (count === undefined) {
      // Past KEYS_LIMIT kinds, the rest count together as `(other)`.
      const other = this.types.size >= KEYS_LIMIT;
      count = (other ? this.types.get(OTHER) : undefined) ?? {
        type: other ? OTHER : summary.type,
        version: other ? '' : summary.version,
        association: other ? '' : association,
        messages: 0,
        valid: 0,
        warning: 0,
        error: 0,
      };
      this.types.set(other ? OTHER : key, count);
    }
    count.messages++;
    count[summary.status]++;
    const checked = this.checked(message, findings);
    if (checked.directory !== undefined) add(this.directories, checked.directory);
    if (checked.guide !== undefined) add(this.guides, checked.guide);
    if (checked.missing !== undefined) add(this.unchecked, checked.missing);
    return checked;
  }

  private checked(message: Message, findings: readonly Finding[]): Checked {
    if (this.checking.levels === 0)
      return { directory: undefined, guide: undefined, missing: 'no directory in the store' };
    // The specification level reports a message whose directory (or message type) the store lacks; the map level
    // then skips it too.
    for (const f of findings) {
      if (f.code === 'EDI_UNSUPPORTED_MESSAGE') {
        const what = f.actual ?? `${message.type}:${message.version}:${message.release}:${message.agency}`;
        return { directory: undefined, guide: undefined, missing: what };
      }
    }
    const directory = directoryName(message);
    // Messages come in runs of the same kind: one lookup per run.
    const key = `${message.type}|${directory}|${message.association ?? ''}|${message.agency}`;
    if (key !== this.lastGuide.key) {
      const guide = this.checking.guides?.find(message.type, directory, message.association, message.agency);
      this.lastGuide = { key, id: guide?.id };
    }
    return { directory, guide: this.lastGuide.id, missing: undefined };
  }
}

/**
 * Distinct message kinds or identifiers counted at most; past it they count together as `(other)`, so that an
 * input of millions of made-up message types does not grow memory.
 */
const KEYS_LIMIT = 1000;
const OTHER = '(other)';

const add = (map: Map<string, number>, key: string): void => {
  const name = map.has(key) || map.size < KEYS_LIMIT ? key : OTHER;
  map.set(name, (map.get(name) ?? 0) + 1);
};

/**
 * Findings held for ordering at most (about): past it the earlier half goes out. The order stays `validate()`'s
 * unless more findings than that are reported while one message is open.
 */
export const PENDING_LIMIT = 10_000;

/**
 * Puts findings into `validate()`'s order (offset, then code) while streaming. The parser reports a finding
 * outside a message when it reads it, and a message's findings when the message ends, so findings that arrive
 * after a message's event lie after its UNH: everything before that offset can be released. Memory holds at most
 * the findings of one message and those reported while it was read.
 */
export class FindingOrder {
  private pending: Finding[] = [];

  add(finding: Finding): void {
    this.pending.push(finding);
  }

  /**
   * Whether `releaseEarlier` should run: more than `PENDING_LIMIT` findings wait (thousands of findings outside
   * messages, say, with no message event to release them).
   */
  get full(): boolean {
    return this.pending.length >= PENDING_LIMIT;
  }

  /** Releases the earlier half of the pending findings, in order, to bound memory. */
  releaseEarlier(): Finding[] {
    this.pending.sort(compareFindings);
    const half = this.pending.length >> 1;
    const out = this.pending.slice(0, half);
    this.pending = this.pending.slice(half);
    return out;
  }

  /** Releases, in order, the pending findings before `offset` (all of them without an offset). */
  release(offset = Infinity): Finding[] {
    if (this.pending.length === 0) return [];
    this.pending.sort(compareFindings);
    let n = 0;
    while (n < this.pending.length && (this.pending[n] as Finding).offset < offset) n++;
    if (n === 0) return [];
    const out = n === this.pending.length ? this.pending : this.pending.slice(0, n);
    this.pending = n === this.pending.length ? [] : this.pending.slice(n);
    return out;
  }
}

/** `Checked` as a cell of the table, e.g. `D96A, EANCOM97-ORDERS` or `not checked: ORDERS:D:95Z:UN not in the store`. */
export const describeChecked = (checked: Checked): string =>
  checked.directory === undefined
    ? `syntax only: ${checked.missing === 'no directory in the store' ? checked.missing : `no directory for ${checked.missing}`}`
    : checked.guide === undefined
      ? `${checked.directory}`
      : `${checked.directory} + guide ${checked.guide}`;
