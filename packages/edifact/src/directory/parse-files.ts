/**
 * Parsers for the text files of a UN/EDIFACT directory distribution (UNTDID): the element directory (EDED/TRED),
 * composite directory (EDCD/TRCD), segment directory (EDSD/TRSD), message specifications (EDMD/TRMD, section 4.3.1
 * segment table) and code lists (UNCL). The layout changed over the years (no position numbers in D93A, a repetition
 * column from D99B on, 5-digit positions and ASCII boxes in later directories, change indicators `+ * # | - X`),
 * so the parsers read by pattern, not by column.
 */
import type {
  CodeListDef,
  ComponentDef,
  CompositeDef,
  DataElementDef,
  GroupNodeDef,
  SegmentDef,
  SegmentElementDef,
  Status,
  StructureNodeDef,
} from './types.ts';

const SEPARATOR = /^\s*[─═-]{10,}\s*$/;
const FORMAT = String.raw`(?:an|a|n)(?:\.\.)?\d+`;
// Change indicators, alone or combined (`#|`), sometimes glued to the tag (`*#|TDT`).
const INDICATOR = String.raw`(?:[+*#|X-]{0,2}[+*#|-]\s*|[+*#|X-]{1,3}\s+)?`;

const splitLines = (text: string): string[] => text.split(/\r?\n|\r/);

/** Splits a directory file into its entries, separated by lines of box-drawing or ASCII dashes. */
const splitBlocks = (text: string): string[][] => {
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const line of splitLines(text)) {
    if (SEPARATOR.test(line)) {
      blocks.push(current);
      current = [];
    } else current.push(line);
  }
  blocks.push(current);
  return blocks;
};

const ELEMENT_HEADER = new RegExp(String.raw`^\s*${INDICATOR}(\d{4})\s+(\S.*?)\s*(?:\[[A-Z]\])?\s*$`);
const REPR = new RegExp(String.raw`^\s*${INDICATOR}Repr:\s*(${FORMAT})\s*$`);

/** EDED/TRED: data elements with their representation (`Repr: an..35`). */
export const parseElementsFile = (text: string): DataElementDef[] => {
  const elements: DataElementDef[] = [];
  for (const block of splitBlocks(text)) {
    let header: RegExpExecArray | null = null;
    for (const line of block) {
      if (!header) {
        header = ELEMENT_HEADER.exec(line);
        continue;
      }
      const repr = REPR.exec(line);
      if (repr?.[1] && header[1] && header[2]) {
        elements.push({ id: header[1], name: header[2], format: repr[1] });
        break;
      }
    }
  }
  return elements;
};

type Entry = { top: boolean; id: string; name: string; status: Status; repeat: number; format: string };

