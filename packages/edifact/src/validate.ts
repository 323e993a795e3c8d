/**
 * Top-level validation: level 1 (syntax and envelope, built in) and then each plugin level per message.
 *
 * Messages are checked as the parser closes them (after each slice of input), so the work per message does not
 * depend on what came before, and findings are capped: per message the first `MAX_FINDINGS_PER_MESSAGE` by
 * position, per run the first `MAX_FINDINGS_PER_VALIDATION`; the rest are counted in `omitted`.
 */
import {
  addOmitted,
  FindingList,
  MAX_FINDINGS_PER_MESSAGE,
  MAX_FINDINGS_PER_VALIDATION,
  noneOmitted,
  type OmittedFindings,
} from './findings.ts';
import type { CodeAllowance, MessageContext, ValidateOptions, ValidationLevelPlugin } from './levels.ts';
import type { Finding, Interchange, Message, Severity } from './model.ts';
import { ParserCore, slices, type CoreParseHandler, type Screen } from './parser.ts';
import { screenOf } from './screen.ts';

/** Per-message status: the worst severity of its findings. */
export type MessageStatus = 'valid' | 'warning' | 'error';

/** One line of the message list (what the CLI and the API show). */
export type MessageSummary = {
  reference: string;
  type: string;
  /** Directory, e.g. `D96A`. */
  version: string;
  association?: string;
  documentNumber: string;
  line: number;
  /** The worst severity of the message's findings, the omitted ones included. */
  status: MessageStatus;
};

/** The result of `validate`. */
export type ValidationResult = {
  /** True when no finding has severity `error`, the omitted ones included. */
  ok: boolean;
  interchanges: Interchange[];
  messages: MessageSummary[];
  /**
   * The findings of every level, ordered by position: per message its first `MAX_FINDINGS_PER_MESSAGE`, and of
   * those and the findings outside messages the first `MAX_FINDINGS_PER_VALIDATION`.
   */
  findings: Finding[];
  /**
   * Findings found but not listed (past those caps), per severity, so that callers can say "N more errors".
   * `validate`, `validateSync` and the parallel mode always set it (optional only so that results built by hand
   * still type-check).
   */
  omitted?: OmittedFindings;
};

/** A message and its findings, as the streaming validator yields them. */
export type MessageResult = {
  message: Message;
  interchange: Interchange;
  summary: MessageSummary;
  /** At most `MAX_FINDINGS_PER_MESSAGE`, and none once the stream has listed `MAX_FINDINGS_PER_VALIDATION`. */
  findings: Finding[];
  /** The message's findings that were counted but not listed. */
  omitted: OmittedFindings;
};

const statusOf = (findings: readonly Finding[], omitted?: OmittedFindings): MessageStatus => {
  if (omitted !== undefined && omitted.errors > 0) return 'error';
  let worst: Severity | undefined;
  for (const f of findings) {
    if (f.severity === 'error') return 'error';
    if (f.severity === 'warning') worst = 'warning';
  }
  return worst === 'warning' || (omitted !== undefined && omitted.warnings > 0) ? 'warning' : 'valid';
};

/** The summary line of a message given its findings (and those counted but not listed). */
export const summarizeMessage = (
  message: Message,
  findings: readonly Finding[],
  omitted?: OmittedFindings,
): MessageSummary => {
  const summary: MessageSummary = {
    reference: message.reference,
    type: message.type,
    version: message.directory,
    documentNumber: message.documentNumber,
    line: message.header.position.line,
    status: statusOf(findings, omitted),
  };
  if (message.association !== undefined) summary.association = message.association;
  return summary;
};

/**
 * A message and its syntax findings, as the parser hands it on; `screened`: how many leading levels the screen
 * (see screen.ts) has already found nothing in.
 */
type Collected = {
  message: Message;
  interchange: Interchange;
  findings: Finding[];
  omitted: OmittedFindings | undefined;
  index: number;
  screened: number;
};

