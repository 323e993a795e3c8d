import { FINDING_CODES, type FindingCode } from './codes.ts';
import type { Finding, Severity } from './model.ts';
import { work } from './work.ts';

/** Fields of a finding besides code, severity and level. */
export type FindingFields = Omit<Finding, 'code' | 'severity' | 'level'> & {
  severity?: Severity;
  level?: Finding['level'];
};

/**
 * Builds a finding with the catalogue's default severity and level for `code`; `fields` may override them.
 * Plugins can use it too, so that every level fills findings the same way.
 */
export const createFinding = (code: FindingCode, fields: FindingFields): Finding => {
  const info = FINDING_CODES[code];
  const finding: Finding = {
    code,
    severity: fields.severity ?? info.severity,
    level: fields.level ?? info.level,
    path: fields.path,
    line: fields.line,
    column: fields.column,
    offset: fields.offset,
  };
  if (fields.fieldName !== undefined) finding.fieldName = fields.fieldName;
  if (fields.messageType !== undefined) finding.messageType = fields.messageType;
  if (fields.version !== undefined) finding.version = fields.version;
  if (fields.documentNumber !== undefined) finding.documentNumber = fields.documentNumber;
  if (fields.messageReference !== undefined) finding.messageReference = fields.messageReference;
  if (fields.expected !== undefined) finding.expected = fields.expected;
  if (fields.actual !== undefined) finding.actual = fields.actual;
  if (fields.params !== undefined) finding.params = fields.params;
  return finding;
};

/** Orders findings by position, then by code, for stable output. */
export const compareFindings = (a: Finding, b: Finding): number =>
  a.offset - b.offset || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

/**
 * At most this many findings are listed per message; the rest are counted (`omitted`), not listed. A message past it
 * is already unusable, and a message of repeated bad segments must not build one finding object per segment.
 */
export const MAX_FINDINGS_PER_MESSAGE = 1000;

/** At most this many findings are listed per validation run (all messages and the envelope); the rest are counted. */
export const MAX_FINDINGS_PER_VALIDATION = 10_000;

/** How many findings were found but not listed, per severity (they still count: `ok` is false when `errors` > 0). */
export type OmittedFindings = { errors: number; warnings: number; infos: number };

/** No finding omitted. */
export const noneOmitted = (): OmittedFindings => ({ errors: 0, warnings: 0, infos: 0 });

/** Counts `finding` as omitted. */
export const countOmitted = (omitted: OmittedFindings, severity: Severity, count = 1): void => {
  if (severity === 'error') omitted.errors += count;
  else if (severity === 'warning') omitted.warnings += count;
  else omitted.infos += count;
};

/** Adds the counts of `more` to `omitted`. */
export const addOmitted = (omitted: OmittedFindings, more: OmittedFindings): void => {
  omitted.errors += more.errors;
  omitted.warnings += more.warnings;
  omitted.infos += more.infos;
};

/**
 * The first `limit` findings by position (`compareFindings`, ties in the order they were added), whatever order they
 * come in, and the count of the others. Holds at most twice `limit` findings: when full it sorts and drops the
 * tail, so adding costs O(log limit) amortized and memory stays bounded however many findings a level makes.
 */
export class FindingList {
  private items: Finding[] = [];
  readonly omitted: OmittedFindings = noneOmitted();
  /** Once cut: the offset of the last finding kept; one after it can never be listed, so it is only counted. */
  private threshold = Infinity;

  constructor(readonly limit: number) {}

  /** How many findings are held (at most `2 * limit` before `take`). */
  get length(): number {
    return this.items.length;
  }

  /** The findings held so far, in the order added (not yet cut to `limit`). */
  get held(): readonly Finding[] {
    return this.items;
  }

  push(finding: Finding): void {
    work.steps++;
    if (finding.offset > this.threshold) {
      countOmitted(this.omitted, finding.severity);
      return;
    }
    this.items.push(finding);
    if (this.items.length >= 2 * this.limit && this.items.length > 0) this.cut();
  }

  /** Counts findings someone else left out (a level that stopped listing). */
  omit(severity: Severity, count = 1): void {
    countOmitted(this.omitted, severity, count);
  }

  /** The listed findings, ordered by position. */
  take(): Finding[] {
    this.cut();
    return this.items;
  }

  private cut(): void {
    const items = this.items;
    work.steps += items.length;
    // Array.prototype.sort is stable: among equal positions, the first added stay first.
    items.sort(compareFindings);
    if (items.length <= this.limit) return;
    for (let i = this.limit; i < items.length; i++) countOmitted(this.omitted, (items[i] as Finding).severity);
    items.length = this.limit;
    this.threshold = this.limit > 0 ? (items[this.limit - 1] as Finding).offset : -1;
  }
}

/**
 * A level's findings in the order it makes them, kept to the first `limit` by position: at twice that they are
 * sorted and cut, and from then on a finding past the last one kept is only counted. Under the limit the order
 * is untouched. (FindingList, by contrast, always hands them out sorted.)
 */
export class CappedFindings {
  readonly findings: Finding[] = [];
  readonly omitted: OmittedFindings = noneOmitted();
  private threshold = Infinity;

  constructor(readonly limit: number = MAX_FINDINGS_PER_MESSAGE) {}

  push(finding: Finding): void {
    work.steps++;
    if (finding.offset > this.threshold) {
      countOmitted(this.omitted, finding.severity);
      return;
    }
    this.findings.push(finding);
    if (this.findings.length >= 2 * this.limit) this.compact();
  }

  /** The findings kept (cut to `limit` if there are more), after counting the others with `omit`. */
  finish(omit?: (severity: Severity, count?: number) => void): Finding[] {
    this.compact();
    const o = this.omitted;
    if (omit) {
      if (o.errors > 0) omit('error', o.errors);
      if (o.warnings > 0) omit('warning', o.warnings);
      if (o.infos > 0) omit('info', o.infos);
    }
    return this.findings;
  }

  private compact(): void {
    const findings = this.findings;
    if (findings.length <= this.limit) return;
    work.steps += findings.length;
    findings.sort(compareFindings);
    for (let i = this.limit; i < findings.length; i++) countOmitted(this.omitted, (findings[i] as Finding).severity);
    findings.length = this.limit;
    this.threshold = this.limit > 0 ? (findings[this.limit - 1] as Finding).offset : -1;
  }
}
