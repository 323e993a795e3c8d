/**
 * Test-only: builds a `Message` from EDIFACT text with the default separators (`:+?'`), one segment per
 * terminator, so that spec and map tests do not depend on the parser. Lines are counted as the parser would.
 */
import type { Element, Message, Segment } from '../../src/model.ts';

const splitEscaped = (text: string, separator: string): string[] => {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === '?' && i + 1 < text.length) {
      current += text[i + 1] ?? '';
      i++;
    } else if (char === separator) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
};

export const buildMessage = (text: string): Message => {
  const segments: Segment[] = [];
  let offset = 0;
  let line = 1;
  for (const raw of text.split(/(?<!\?)'/)) {
    const leading = /^\s*/.exec(raw)?.[0] ?? '';
    line += (leading.match(/\n/g) ?? []).length;
    const body = raw.slice(leading.length);
    if (body !== '') {
      const [tag = '', ...rest] = splitEscaped(body, '+');
      const elements: Element[] = rest.map((element) => {
        const repeats = element.split('*');
        const [first = [''], ...more] = repeats.map((r) => splitEscaped(r, ':'));
        return more.length > 0 ? { components: first, repeats: more } : { components: first };
      });
      segments.push({
        tag,
        elements,
        position: { line, column: 1, offset: offset + leading.length },
        length: body.length + 1,
        index: segments.length,
      });
    }
    offset += raw.length + 1;
  }
  const header = segments[0] ?? {
    tag: 'UNH',
    elements: [],
    position: { line: 1, column: 1, offset: 0 },
    length: 0,
    index: 0,
  };
  const s009 = header.elements[1]?.components ?? [];
  const version = s009[1] ?? '';
  const release = s009[2] ?? '';
  const bgm = segments.find((s) => s.tag === 'BGM');
  const message: Message = {
    reference: header.elements[0]?.components[0] ?? '',
    type: s009[0] ?? '',
    version,
    release,
    agency: s009[3] ?? '',
    directory: `${version}${release}`,
    documentNumber: bgm?.elements[1]?.components[0] || (header.elements[0]?.components[0] ?? ''),
    segments,
    header,
  };
  if (s009[4]) message.association = s009[4];
  const last = segments.at(-1);
  if (last?.tag === 'UNT') message.trailer = last;
  return message;
};
