/** Interned segment tags, shared by the tokenizer and the screen's lazily built segments. */

/**
 * Interned tags: the same string object for every segment with that tag (no allocation per segment, and the string
 * is internalized, so comparisons with literals and Map look-ups by tag are pointer-fast).
 */
const TAG_SLOTS = 4096;
const tagKeys = new Int32Array(TAG_SLOTS).fill(-1);
const tagStrings: string[] = new Array<string>(TAG_SLOTS).fill('');
let tagCount = 0;
export const internTag = (s: string, at: number): string => {
  const a = s.charCodeAt(at);
  const b = s.charCodeAt(at + 1);
  const c = s.charCodeAt(at + 2);
  if ((a | b | c) > 0xff) return s.slice(at, at + 3);
  const key = (a << 16) | (b << 8) | c;
  let h = Math.imul(key, 0x9e3779b1) >>> 20;
  for (;;) {
    const k = tagKeys[h] as number;
    if (k === key) return tagStrings[h] as string;
    if (k === -1) break;
    h = (h + 1) & (TAG_SLOTS - 1);
  }
  // A property key is internalized by V8; reading it back gives the internalized string.
  const holder: Record<string, number> = {};
  holder[String.fromCharCode(a, b, c)] = 1;
  const tag = Object.keys(holder)[0] as string;
  if (tagCount < TAG_SLOTS / 2) {
    tagCount++;
    tagKeys[h] = key;
    tagStrings[h] = tag;
  }
  return tag;
};
