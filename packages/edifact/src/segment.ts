/**
 * The tokenizer's segments: the `Segment` shape of model.ts, with elements split from the segment's text only when
 * first read. Most segments are only placed in a segment table and their values checked once; the specification
 * level reads them in place (`RawSegment.text`) without building element, component or string objects.
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
  /** Char codes of the component and element separators in force for this segment. */
  readonly comp: number;
  readonly elem: number;
  private split: Element[] | undefined;
  /**
   * The tokenizer's flat text and where `raw` lies in it: no string per segment, and reads of a flat string are
   * faster than of a slice. Private, so that equality of segments does not depend on how the input was chunked.
   */
  #text: string | undefined;
  #from: number;
  #to: number;

  constructor(
    tag: string,
    line: number,
    column: number,
    offset: number,
    length: number,
    index: number,
    text: string,
    from: number,
    to: number,
    comp: number,
    elem: number,
  ) {
    this.tag = tag;
    this.line = line;
    this.column = column;
    this.offset = offset;
    this.length = length;
    this.index = index;
    this.comp = comp;
    this.elem = elem;
    this.split = undefined;
    this.#text = text;
    this.#from = from;
    this.#to = to;
  }

  /**
   * The data from the first element separator (included) to the terminator (excluded); '' when the segment has no
   * elements. Undefined once `elements` has been assigned (the elements are then the only truth).
   */
  get raw(): string | undefined {
    return this.#text?.slice(this.#from, this.#to);
  }

  /** The text holding `raw` at [from, to), or undefined once `elements` has been assigned. */
  get text(): string | undefined {
    return this.#text;
  }

  get from(): number {
    return this.#from;
  }

  get to(): number {
    return this.#to;
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
    return (this.split ??= splitElements(this.#text ?? '', this.#from, this.#to, this.comp, this.elem));
  }

  set elements(elements: Element[]) {
    this.split = elements;
    this.#text = undefined;
  }

  /** The plain shape (what JSON and structured clones of a segment hold). */
  toJSON(): Segment {
    return { tag: this.tag, elements: this.elements, position: this.position, length: this.length, index: this.index };
  }
}

/** Elements of text[from, to) (starting with an element separator), as the tokenizer's eager path builds them. */
const splitElements = (text: string, from: number, to: number, comp: number, elem: number): Element[] => {
  const elements: Element[] = [];
  if (from >= to) return elements;
  let components: string[] = [];
  let cs = from + 1;
  for (let p = from + 1; p < to; p++) {
    const c = text.charCodeAt(p);
    if (c === comp) {
      components.push(text.slice(cs, p));
      cs = p + 1;
    } else if (c === elem) {
      components.push(text.slice(cs, p));
      elements.push({ components });
      components = [];
      cs = p + 1;
    }
  }
  components.push(text.slice(cs, to));
  elements.push({ components });
  return elements;
};
