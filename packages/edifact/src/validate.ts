/**
 * Top-level validation: level 1 (syntax and envelope, built in) and then each plugin level per message.
 */
import { compareFindings } from './findings.ts';
import type { MessageContext, ValidateOptions, ValidationLevelPlugin } from './levels.ts';
import type { Finding, Interchange, Message, Severity } from './model.ts';
import { Parser, slices, type ParserOptions } from './parser.ts';
import type { ScannedMessage } from './screen.ts';

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
  status: MessageStatus;
};

/** The result of `validate`. */
export type ValidationResult = {
  /** True when no finding has severity `error`. */
  ok: boolean;
  interchanges: Interchange[];
  messages: MessageSummary[];
  /** Every finding of every level, ordered by position. */
  findings: Finding[];
};

/** A message and its findings, as the streaming validator yields them. */
export type MessageResult = {
  message: Message;
  interchange: Interchange;
  summary: MessageSummary;
  findings: Finding[];
};

const statusOf = (findings: readonly Finding[]): MessageStatus => {
  let worst: Severity | undefined;
  for (const f of findings) {
    if (f.severity === 'error') return 'error';
    if (f.severity === 'warning') worst = 'warning';
  }
  return worst === 'warning' ? 'warning' : 'valid';
};

/** The summary line of a message given all its findings. */
export const summarizeMessage = (message: Message, findings: readonly Finding[]): MessageSummary => {
  const summary: MessageSummary = {
    reference: message.reference,
    type: message.type,
    version: message.directory,
    documentNumber: message.documentNumber,
    line: message.header.position.line,
    status: statusOf(findings),
  };
  if (message.association !== undefined) summary.association = message.association;
  return summary;
};

/**
 * A message and its findings so far; `screened`: how many leading levels the screen (see screen.ts) has already
 * found nothing in.
 */
type Collected = { message: Message; interchange: Interchange; findings: Finding[]; index: number; screened: number };

/** Parser options of a validation run: the fast path of the screen, with the screens of the leading levels. */
const parserOptions = (options: ValidateOptions): ParserOptions => {
  const out: ParserOptions = { strict: options.strict === true };
  if (options.screen !== false) {
    const screens: ((message: ScannedMessage) => boolean)[] = [];
    for (const level of options.levels ?? []) {
      const screen = level.screen;
      if (screen === undefined) break;
      screens.push((message) => screen.call(level, message));
    }
    out.screens = screens;
  }
  return out;
};

const collector = (options: ValidateOptions) => {
  const interchanges: Interchange[] = [];
  const global: Finding[] = [];
  const messages: Collected[] = [];
  const parser = new Parser(
    {
      message: (message, interchange, findings, screened = 0) =>
        messages.push({ message, interchange, findings, index: messages.length, screened }),
      interchange: (interchange) => interchanges.push(interchange),
      finding: (f) => global.push(f),
    },
    parserOptions(options),
  );
  return { parser, interchanges, global, messages };
};

const collect = (input: Uint8Array | string, options: ValidateOptions) => {
  const collected = collector(options);
  collected.parser.write(input);
  collected.parser.end();
  return collected;
};

/**
 * `collect`, with the levels prepared (e.g. their directory loaded) for the first message before the rest is read:
 * a screen answers no while a level's directory is still loading, and the whole input would take the plain path.
 */
const collectPrepared = async (input: Uint8Array | string, options: ValidateOptions) => {
  const collected = collector(options);
  const levels = options.levels ?? [];
  let prepared = options.screen === false || !levels.some((level) => level.prepare && level.screen);
  for (const piece of slices(input)) {
    collected.parser.write(piece);
    const first = collected.messages[0];
    if (!prepared && first !== undefined) {
      prepared = true;
      for (const level of levels) await Promise.resolve(level.prepare?.(first.message)).catch(() => undefined);
    }
  }
  collected.parser.end();
  return collected;
};

const context = (c: Collected, options: ValidateOptions, previous: Finding[]): MessageContext => ({
  interchange: c.interchange,
  delimiters: c.interchange.delimiters,
  syntaxIdentifier: c.interchange.syntaxIdentifier,
  syntaxVersion: c.interchange.syntaxVersion || 3,
  messageIndex: c.index,
  strict: options.strict === true,
  previous,
});

const isPromise = (value: unknown): value is Promise<Finding[]> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

