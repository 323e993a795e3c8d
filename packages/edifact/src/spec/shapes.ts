/**
 * Message shapes: tag sequences a level has walked through its segment table without a finding, kept so that a
 * message with the same tags needs no walk. The specification level keeps its definitions per position, the map
 * level its guide rules; both look shapes up by a message's segments (plain path) or by a scanned message's tag
 * codes (the screen, see screen.ts).
 */
import type { Segment } from '../model.ts';

/** Shapes kept per compiled message or guide, at most (a stream of ever-new shapes keeps memory flat). */
export const MAX_SHAPES = 256;

/** One step of the hash of a tag sequence, from the tag's code. */
const mix = (h: number, code: number): number => {
  h = Math.imul(h ^ code, 0x9e3779b1);
  return h ^ (h >>> 15);
};

/** The code `mix` takes for a tag (its length in the top byte keeps lengths apart). */
const hashCode = (tag: string): number =>
  (tag.charCodeAt(0) << 16) ^ (tag.charCodeAt(1) << 8) ^ tag.charCodeAt(2) ^ (tag.length << 24);

/** A hash of a message's tag sequence. */
export const shapeKey = (segments: readonly Segment[]): number => {
  let h = segments.length;
  for (let i = 0; i < segments.length; i++) h = mix(h, hashCode((segments[i] as Segment).tag));
  return h;
};

/** shapeKey of a scanned message's tags (all of three characters), given as tag codes (screen.ts `tagCode`). */
export const shapeKeyOfCodes = (codes: Int32Array, n: number): number => {
  let h = n;
  for (let i = 0; i < n; i++) h = mix(h, (codes[i] as number) ^ (3 << 24));
  return h;
};

/** Shapes by the hash of their tag sequence; `codes` are the tags as tag codes. */
export class ShapeCache<T extends { codes: Int32Array }> {
  private readonly byKey = new Map<number, T[]>();
  private size = 0;

  /** No room for another shape. */
  get full(): boolean {
    return this.size >= MAX_SHAPES;
  }

  /** The shapes whose tag sequence hashes to `key`. */
  candidates(key: number): readonly T[] | undefined {
    return this.byKey.get(key);
  }

  /** The shape with exactly the first `n` of `codes` as its tags. */
  find(key: number, codes: Int32Array, n: number): T | undefined {
    const candidates = this.byKey.get(key);
    if (candidates === undefined) return undefined;
    for (const shape of candidates) {
      const known = shape.codes;
      if (known.length !== n) continue;
      let i = 0;
      while (i < n && known[i] === codes[i]) i++;
      if (i === n) return shape;
    }
    return undefined;
  }

  /** Keeps `shape` while there is room. */
  add(key: number, shape: T): void {
    if (this.full) return;
    const known = this.byKey.get(key);
    if (known) known.push(shape);
    else this.byKey.set(key, [shape]);
    this.size++;
  }
}