/** The caps of a run: the options may lower them, never raise them. */
const capsOf = (options: ValidateOptions): { perMessage: number; perRun: number } => ({
  perMessage: Math.max(
    0,
    Math.min(options.maxFindingsPerMessage ?? MAX_FINDINGS_PER_MESSAGE, MAX_FINDINGS_PER_MESSAGE),
  ),
  perRun: Math.max(0, Math.min(options.maxFindings ?? MAX_FINDINGS_PER_VALIDATION, MAX_FINDINGS_PER_VALIDATION)),
});

const allowances = new WeakMap<readonly ValidationLevelPlugin[], CodeAllowance | undefined>();

/** The levels' `allowsCode` together (undefined when no level has one), worked out once per list of levels. */
const allowanceOf = (options: ValidateOptions): CodeAllowance | undefined => {
  const levels = options.levels;
  if (levels === undefined) return undefined;
  if (allowances.has(levels)) return allowances.get(levels);
  const allowing = levels.filter((level) => level.allowsCode !== undefined);
  const allowance: CodeAllowance | undefined =
    allowing.length === 0
      ? undefined
      : (message, element, code) => allowing.some((level) => level.allowsCode?.(message, element, code) === true);
  allowances.set(levels, allowance);
  return allowance;
};

/** The parser of a validation run: the fast path of the screen, with the screens of the leading levels. */
const createParser = (handler: CoreParseHandler, options: ValidateOptions, retainMessages = true): ParserCore => {
  const parserOptions = {
    strict: options.strict === true,
    maxFindingsPerMessage: capsOf(options).perMessage,
    retainMessages,
  };
  if (options.screen === false) return new ParserCore(handler, parserOptions);
  const screens: Screen[] = [];
  const allowance = allowanceOf(options);
  for (const level of options.levels ?? []) {
    const screen = screenOf(level);
    if (screen === undefined) break;
    screens.push((message) => screen(message, allowance));
  }
  return new ParserCore(handler, parserOptions, screens);
};

/** The findings of one message being validated: the syntax level's, then each level's, capped. */
type Checked = { c: Collected; list: FindingList };

const context = (k: Checked, options: ValidateOptions): MessageContext => {
  const out = baseContext(k, options);
  const allowance = allowanceOf(options);
  if (allowance !== undefined) {
    const message = k.c.message;
    out.allowsCode = (element, code) => allowance(message, element, code);
  }
  return out;
};

const baseContext = (k: Checked, options: ValidateOptions): MessageContext => ({
  interchange: k.c.interchange,
  delimiters: k.c.interchange.delimiters,
  syntaxIdentifier: k.c.interchange.syntaxIdentifier,
  syntaxVersion: k.c.interchange.syntaxVersion || 3,
  messageIndex: k.c.index,
  strict: options.strict === true,
  previous: k.list.held,
  maxFindings: k.list.limit,
  omit: (severity: Severity, count = 1) => k.list.omit(severity, count),
});

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/** Adds a level's findings, with the message's fields filled in. */
const addFindings = (k: Checked, found: readonly Finding[]): void => {
  const message = k.c.message;
  for (const f of found) {
    f.messageType ??= message.type;
    f.version ??= message.directory;
    f.documentNumber ??= message.documentNumber;
    f.messageReference ??= message.reference;
    k.list.push(f);
  }
};

/** A plugin that throws is a bug in the plugin, not bad input: record it rather than lose the other findings. */
const pluginFailure = (plugin: ValidationLevelPlugin, message: Message, error: unknown): Finding => ({
  code: 'EDI_INTERNAL_ERROR',
  severity: 'error',
  level: plugin.level,
  path: 'UNH[1]',
  line: message.header.position.line,
  column: message.header.position.column,
  offset: message.header.position.offset,
  params: { plugin: plugin.name, error: error instanceof Error ? error.message : String(error) },
});

const startChecking = (c: Collected, perMessage: number): Checked => {
  const list = new FindingList(perMessage);
  for (const f of c.findings) list.push(f);
  if (c.omitted) addOmitted(list.omitted, c.omitted);
  return { c, list };
};

