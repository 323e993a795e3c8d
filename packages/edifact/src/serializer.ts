/**
 * Serializer: interchanges and segments back to EDIFACT text or bytes, with release-character escaping
 * (ISO 9735 part 1 clause 9.3) and any service characters. Trailing empty elements and components are written as
 * they were parsed, so parse-then-serialize of a well-formed interchange gives the same bytes.
 */
import { getCharset } from './charsets.ts';
import type { Delimiters, Element, Interchange, Message, Segment } from './model.ts';
import { DEFAULT_DELIMITERS } from './tokenizer.ts';

/** Options of the serializer. */
export type SerializeOptions = {
  /** Written after each segment terminator, e.g. '\n' or '\r\n' (default none). */
  lineBreak?: string;
  /** Write the UNA service string advice: 'auto' (default) writes it when the interchange had one. */
  una?: 'auto' | 'always' | 'never';
};

const escaper = (d: Delimiters): ((value: string) => string) => {
  const specials = [d.component, d.element, d.segment];
  if (d.release !== '' && d.release !== ' ') specials.push(d.release);
  if (d.repetition !== '' && d.repetition !== ' ') specials.push(d.repetition);
  const release = d.release !== ' ' ? d.release : '';
  if (release === '') return (value) => value;
  const pattern = new RegExp(
    '[' + specials.map((c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('') + ']',
    'g',
  );
  return (value) => {
    pattern.lastIndex = 0;
    return pattern.test(value) ? value.replace(pattern, (c) => release + c) : value;
  };
};

const writeElement = (element: Element, d: Delimiters, escape: (v: string) => string): string => {
  let out = element.components.map(escape).join(d.component);
  if (element.repeats) {
    for (const repeat of element.repeats) out += d.repetition + repeat.map(escape).join(d.component);
  }
  return out;
};

/** One segment as text, terminator included (UNA is written verbatim). */
export const serializeSegment = (segment: Segment, delimiters: Delimiters = DEFAULT_DELIMITERS): string => {
  if (segment.tag === 'UNA') return 'UNA' + (segment.elements[0]?.components[0] ?? '');
  const escape = escaper(delimiters);
  let out = segment.tag;
  for (const element of segment.elements) out += delimiters.element + writeElement(element, delimiters, escape);
  return out + delimiters.segment;
};

/** Segments in order, with one set of service characters. */
export const serializeSegments = (
  segments: Iterable<Segment>,
  delimiters: Delimiters = DEFAULT_DELIMITERS,
  options: SerializeOptions = {},
): string => {
  const escape = escaper(delimiters);
  const lineBreak = options.lineBreak ?? '';
  const parts: string[] = [];
  for (const segment of segments) {
    if (segment.tag === 'UNA') {
      parts.push('UNA' + (segment.elements[0]?.components[0] ?? '') + lineBreak);
      continue;
    }
    let out = segment.tag;
    for (const element of segment.elements) out += delimiters.element + writeElement(element, delimiters, escape);
    parts.push(out + delimiters.segment + lineBreak);
  }
  return parts.join('');
};

/** A message (UNH..UNT) as text. */
export const serializeMessage = (
  message: Message,
  delimiters: Delimiters = DEFAULT_DELIMITERS,
  options: SerializeOptions = {},
): string => serializeSegments(message.segments, delimiters, options);

const unaSegment = (d: Delimiters): Segment => ({
  tag: 'UNA',
  elements: [
    { components: [d.component + d.element + d.decimal + (d.release || ' ') + (d.repetition || ' ') + d.segment] },
  ],
  position: { line: 1, column: 1, offset: 0 },
  length: 9,
  index: 0,
});

function* interchangeSegments(interchange: Interchange, una: SerializeOptions['una']): Generator<Segment> {
  if (una !== 'never' && (interchange.una || una === 'always'))
    yield interchange.una ?? unaSegment(interchange.delimiters);
  if (interchange.header) yield interchange.header;
  // Groups, messages and packages in their original order (by segment index).
  const blocks: { index: number; segments: Segment[] }[] = [];
  for (const group of interchange.groups) {
    const segments = [group.header];
    for (const m of group.messages) segments.push(...m.segments);
    if (group.trailer) segments.push(group.trailer);
    blocks.push({ index: group.header.index, segments });
  }
  for (const m of interchange.messages) blocks.push({ index: m.header.index, segments: m.segments });
  for (const p of interchange.packages) {
    blocks.push({ index: p.header.index, segments: p.trailer ? [p.header, p.trailer] : [p.header] });
  }
  blocks.sort((a, b) => a.index - b.index);
  for (const block of blocks) yield* block.segments;
  if (interchange.trailer) yield interchange.trailer;
}

/** An interchange as text. Package objects (UNO/UNP) are written by `serializeInterchangeBytes` only. */
export const serializeInterchange = (interchange: Interchange, options: SerializeOptions = {}): string =>
  serializeSegments(interchangeSegments(interchange, options.una ?? 'auto'), interchange.delimiters, options);

const encodeLatin1 = (text: string): Uint8Array => {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
};

const singleByteEncoders = new Map<string, Map<number, number>>();

const encodeSingleByte = (text: string, label: string): Uint8Array => {
  // Invert the platform's decoder once per label; characters outside the set become '?'.
  let table = singleByteEncoders.get(label);
  if (!table) {
    table = new Map();
    const bytes = new Uint8Array(256);
    for (let i = 0; i < 256; i++) bytes[i] = i;
    const decoded = new TextDecoder(label).decode(bytes);
    for (let i = 0; i < decoded.length && i < 256; i++) table.set(decoded.charCodeAt(i), i);
    singleByteEncoders.set(label, table);
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = table.get(text.charCodeAt(i)) ?? 0x3f;
  return out;
};

/** Encodes text in the character set of a syntax identifier (UTF-8 for UNOW/UNOY and bare messages). */
export const encodeText = (text: string, syntaxIdentifier: string): Uint8Array => {
  const charset = getCharset(syntaxIdentifier);
  if (syntaxIdentifier === '' || charset.decoding === 'utf-8') return new TextEncoder().encode(text);
  if (charset.decoding === 'single-byte' && charset.label) return encodeSingleByte(text, charset.label);
  return encodeLatin1(text);
};

/** An interchange as bytes in its declared character set, package objects included. */
export const serializeInterchangeBytes = (interchange: Interchange, options: SerializeOptions = {}): Uint8Array => {
  const parts: Uint8Array[] = [];
  const d = interchange.delimiters;
  const escape = escaper(d);
  const lineBreak = options.lineBreak ?? '';
  const objects = new Map<Segment, Uint8Array>();
  for (const p of interchange.packages) objects.set(p.header, p.bytes);
  let text = '';
  for (const segment of interchangeSegments(interchange, options.una ?? 'auto')) {
    if (segment.tag === 'UNA') text += 'UNA' + (segment.elements[0]?.components[0] ?? '') + lineBreak;
    else {
      let out = segment.tag;
      for (const element of segment.elements) out += d.element + writeElement(element, d, escape);
      text += out + d.segment;
      const object = objects.get(segment);
      if (object) {
        // The object follows the UNO terminator directly and runs to UNP (part 8): no line break in between.
        parts.push(encodeText(text, interchange.syntaxIdentifier), object);
        text = '';
        continue;
      }
      text += lineBreak;
    }
  }
  parts.push(encodeText(text, interchange.syntaxIdentifier));
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
