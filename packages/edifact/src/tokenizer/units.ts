/**
 * Unit strings: the tokenizer holds its input as one char per byte (code 0-255) for bytes, or the UTF-16 code units
 * of text as given. Turning bytes into such a string, joining a leftover with the next chunk, and decoding the bytes
 * of one component under the syntax identifier's character set.
 */
import type { Charset } from '../charsets.ts';

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
export const utf8Encoder = new TextEncoder();
const singleByteDecoders = new Map<string, InstanceType<typeof TextDecoder>>();

/** Turns a chunk of bytes into a unit string, one char per byte. */
const bytesToUnits = (bytes: Uint8Array): string => {
  let out = '';
  const STEP = 8192;
  for (let i = 0; i < bytes.length; i += STEP) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + STEP) as unknown as number[]);
  }
  return out;
};

type BufferLike = {
  latin1Slice?: (start: number, end: number) => string;
  write(text: string, offset: number, length: number, encoding: 'latin1'): number;
  set(bytes: Uint8Array, offset: number): void;
};
type BufferCtor = {
  from(bytes: ArrayBufferLike, offset: number, length: number): BufferLike;
  allocUnsafe(size: number): BufferLike;
};
// Node's Buffer (when present) decodes Latin-1 natively, several times faster than fromCharCode; the browser
// falls back to the portable loop. No import: the core must also run where there is no Buffer.
const NodeBuffer = (globalThis as { Buffer?: BufferCtor }).Buffer;
export const fastBytesToUnits = (bytes: Uint8Array): string => {
  if (NodeBuffer) {
    const b = NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (b.latin1Slice) return b.latin1Slice(0, bytes.byteLength);
  }
  return bytesToUnits(bytes);
};

const JOIN_SCRATCH_MAX = 2 * 1024 * 1024;

/**
 * Joins the unit string of `rest` (a unit string of bytes) and `bytes` into one flat string: V8 reads a flat string
 * several times faster than the rope that `rest + units` makes. In a scratch buffer of its own, kept up to 2 MB (a
 * 1 MB chunk and its leftover; more gets a buffer of its own, so no large one stays behind). The string made from
 * it is a copy, so nothing off-heap piles up between GCs; the buffer stays readable until the next join (`bytes`).
 * Undefined where there is no Buffer.
 */
export class UnitJoiner {
  private scratch: BufferLike | undefined;
  private size = 0;
  /** The bytes of the last joined string (valid until the next join). */
  bytes: Uint8Array | undefined;

  join(rest: string, bytes: Uint8Array): string | undefined {
    if (!NodeBuffer) return undefined;
    const total = rest.length + bytes.length;
    let b: BufferLike;
    if (total > JOIN_SCRATCH_MAX) b = NodeBuffer.allocUnsafe(total);
    else {
      if (total > this.size || this.scratch === undefined) {
        this.size = Math.min(JOIN_SCRATCH_MAX, Math.max(total * 2, 64 * 1024));
        this.scratch = NodeBuffer.allocUnsafe(this.size);
      }
      b = this.scratch;
    }
    if (!b.latin1Slice) return undefined;
    b.write(rest, 0, rest.length, 'latin1');
    b.set(bytes, rest.length);
    this.bytes = (b as unknown as Uint8Array).subarray(0, total);
    return b.latin1Slice(0, total);
  }
}

export const unitsToBytes = (units: string, start: number, end: number): Uint8Array => {
  const out = new Uint8Array(end - start);
  for (let i = start; i < end; i++) out[i - start] = units.charCodeAt(i) & 0xff;
  return out;
};

/**
 * The text of a component's bytes (`raw`, a unit string) under `charset`: UTF-8 or a single-byte set; `raw` itself
 * for Latin-1 or a set without a decoder here. Undefined when the set says UTF-8 and the bytes are not.
 */
export const decodeUnits = (raw: string, charset: Charset): string | undefined => {
  const bytes = unitsToBytes(raw, 0, raw.length);
  if (charset.decoding === 'utf-8') {
    try {
      return utf8Decoder.decode(bytes);
    } catch {
      return undefined;
    }
  }
  if (charset.decoding === 'single-byte' && charset.label !== undefined) {
    let dec = singleByteDecoders.get(charset.label);
    if (!dec) {
      try {
        dec = new TextDecoder(charset.label);
      } catch {
        return raw;
      }
      singleByteDecoders.set(charset.label, dec);
    }
    return dec.decode(bytes);
  }
  return raw;
};