/**
 * Runs the plugins on one message, synchronously as long as they answer synchronously; only a plugin that returns
 * a promise (e.g. while its directory loads) makes the rest asynchronous. Keeps streaming free of per-message awaits.
 */
const runLevels = (k: Checked, options: ValidateOptions, from = k.c.screened): Checked | Promise<Checked> => {
  const levels = options.levels ?? [];
  const message = k.c.message;
  for (let i = from; i < levels.length; i++) {
    const plugin = levels[i] as ValidationLevelPlugin;
    let out: Finding[] | Promise<Finding[]>;
    try {
      out = plugin.validateMessage(message, context(k, options));
    } catch (error) {
      k.list.push(pluginFailure(plugin, message, error));
      continue;
    }
    if (isPromise(out)) {
      return out.then(
        (found) => {
          addFindings(k, found);
          return runLevels(k, options, i + 1);
        },
        (error: unknown) => {
          k.list.push(pluginFailure(plugin, message, error));
          return runLevels(k, options, i + 1);
        },
      );
    }
    addFindings(k, out);
  }
  return k;
};

const runLevelsSync = (k: Checked, options: ValidateOptions): Checked => {
  const levels = options.levels ?? [];
  const message = k.c.message;
  for (let i = k.c.screened; i < levels.length; i++) {
    const plugin = levels[i] as ValidationLevelPlugin;
    try {
      const out = plugin.validateMessage(message, context(k, options));
      if (isPromise(out)) {
        throw new TypeError(`plugin ${plugin.name} returned a promise; use validate() or call prepare() first`);
      }
      addFindings(k, out);
    } catch (error) {
      k.list.push(pluginFailure(plugin, message, error));
    }
  }
  return k;
};

/** Per validation result: each message's listed findings and the messages with errors (what CONTRL reports). */
const reports = new WeakMap<ValidationResult, { findings: Map<Message, Finding[]>; errors: Set<Message> }>();

/**
 * @internal What `result` holds about `message`: its listed findings, and whether it has errors (listed or
 * omitted); undefined when `result` was not made by this module (e.g. a copy).
 */
export const messageReport = (
  result: ValidationResult,
  message: Message,
): { findings: Finding[]; hasErrors: boolean } | undefined => {
  const report = reports.get(result);
  if (report === undefined) return undefined;
  return { findings: report.findings.get(message) ?? [], hasErrors: report.errors.has(message) };
};

/**
 * One validation run over a whole input: the parser, the messages it closed and not yet checked, and the capped
 * findings. Findings outside messages and the messages' findings are kept apart and put together at the end in the
 * order the plain sort had (the envelope's first), so ties in position keep their order.
 */
class Run {
  readonly interchanges: Interchange[] = [];
  readonly parser: ParserCore;
  queue: Collected[] = [];
  private readonly options: ValidateOptions;
  private readonly perMessage: number;
  private readonly levels: number;
  private readonly global: FindingList;
  private readonly inMessages: FindingList;
  private readonly omitted = noneOmitted();
  private readonly summaries: MessageSummary[] = [];
  /** Which message a listed finding belongs to (weak: findings dropped by the cap are not kept alive). */
  private readonly owners = new WeakMap<Finding, Message>();
  private readonly withErrors = new Set<Message>();
  private index = 0;

  /** `sync`: the levels answer synchronously, so each message is checked as soon as the parser closes it. */
  constructor(options: ValidateOptions, sync = false) {
    this.options = options;
    const caps = capsOf(options);
    this.perMessage = caps.perMessage;
    this.levels = options.levels?.length ?? 0;
    this.global = new FindingList(caps.perRun);
    this.inMessages = new FindingList(caps.perRun);
    this.parser = createParser(
      {
        message: (message, interchange, findings, screened, omitted) => {
          const c: Collected = { message, interchange, findings, omitted, index: this.index++, screened };
          if (sync) this.checkOneSync(c);
          else this.queue.push(c);
        },
        interchange: (interchange) => this.interchanges.push(interchange),
        finding: (f) => this.global.push(f),
      },
      options,
    );
  }

