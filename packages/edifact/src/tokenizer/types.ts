/** The tokenizer's public types (re-exported by src/tokenizer.ts). */
import type { Finding, Position, Segment } from '../model.ts';

/** Options of the tokenizer. */
export type TokenizerOptions = {
  /** Lenient acceptances (BOM, whitespace between segments) are reported as errors instead of warnings. */
  strict?: boolean;
};

/** Receives what the tokenizer finds, in input order. */
export type TokenHandler = {
  /** A segment, with the findings about its own content (characters, release, tag), or null when none. */
  segment(segment: Segment, findings: Finding[] | null): void;
  /** A finding outside any segment (BOM, whitespace, stray characters, end of input). */
  finding(finding: Finding): void;
  /** The object of a syntax 4 package (the octets between UNO and UNP, ISO 9735 part 8). */
  object?(bytes: Uint8Array, position: Position): void;
};
