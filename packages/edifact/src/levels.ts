/**
 * The contract between the syntax engine and the further validation levels (specification, map).
 *
 * The syntax level (ISO 9735 envelope and syntax) is built in. Every further level is a plugin handed to
 * `validate(input, { levels: [...] })`; the engine never imports a plugin, so the directory-based specification
 * validator and the guide-based map validator live in their own modules and only depend on this file and
 * `model.ts`.
 *
 * This file is a stable interface: fields may be added (optional), none renamed or removed. (The fast path of the
 * engine's own levels, the screen, is not part of it: see screen.ts and docs/decisions/0017-edifact-public-surface.md.)
 */
import type { Delimiters, Finding, Interchange, Message, Severity, ValidationLevel } from './model.ts';

/** What a plugin knows about the message it validates, besides the message itself. */
export type MessageContext = {
  /** The interchange holding the message (for bare messages without UNB, a synthetic one with `syntaxIdentifier` ''). */
  interchange: Interchange;
  /** Service characters in force (UNA or the defaults of the syntax version); `decimal` is the decimal mark. */
  delimiters: Delimiters;
  /** UNB S001 0001, e.g. `UNOC`; '' when there is no UNB. */
  syntaxIdentifier: string;
  /** UNB S001 0002, 1 to 4 (4 when unknown and the repetition separator is in use, else 3). */
  syntaxVersion: number;
  /** The message's position in the input, 0-based, counting every message of every interchange. */
  messageIndex: number;
  /** Strict mode: lenient acceptances (BOM, indentation, bare messages) are errors. */
  strict: boolean;
  /**
   * Findings already reported for this message by the syntax level and by earlier plugins, in order.
   * A plugin may use them to stay quiet (e.g. the map level skips a message the specification level
   * reported as `EDI_UNSUPPORTED_MESSAGE`).
   */
  previous: readonly Finding[];
  /**
   * The most findings the engine lists for this message (`MAX_FINDINGS_PER_MESSAGE` unless the options lower it).
   * Findings past it are only counted, so a level may keep just its first `maxFindings` by position and `omit` the
   * rest, instead of building an object per finding of a message of thousands of bad segments.
   */
  maxFindings?: number;
  /** Counts findings a level found but did not return (past `maxFindings`): they count in `omitted` and in `ok`. */
  omit?(severity: Severity, count?: number): void;
  /**
   * Whether a level of this run (the map level, through its guide) allows `code` for data element `element` in this
   * message: the specification level then does not warn that the code is outside the directory's code list.
   */
  allowsCode?(element: string, code: string): boolean;
};

/** What a level needs to know of a message to say which codes its guide allows. */
export type CodeAllowanceMessage = Pick<Message, 'type' | 'version' | 'release' | 'agency'> & { association?: string };

/** `allowsCode` of a run's levels, for one message. */
export type CodeAllowance = (message: CodeAllowanceMessage, element: string, code: string) => boolean;

/**
 * A further validation level. `validateMessage` is called once per message (UNH..UNT), in input order, after the
 * syntax level has checked that message's envelope. It must not throw on bad input and must fill every field of
 * each Finding it can (see `model.ts`); positions come from `message.segments[i].position`.
 *
 * It may return a promise (e.g. to load a directory lazily); `validate()` awaits it. `validateSync()` and the
 * streaming validator accept only plugins that return arrays synchronously, or call `prepare` first.
 */
export type ValidationLevelPlugin = {
  /** Short, stable name for logs and options, e.g. `specification` or `map`. */
  name: string;
  /** The level its findings carry. */
  level: Exclude<ValidationLevel, 'syntax'>;
  /** Optional warm-up for a message (e.g. load the directory `message.directory`) before a synchronous run. */
  prepare?(message: Message): Promise<void> | void;
  validateMessage(message: Message, context: MessageContext): Finding[] | Promise<Finding[]>;
  /**
   * Optional: true when this level (e.g. a guide) defines `code` for data element `element` in such a message, though
   * the directory's code list may lack it (EANCOM's `SRV` in 7143). The engine hands it to the other levels as
   * `MessageContext.allowsCode` (and to the engine's own fast path). Must be cheap and must not keep `message`.
   */
  allowsCode?: CodeAllowance;
};

/** Options shared by `validate`, `validateSync` and the streaming validator. */
export type ValidateOptions = {
  /** Lenient acceptances become errors (BOM, CR/LF or indentation between segments, bare messages without UNB). */
  strict?: boolean;
  /** Further levels, run in this order after the syntax level. */
  levels?: readonly ValidationLevelPlugin[];
  /**
   * Findings listed per message, at most: the first ones by position (default and upper bound
   * `MAX_FINDINGS_PER_MESSAGE`); the rest are counted in `omitted`.
   */
  maxFindingsPerMessage?: number;
  /** Findings listed per validation run, at most (default and upper bound `MAX_FINDINGS_PER_VALIDATION`). */
  maxFindings?: number;
  /**
   * The screen, validation's fast path for clean messages (default true; the specification and map levels have
   * one). Findings are the same either way; with it, a clean message's `segments` may be built when first read.
   */
  screen?: boolean;
};