  /** Checks the queued messages; awaits only a level that answers with a promise. */
  async check(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    for (const c of batch) {
      if (this.isClean(c)) continue;
      const done = runLevels(startChecking(c, this.perMessage), this.options);
      this.finish(isPromise(done) ? await done : done);
    }
  }

  private checkOneSync(c: Collected): void {
    if (!this.isClean(c)) this.finish(runLevelsSync(startChecking(c, this.perMessage), this.options));
  }

  /** A message the screen took through every level (most of them): its summary, and nothing else to do. */
  private isClean(c: Collected): boolean {
    if (c.screened < this.levels || c.findings.length > 0 || c.omitted !== undefined) return false;
    this.summaries.push(summarizeMessage(c.message, c.findings));
    return true;
  }

  private finish(k: Checked): void {
    const findings = k.list.take();
    const omitted = k.list.omitted;
    const summary = summarizeMessage(k.c.message, findings, omitted);
    this.summaries.push(summary);
    if (summary.status === 'error') this.withErrors.add(k.c.message);
    addOmitted(this.omitted, omitted);
    for (const f of findings) {
      this.owners.set(f, k.c.message);
      this.inMessages.push(f);
    }
  }

  result(): ValidationResult {
    const all = new FindingList(this.global.limit);
    for (const f of this.global.take()) all.push(f);
    for (const f of this.inMessages.take()) all.push(f);
    const findings = all.take();
    const omitted = noneOmitted();
    for (const o of [this.omitted, this.global.omitted, this.inMessages.omitted, all.omitted]) addOmitted(omitted, o);
    const byMessage = new Map<Message, Finding[]>();
    for (const f of findings) {
      const owner = this.owners.get(f);
      if (owner === undefined) continue;
      const list = byMessage.get(owner);
      if (list) list.push(f);
      else byMessage.set(owner, [f]);
    }
    const ok = omitted.errors === 0 && !findings.some((f) => f.severity === 'error');
    const result: ValidationResult = {
      ok,
      interchanges: this.interchanges,
      messages: this.summaries,
      findings,
      omitted,
    };
    reports.set(result, { findings: byMessage, errors: this.withErrors });
    return result;
  }
}

/**
 * Validates a whole input: the syntax level, then each plugin level on each message (plugins may be async).
 * Never throws on bad input.
 */
export const validate = async (
  input: Uint8Array | string,
  options: ValidateOptions = {},
): Promise<ValidationResult> => {
  const run = new Run(options);
  const levels = options.levels ?? [];
  // The levels are prepared (e.g. their directory loaded) on the first message, before the rest is read: a
  // screen answers no while a level's directory is still loading, and the whole input would take the plain path.
  let prepared = options.screen === false || !levels.some((level) => level.prepare && screenOf(level));
  for (const piece of slices(input)) {
    run.parser.write(piece);
    const first = run.queue[0];
    if (!prepared && first !== undefined) {
      prepared = true;
      for (const level of levels) await Promise.resolve(level.prepare?.(first.message)).catch(() => undefined);
    }
    if (run.queue.length > 0) await run.check();
  }
  run.parser.end();
  await run.check();
  return run.result();
};

/** Like `validate`, for plugins that answer synchronously. */
export const validateSync = (input: Uint8Array | string, options: ValidateOptions = {}): ValidationResult => {
  const run = new Run(options, true);
  run.parser.write(input);
  run.parser.end();
  return run.result();
};

/** What the streaming validator yields: a message with its findings, or a finding outside messages. */
export type ValidationEvent =
  | ({ type: 'message' } & MessageResult)
  | { type: 'finding'; finding: Finding }
  | { type: 'interchange'; interchange: Interchange };

/**
 * Where a streamed part of a longer input starts (see `validateStream`'s `resume`): the input is cut at a message
 * boundary, and this part is read as if the input before it had been.
 */
