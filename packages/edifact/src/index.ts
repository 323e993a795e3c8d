/**
 * `@portal/edifact`: a dependency-free UN/EDIFACT engine (ISO 9735 syntax versions 1 to 4).
 *
 * - {@link tokenize} / {@link Tokenizer}: bytes or text, whole or in chunks, to segments.
 * - {@link parse} / {@link Parser} / {@link parseStream}: interchanges, groups, messages, packages, with the level 1
 *   (syntax and envelope) findings.
 * - {@link validate} / {@link validateSync} / {@link validateStream}: level 1 plus pluggable further levels
 *   ({@link ValidationLevelPlugin}).
 * - {@link serializeInterchange} and friends: back to EDIFACT.
 * - {@link buildContrl}: a CONTRL syntax and service report from a validation result ({@link buildContrlStream}: from
 *   `validateStream`'s events, in bounded memory).
 * - {@link FINDING_CODES}: the catalogue of stable finding codes.
 * - Level 2, {@link createSpecificationLevel} / {@link validateSpecification}: a message against the UN/EDIFACT
 *   directory of its version, from any {@link DirectoryProvider} (e.g. {@link createMemoryDirectoryProvider}).
 * - Level 3, {@link createMapLevel} / {@link validateMap}: a message against its implementation guide
 *   ({@link parseGuide}, {@link indexGuides}).
 * - Directory tables: {@link buildDirectory} from UNECE's files, {@link decodeDirectory} from the store format.
 *
 * Everything here runs in browsers too. Reading files (the directory store, importing UNECE zips, downloading,
 * loading guide folders) is in `@portal/edifact/node`.
 *
 * @packageDocumentation
 */
export type {
  Delimiters,
  Element,
  Finding,
  Group,
  Interchange,
  Message,
  Position,
  Segment,
  Severity,
  ValidationLevel,
} from './model.ts';
export { FINDING_CODES, isFindingCode, type FindingCode, type FindingCodeInfo } from './codes.ts';
export {
  createFinding,
  compareFindings,
  MAX_FINDINGS_PER_MESSAGE,
  MAX_FINDINGS_PER_VALIDATION,
  type FindingFields,
  type OmittedFindings,
} from './findings.ts';
export type { MessageContext, ValidateOptions, ValidationLevelPlugin } from './levels.ts';
export { getCharset, SYNTAX_IDENTIFIERS, type Charset, type CharsetDecoding } from './charsets.ts';
export { DEFAULT_DELIMITERS, Tokenizer, tokenize, type TokenHandler, type TokenizerOptions } from './tokenizer.ts';
export {
  parse,
  parseStream,
  Parser,
  type ParseEvent,
  type ParseHandler,
  type ParseResult,
  type ParserOptions,
} from './parser.ts';
export {
  checkServiceSegment,
  matchesFormat,
  serviceSegmentNames,
  type ServiceIssue,
  type ServiceSegmentNames,
} from './syntax.ts';
export {
  encodeText,
  serializeInterchange,
  serializeInterchangeBytes,
  serializeMessage,
  serializeSegment,
  serializeSegments,
  type SerializeOptions,
} from './serializer.ts';
export {
  summarizeMessage,
  validate,
  validateStream,
  validateSync,
  type MessageResult,
  type MessageStatus,
  type MessageSummary,
  type StreamResume,
  type ValidationEvent,
  type ValidationResult,
} from './validate.ts';
export { buildContrl, buildContrlStream, type ContrlOptions } from './contrl.ts';
export * from './directory/index.ts';
export * from './spec/index.ts';
export * from './map/index.ts';