const fillMessageFields = (message: Message, findings: Finding[]): void => {
  for (const f of findings) {
    f.messageType ??= message.type;
    f.version ??= message.directory;
    f.documentNumber ??= message.documentNumber;
    f.messageReference ??= message.reference;
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

/**
 * Runs the plugins on one message, synchronously as long as they answer synchronously; only a plugin that returns
 * a promise (e.g. while its directory loads) makes the rest asynchronous. Keeps streaming free of per-message awaits.
 */
const runLevels = (c: Collected, options: ValidateOptions, from = c.screened): Finding[] | Promise<Finding[]> => {
  const all = c.findings;
  const levels = options.levels ?? [];
  for (let i = from; i < levels.length; i++) {
    const plugin = levels[i] as ValidationLevelPlugin;
    if (options.maxFindingsPerMessage !== undefined && all.length >= options.maxFindingsPerMessage) break;
    let out: Finding[] | Promise<Finding[]>;
    try {
      out = plugin.validateMessage(c.message, context(c, options, all));
    } catch (error) {
      all.push(pluginFailure(plugin, c.message, error));
      continue;
    }
    if (isPromise(out)) {
      return out.then(
        (found) => {
          fillMessageFields(c.message, found);
          for (const f of found) all.push(f);
          return runLevels(c, options, i + 1);
        },
        (error: unknown) => {
          all.push(pluginFailure(plugin, c.message, error));
          return runLevels(c, options, i + 1);
        },
      );
    }
    fillMessageFields(c.message, out);
    for (const f of out) all.push(f);
  }
  return all;
};

const runLevelsSync = (c: Collected, options: ValidateOptions): Finding[] => {
  const all = c.findings;
  const levels = options.levels ?? [];
  for (let i = c.screened; i < levels.length; i++) {
    const plugin = levels[i] as ValidationLevelPlugin;
    if (options.maxFindingsPerMessage !== undefined && all.length >= options.maxFindingsPerMessage) break;
    try {
      const out = plugin.validateMessage(c.message, context(c, options, all));
      if (isPromise(out)) {
        throw new TypeError(`plugin ${plugin.name} returned a promise; use validate() or call prepare() first`);
      }
      fillMessageFields(c.message, out);
      for (const f of out) all.push(f);
    } catch (error) {
      all.push(pluginFailure(plugin, c.message, error));
    }
  }
  return all;
};

const assemble = (
  interchanges: Interchange[],
  global: Finding[],
  messages: Collected[],
  perMessage: Finding[][],
): ValidationResult => {
  const findings = [...global];
  const summaries: MessageSummary[] = [];
  messages.forEach((c, i) => {
    const f = perMessage[i] ?? [];
    for (const x of f) findings.push(x);
    summaries.push(summarizeMessage(c.message, f));
  });
  findings.sort(compareFindings);
  return { ok: !findings.some((f) => f.severity === 'error'), interchanges, messages: summaries, findings };
};

/**
 * Validates a whole input: the syntax level, then each plugin level on each message (plugins may be async).
 * Never throws on bad input.
 */
export const validate = async (
  input: Uint8Array | string,
  options: ValidateOptions = {},
): Promise<ValidationResult> => {
  const { interchanges, global, messages } = await collectPrepared(input, options);
  const perMessage: Finding[][] = [];
  for (const c of messages) {
    const found = runLevels(c, options);
    perMessage.push((isPromise(found) ? await found : found).sort(compareFindings));
  }
  return assemble(interchanges, global, messages, perMessage);
};

/** Like `validate`, for plugins that answer synchronously. */
export const validateSync = (input: Uint8Array | string, options: ValidateOptions = {}): ValidationResult => {
  const { interchanges, global, messages } = collect(input, options);
  const perMessage = messages.map((c) => runLevelsSync(c, options).sort(compareFindings));
  return assemble(interchanges, global, messages, perMessage);
};

/** What the streaming validator yields: a message with its findings, or a finding outside messages. */
export type ValidationEvent =
  | ({ type: 'message' } & MessageResult)
  | { type: 'finding'; finding: Finding }
  | { type: 'interchange'; interchange: Interchange };

/**
 * Validates a stream of chunks message by message; memory stays bounded by the largest message.
 * Interchanges yielded here do not retain their messages.
 */
export async function* validateStream(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: ValidateOptions = {},
): AsyncGenerator<ValidationEvent> {
  let queue: (Collected | { finding: Finding } | { interchange: Interchange })[] = [];
  let index = 0;
  const parser = new Parser(
    {
      message: (message, interchange, findings, screened = 0) =>
        queue.push({ message, interchange, findings, index: index++, screened }),
      interchange: (interchange) => queue.push({ interchange }),
      finding: (finding) => queue.push({ finding }),
    },
    { ...parserOptions(options), retainMessages: false },
  );
  /** The events of the queued messages (levels run), in order; a nested generator would cost promises per event. */
  const take = async (): Promise<ValidationEvent[]> => {
    const batch = queue;
    queue = [];
    const events: ValidationEvent[] = [];
    for (const item of batch) {
      if ('finding' in item) events.push({ type: 'finding', finding: item.finding });
      else if ('message' in item) {
        const found = runLevels(item, options);
        const findings = (isPromise(found) ? await found : found).sort(compareFindings);
        events.push({
          type: 'message',
          message: item.message,
          interchange: item.interchange,
          summary: summarizeMessage(item.message, findings),
          findings,
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
  parser.end();
  for (const event of await take()) yield event;
}

/** @internal What the parallel mode's worker returns for one part (see `parallel/node`). */
export type PartResult = {
  /** Findings outside messages, in input order. */
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
  /** Every message's findings, message after message. */
  findings: Finding[];
  /** A message was still open at the end of a part that is not the last. */
  open: boolean;
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
  };
  let live = header === undefined;
  let index = part.messages;
  let queue: Collected[] = [];
  const parser = new Parser(
    {
      message: (message, interchange, findings, screened = 0) => {
        if (live) queue.push({ message, interchange, findings, index: index++, screened });
      },
      finding: (finding) => {
        if (live) result.global.push(finding);
      },
    },
    { ...parserOptions(options), retainMessages: false },
  );
  const flush = async (): Promise<void> => {
    const batch = queue;
    queue = [];
    for (const item of batch) {
      const found = runLevels(item, options);
      const findings = (isPromise(found) ? await found : found).sort(compareFindings);
      const summary = summarizeMessage(item.message, findings);
      result.references.push(summary.reference);
      result.types.push(summary.type);
      result.versions.push(summary.version);
      result.associations.push(summary.association ?? '');
      result.documentNumbers.push(summary.documentNumber);
      result.lines.push(summary.line);
      result.statuses.push(STATUSES.indexOf(summary.status));
      for (const f of findings) result.findings.push(f);
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
  return result;
};
