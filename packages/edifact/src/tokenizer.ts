/**
 * Streaming EDIFACT tokenizer: bytes or text, in one piece or in chunks, to segments (ISO 9735 part 1).
 *
 * The input is held as a "unit string": for bytes, one char per byte (code 0-255); for text, the UTF-16 code units
 * as given. Scanning works on char codes through a 256-entry class table, components are sliced out of that string
 * and decoded only when they hold a release character or (for UTF-8 and non-Latin-1 sets) a byte above 0x7F.
 * Only complete segments are processed, so any chunk split gives the same segments and findings.
 *
 * The work is split by concern under `tokenizer/`: character classes (classes.ts), unit strings (units.ts), the
 * service string advice and service characters in force (service-string.ts), segment splitting
 * (segment-splitter.ts), the fast message scanner of validation's screen (message-scanner.ts), and the reader that
 * takes chunks and walks the buffer (reader.ts). This module is their public face.
 */
import type { Delimiters, Finding, Segment } from './model.ts';
import { TokenReader } from './tokenizer/reader.ts';
import type { TokenHandler, TokenizerOptions } from './tokenizer/types.ts';

export { DEFAULT_DELIMITERS } from './tokenizer/service-string.ts';
export type { TokenHandler, TokenizerOptions } from './tokenizer/types.ts';

/**
 * A push tokenizer. Call `write` with each chunk and `end` once; segments go to the handler as soon as they are
 * complete. The same instance handles several interchanges in a row (each UNA/UNB sets its own service characters).
 */
export class Tokenizer {
  readonly #reader: TokenReader;

  constructor(handler: TokenHandler, options: TokenizerOptions = {}) {
    this.#reader = new TokenReader(handler, options);
  }

  /** Feeds the next chunk. Bytes and text may not be mixed meaningfully; the first chunk sets the mode. */
  write(chunk: Uint8Array | string): void {
    this.#reader.write(chunk);
  }

  /** Signals the end of input: an unterminated last segment is still emitted, with a finding. */
  end(): void {
    this.#reader.end();
  }

  /** Service characters in force. */
  get delimiters(): Delimiters {
    return this.#reader.delimiters;
  }

  /** The syntax identifier whose repertoire is being checked ('' before any UNB). */
  get syntaxIdentifier(): string {
    return this.#reader.syntaxIdentifier;
  }

  /** Absolute offset just past the input read so far (not counting chunks queued while waiting). */
  get length(): number {
    return this.#reader.length;
  }
}

/** Every segment and finding of an input, in one call (see `Tokenizer` for streaming). */
export const tokenize = (
  input: Uint8Array | string,
  options: TokenizerOptions = {},
): { segments: Segment[]; findings: Finding[] } => {
  const segments: Segment[] = [];
  const findings: Finding[] = [];
  const tokenizer = new Tokenizer(
    {
      segment(segment, segFindings) {
        segments.push(segment);
        if (segFindings) for (const f of segFindings) findings.push(f);
      },
      finding(f) {
        findings.push(f);
      },
    },
    options,
  );
  tokenizer.write(input);
  tokenizer.end();
  return { segments, findings };
};