export type StreamResume = {
  /**
   * The bytes of the open interchange's header (UNA, UNB), read for its envelope with their findings left out;
   * undefined when the part starts at the beginning of the input.
   */
  header?: Uint8Array | undefined;
  /** Absolute offset of the part's first byte (right after a segment terminator), its line and that line's start. */
  offset: number;
  line: number;
  lineStart: number;
  /** Messages of the open interchange before the part (what UNZ counts), and their references when known. */
  messages: number;
  references?: readonly string[];
  /** False when more parts follow: the input is not ended (no missing UNZ) after this one. Default true. */
  last?: boolean;
};

/**
 * Validates a stream of chunks message by message; memory stays bounded by the largest message.
 * With `resume`, the stream is one part of a longer input cut at a message boundary (the documents' batched ingest):
 * positions, lines and UNZ's count are those of the whole input, and the input ends only with the last part.
 * Interchanges yielded here do not retain their messages. Each message lists at most `MAX_FINDINGS_PER_MESSAGE`
 * findings (the rest in its `omitted`); the stream holds no run, so the per-run cap is the consumer's to apply.
 */
export async function* validateStream(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: ValidateOptions = {},
  resume?: StreamResume,
): AsyncGenerator<ValidationEvent> {
  let queue: (Collected | { finding: Finding } | { interchange: Interchange })[] = [];
  let index = resume?.messages ?? 0;
  let live = resume?.header === undefined;
  const { perMessage } = capsOf(options);
  const levels = options.levels?.length ?? 0;
  const parser = createParser(
    {
      message: (message, interchange, findings, screened, omitted) => {
        if (live) queue.push({ message, interchange, findings, omitted, index: index++, screened });
      },
      interchange: (interchange) => {
        if (live) queue.push({ interchange });
      },
      finding: (finding) => {
        if (live) queue.push({ finding });
      },
    },
    options,
    false,
  );
  if (resume !== undefined) {
    // The header is read for its envelope only: its findings were the part before's.
    if (resume.header !== undefined) parser.write(resume.header);
    parser.resume({ ...resume, references: resume.references ?? [] });
    live = true;
  }
  /** The events of the queued messages (levels run), in order; a nested generator would cost promises per event. */
  const take = async (): Promise<ValidationEvent[]> => {
    const batch = queue;
    queue = [];
    const events: ValidationEvent[] = [];
    for (const item of batch) {
      if ('finding' in item) events.push({ type: 'finding', finding: item.finding });
      else if ('message' in item && item.screened >= levels && item.findings.length === 0 && !item.omitted) {
        // Taken by the screen through every level (most messages): nothing to run, nothing omitted.
        const { message, interchange, findings } = item;
        const summary = summarizeMessage(message, findings);
        events.push({ type: 'message', message, interchange, summary, findings, omitted: noneOmitted() });
      } else if ('message' in item) {
        const done = runLevels(startChecking(item, perMessage), options);
        const k = isPromise(done) ? await done : done;
        const findings = k.list.take();
        const omitted = k.list.omitted;
        const summary = summarizeMessage(item.message, findings, omitted);
        events.push({
          type: 'message',
          message: item.message,
          interchange: item.interchange,
          summary,
          findings,
          omitted,
        });
      } else events.push({ type: 'interchange', interchange: item.interchange });
    }
    return events;
  };
  for await (const chunk of source) {
    for (const piece of slices(chunk)) {
      parser.write(piece);
      if (queue.length > 0) for (const event of await take()) yield event;
    }
  }
  if (resume?.last !== false) parser.end();
  for (const event of await take()) yield event;
}