const ENTRY = new RegExp(String.raw`^\s*${INDICATOR}(?:(\d{3})\s+)?${INDICATOR}([A-Z]\d{3}|\d{4})\s+(\S.*)$`);
const ENTRY_TAIL = new RegExp(String.raw`^(.*?)\s+([MC])(?:\s+(\d+))?(?:\s+(${FORMAT}))?\s*$`);
const LABEL = /^\s*(?:[+*#|X-]{1,3}\s+)?(Function|Desc|Note|Notes|Repr):/;

/**
 * Reads the element lines of one segment or composite entry. A line with a position number (`010`) is a
 * top-level element; a line without one belongs to the composite above it until a blank line (D93A has no
 * position numbers at all, and separates top-level elements by blank lines). Long names wrap onto a second line
 * that carries the status and format.
 */
const parseEntries = (lines: readonly string[]): Entry[] => {
  const entries: Entry[] = [];
  let pending: { top: boolean; id: string; name: string } | undefined;
  let inLabel = false;
  let inComposite = false;
  const push = (top: boolean, id: string, name: string, tail: RegExpExecArray): void => {
    const status = tail[2] === 'M' ? 'M' : 'C';
    const format = tail[4] ?? '';
    entries.push({ top, id, name: name.trim(), status, repeat: tail[3] ? Number(tail[3]) : 1, format });
    if (top) inComposite = format === '' && /^[A-Z]/.test(id);
  };
  for (const line of lines) {
    if (line.trim() === '') {
      inLabel = false;
      inComposite = false;
      pending = undefined;
      continue;
    }
    if (LABEL.test(line)) {
      inLabel = true;
      continue;
    }
    if (inLabel) continue;
    const entry = ENTRY.exec(line);
    if (entry?.[2] && entry[3] !== undefined) {
      const top = entry[1] !== undefined || !inComposite;
      const tail = ENTRY_TAIL.exec(entry[3]);
      if (tail?.[1] !== undefined) {
        push(top, entry[2], tail[1], tail);
        pending = undefined;
      } else pending = { top, id: entry[2], name: entry[3] };
      continue;
    }
    if (pending) {
      const tail = ENTRY_TAIL.exec(line);
      if (tail?.[1] !== undefined) {
        push(pending.top, pending.id, `${pending.name} ${tail[1].trim()}`, tail);
        pending = undefined;
      } else pending.name += ` ${line.trim()}`;
    }
  }
  return entries;
};

const COMPOSITE_HEADER = new RegExp(String.raw`^\s*${INDICATOR}([A-Z]\d{3})\s+(\S.*?)\s*$`);

/** EDCD/TRCD: composites with their components. */
export const parseCompositesFile = (text: string): CompositeDef[] => {
  const composites: CompositeDef[] = [];
  for (const block of splitBlocks(text)) {
    const at = block.findIndex((line) => COMPOSITE_HEADER.test(line) && !ENTRY_TAIL.test(line));
    if (at < 0) continue;
    const header = COMPOSITE_HEADER.exec(block[at] ?? '');
    if (!header?.[1] || !header[2]) continue;
    const components: ComponentDef[] = parseEntries(block.slice(at + 1)).map((entry) => ({
      id: entry.id,
      status: entry.status,
      format: entry.format,
    }));
    if (components.length > 0) composites.push({ id: header[1], name: header[2], components });
  }
  return composites;
};

const SEGMENT_HEADER = new RegExp(String.raw`^\s*${INDICATOR}([A-Z][A-Z0-9]{2})\s{2,}([A-Z].*?)\s*$`);

/** EDSD/TRSD: segments with their elements and composites (the components come from EDCD). */
export const parseSegmentsFile = (text: string): SegmentDef[] => {
  const segments: SegmentDef[] = [];
  for (const block of splitBlocks(text)) {
    const at = block.findIndex((line) => SEGMENT_HEADER.test(line));
    if (at < 0) continue;
    const header = SEGMENT_HEADER.exec(block[at] ?? '');
    if (!header?.[1] || !header[2]) continue;
    const elements: SegmentElementDef[] = parseEntries(block.slice(at + 1))
      .filter((entry) => entry.top)
      .map((entry) => ({ id: entry.id, status: entry.status, repeat: entry.repeat, format: entry.format }));
    if (elements.length > 0) segments.push({ tag: header[1], name: header[2], elements });
  }
  return segments;
};

const TABLE_HEADER = /^\s*(?:Pos\s+)?Tag\s+Name\b/i;
const TABLE_SEGMENT = new RegExp(
  // After the position, any one-letter mark (`X`, and `S` in D94A) before the tag.
  String.raw`^\s*${INDICATOR}(\d{4,5})?\s*(?:[+*#|A-Z-]{1,3}\s+)?([A-Z][A-Z0-9]{2})\s+(\S.*?)\s+([MC])\s+(\d+)(.*)$`,
);
const TABLE_GROUP = /^\s*(?:[+*#|X-]{1,3}\s+)?(\d{4,5})?.*?Segment group\s+(\d+)\D*?([MC])\s+(\d+)/i;

/** Counts the groups a segment-table line closes: one `┘` or `┴` per group (`+` in the ASCII tables). */
const countClosings = (tail: string): number => {
  let count = 0;
  for (const char of tail) if (char === '┘' || char === '┴' || char === '+') count++;
  return count;
};

/**
 * EDMD/TRMD: the segment table of section 4.3.1 (4.2.2 in D93A), with its groups drawn as boxes. A group line
 * (`───── Segment group 1 ──── C 10──┐`) opens a group; each `┘`/`┴` (ASCII `+`) at the end of a segment line closes
 * one. Returns undefined when the file has no segment table.
 */
export const parseMessageFile = (text: string): StructureNodeDef[] | undefined => {
  const lines = splitLines(text);
  const start = lines.findIndex((line) => TABLE_HEADER.test(line));
  if (start < 0) return undefined;
  const root: StructureNodeDef[] = [];
  const stack: GroupNodeDef[] = [];
  let counter = 0;
  const position = (explicit: string | undefined): string => {
    counter += 10;
    return explicit ?? String(counter).padStart(4, '0');
  };
  const add = (node: StructureNodeDef): void => {
    const parent = stack.at(-1);
    (parent ? parent.children : root).push(node);
  };
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const group = TABLE_GROUP.exec(line);
    if (group?.[2] && group[4]) {
      const node: GroupNodeDef = {
        kind: 'group',
        position: position(group[1]),
        name: `SG${group[2]}`,
        status: group[3]?.toUpperCase() === 'M' ? 'M' : 'C',
        max: Number(group[4]),
        children: [],
      };
      add(node);
      stack.push(node);
      continue;
    }
    const segment = TABLE_SEGMENT.exec(line);
    if (segment?.[2] && segment[5]) {
      add({
        kind: 'segment',
        position: position(segment[1]),
        tag: segment[2],
        status: segment[4] === 'M' ? 'M' : 'C',
        max: Number(segment[5]),
      });
      for (let n = countClosings(segment[6] ?? ''); n > 0 && stack.length > 0; n--) stack.pop();
      if (segment[2] === 'UNT' && stack.length === 0) break;
    }
  }
  return root;
};

const CODE_HEADER = new RegExp(String.raw`^\s*${INDICATOR}(\d{4})\s+(\S.*?)\s*(?:\[[A-Z]\])?\s*$`);
const CODE_LINE = /^([+*#|X-]{1,3}(?=\s))?(\s*)(\S+)\s+(\S.*?)\s*$/;

/**
 * UNCL: code lists per data element. After the element's `Desc`/`Repr`/`Note` paragraphs, a code line starts with
 * the code value (left-aligned at column 5, or right-aligned before column 10 in the older lists) and the
 * description lines under it are indented further.
 */
export const parseCodesFile = (text: string): Map<string, CodeListDef> => {
  const lists = new Map<string, CodeListDef>();
  for (const block of splitBlocks(text)) {
    const at = block.findIndex((line) => CODE_HEADER.test(line));
    if (at < 0) continue;
    const id = CODE_HEADER.exec(block[at] ?? '')?.[1];
    if (!id) continue;
    const list: CodeListDef = {};
    let inLabel = false;
    let nameColumn = -1;
    let count = 0;
    for (const line of block.slice(at + 1)) {
      if (line.trim() === '') {
        inLabel = false;
        continue;
      }
      if (LABEL.test(line)) {
        inLabel = true;
        continue;
      }
      if (inLabel) continue;
      const match = CODE_LINE.exec(line);
      if (!match?.[3] || match[4] === undefined) continue;
      const indent = (match[1]?.length ?? 0) + (match[2]?.length ?? 0);
      // Description lines (and wrapped names) are indented to the name column of the code lines or past it.
      if (nameColumn < 0) {
        if (indent > 10) continue;
        nameColumn = line.indexOf(match[4], indent + match[3].length);
      } else if (indent >= nameColumn - 1) continue;
      list[match[3]] = match[4];
      count++;
    }
    if (count > 0) lists.set(id, list);
  }
  return lists;
};
