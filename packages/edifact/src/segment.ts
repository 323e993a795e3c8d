/**
 * The tokenizer's segments: the `Segment` shape of model.ts, with elements split from the segment's text only when
 * first read. Most segments are only placed in a segment table and their values checked once; the specification
 * level reads them through `RawSegment.raw` without building element, component or string objects.
 */
import type { Element, Position, Segment } from './model.ts';

/**
 * A segment whose data holds no release character, repetition separator, line break, invalid or to-be-decoded
 * unit: its elements are `raw` split at the element separator, each split at the component separator.
 */
export class RawSegment implements Segment {
  tag: string;
  /** The segment's position, as numbers: a Position object per segment was a third of the tokenizer's allocations. */
  line: number;
  column: number;
  offset: number;
  length: number;
  index: number;
  /**
   * The data from the first element separator (included) to the terminator (excluded); '' when the segment has no
   * elements. Undefined once `elements` has been assigned (the elements are then the only truth).
   */
  raw: string | undefined;
  /** Char codes of the component and element separators in force for this segment. */
  readonly comp: number;
  readonly elem: number;
  private split: Element[] | undefined;

  constructor(
    tag: string,
    line: number,
    column: number,
    offset: number,
    length: number,
    index: number,
    raw: string,
    comp: number,
    elem: number,
  ) {
    this.tag = tag;
    this.line = line;
    this.column = column;
    this.offset = offset;
    this.length = length;
    this.index = index;
    this.raw = raw;
    this.comp = comp;
    this.elem = elem;
    this.split = undefined;
  }

  /** A new Position object each time it is read (findings copy its fields; nothing keeps it). */
  get position(): Position {
    return { line: this.line, column: this.column, offset: this.offset };
  }

  set position(position: Position) {
    this.line = position.line;
    this.column = position.column;
    this.offset = position.offset;
  }

  get elements(): Element[] {
    return (this.split ??= splitElements(this.raw ?? '', this.comp, this.elem));
  }

  set elements(elements: Element[]) {
    this.split = elements;
    this.raw = undefined;
  }

  /** The plain shape (what JSON and structured clones of a segment hold). */
  toJSON(): Segment {
    return { tag: this.tag, elements: this.elements, position: this.position, length: this.length, index: this.index };
  }
}

/** Elements of `raw` (starting with an element separator), as the tokenizer's eager path builds them. */
const splitElements = (raw: string, comp: number, elem: number): Element[] => {
  const n = raw.length;
  const elements: Element[] = [];
  if (n === 0) return elements;
  let components: string[] = [];
  let cs = 1;
  for (let p = 1; p < n; p++) {
    const c = raw.charCodeAt(p);
    if (c === comp) {
      components.push(raw.slice(cs, p));
      cs = p + 1;
    } else if (c === elem) {
      components.push(raw.slice(cs, p));
      elements.push({ components });
      components = [];
      cs = p + 1;
    }
  }
  components.push(raw.slice(cs, n));
  elements.push({ components });
  return elements;
};