/** @internal What the parallel mode's worker returns for one part (see `parallel/node`). */
export type PartResult = {
  /** Findings outside messages, ordered by position (the part's first `MAX_FINDINGS_PER_VALIDATION`). */
  global: Finding[];
  /**
   * The part's messages as columns (one array per MessageSummary field; `association` '' when absent, `status` 0
   * valid, 1 warning, 2 error): cloning them to the main thread costs a fraction of one object per message.
   */
  references: string[];
  types: string[];
  versions: string[];
  associations: string[];
  documentNumbers: string[];
  lines: number[];
  statuses: number[];
  /** The messages' findings, ordered by position (the part's first `MAX_FINDINGS_PER_VALIDATION`). */
  findings: Finding[];
  /** A message was still open at the end of a part that is not the last. */
  open: boolean;
  /** Findings of the part counted but not listed (past the caps). */
  omitted: OmittedFindings;
};

const STATUSES: MessageStatus[] = ['valid', 'warning', 'error'];

/** @internal The summary of message `i` of a part's result. */
export const partSummary = (r: PartResult, i: number): MessageSummary => {
  const summary: MessageSummary = {
    reference: r.references[i] as string,
    type: r.types[i] as string,
    version: r.versions[i] as string,
    documentNumber: r.documentNumbers[i] as string,
    line: r.lines[i] as number,
    status: STATUSES[r.statuses[i] as number] as MessageStatus,
  };
  const association = r.associations[i];
  if (association) summary.association = association;
  return summary;
};

/**
 * @internal The parallel mode's reading of one part, `body` (the input from `part.start`): like `validateStream`,
 * after reading the interchange `header` and resuming at `part.start` when the part is not the first, and without
 * ending the input unless the part is the last.
 */
export const validatePart = async (
  header: Uint8Array | undefined,
  body: Uint8Array,
  part: {
    start: number;
    line: number;
    lineStart: number;
    messages: number;
    references: readonly string[];
    last: boolean;
  },
  options: ValidateOptions = {},
): Promise<PartResult> => {
  const result: PartResult = {
    global: [],
    references: [],
    types: [],
    versions: [],
    associations: [],
    documentNumbers: [],
    lines: [],
    statuses: [],
    findings: [],
    open: false,
    omitted: noneOmitted(),
  };
  const { perMessage, perRun } = capsOf(options);
  // Capped as validate caps a run: the first perRun findings of the part can only hold the first of the whole.
  const global = new FindingList(perRun);
  const inMessages = new FindingList(perRun);
  let live = header === undefined;
  let index = part.messages;
  let queue: Collected[] = [];
  const parser = createParser(
    {
      message: (message, interchange, findings, screened, omitted) => {
        if (live) queue.push({ message, interchange, findings, omitted, index: index++, screened });
      },
      finding: (finding) => {
        if (live) global.push(finding);
      },
    },
    options,
    false,
  );
  const flush = async (): Promise<void> => {
    const batch = queue;
    queue = [];
    for (const item of batch) {
      const done = runLevels(startChecking(item, perMessage), options);
      const k = isPromise(done) ? await done : done;
      const findings = k.list.take();
      addOmitted(result.omitted, k.list.omitted);
      const summary = summarizeMessage(item.message, findings, k.list.omitted);
      result.references.push(summary.reference);
      result.types.push(summary.type);
      result.versions.push(summary.version);
      result.associations.push(summary.association ?? '');
      result.documentNumbers.push(summary.documentNumber);
      result.lines.push(summary.line);
      result.statuses.push(STATUSES.indexOf(summary.status));
      for (const f of findings) inMessages.push(f);
    }
  };
  if (header !== undefined) {
    parser.write(header);
    parser.resume({ ...part, offset: part.start });
    live = true;
  }
  // In small slices, as validateStream does: messages are checked soon after they close and die young (1 MB
  // slices kept a slice's messages alive into old space: a quarter slower).
  const SLICE = 64 * 1024;
  for (let at = 0; at < body.length; at += SLICE) {
    parser.write(body.subarray(at, at + SLICE));
    await flush();
  }
  if (part.last) parser.end();
  else result.open = parser.inMessage;
  await flush();
  result.global = global.take();
  result.findings = inMessages.take();
  addOmitted(result.omitted, global.omitted);
  addOmitted(result.omitted, inMessages.omitted);
  return result;
};
