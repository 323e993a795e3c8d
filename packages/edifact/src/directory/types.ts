/**
 * The tables of one UN/EDIFACT directory (e.g. D96A) as the validators use them, and the compact JSON form they are
 * stored in. Built by the importer from UNECE's own distribution files; the project ships none of them
 * (see docs/directories.md for the licence reason).
 */

/** Status in a directory: M mandatory, C conditional (UNTDID Part 4, UNSM General Introduction). */
export type Status = 'M' | 'C';

/** A data element of the element directory (EDED/TRED): name and representation, e.g. `an..35`, `n3`. */
export type DataElementDef = { id: string; name: string; format: string };

/** A component of a composite (EDCD/TRCD): the element it uses, its status and representation. */
export type ComponentDef = { id: string; status: Status; format: string };

/** A composite data element (EDCD/TRCD). */
export type CompositeDef = { id: string; name: string; components: ComponentDef[] };

/**
 * A data element or composite at one position of a segment (EDSD/TRSD). `repeat` is the repetition count of the
 * directory (printed from D99B on, 1 before); `format` is empty for a composite.
 */
export type SegmentElementDef = { id: string; status: Status; repeat: number; format: string };

/** A segment of the segment directory (EDSD/TRSD). */
export type SegmentDef = { tag: string; name: string; elements: SegmentElementDef[] };

/** A segment at one position of a message's segment table. */
export type SegmentNodeDef = { kind: 'segment'; position: string; tag: string; status: Status; max: number };

/** A segment group of a message's segment table (`SG1` ...); its first child is its trigger segment. */
export type GroupNodeDef = {
  kind: 'group';
  position: string;
  /** `SG1`, `SG2`, ... as numbered in the directory. */
  name: string;
  status: Status;
  max: number;
  children: StructureNodeDef[];
};

export type StructureNodeDef = SegmentNodeDef | GroupNodeDef;

/** A message's segment table (EDMD/TRMD section 4.3.1). */
export type MessageDef = { type: string; children: StructureNodeDef[] };

/** One code list of UNCL: code value to name. */
export type CodeListDef = Record<string, string>;

/** Everything the validators need of one directory. */
export type Directory = {
  /** `D96A`. */
  name: string;
  /** UNH S009 0052 and 0054, e.g. `D` and `96A`. */
  version: string;
  release: string;
  /** UNH S009 0051, `UN`. */
  agency: string;
  elements: Record<string, DataElementDef>;
  composites: Record<string, CompositeDef>;
  segments: Record<string, SegmentDef>;
  messages: Record<string, MessageDef>;
  /** UNCL code lists by data element id; empty for D93A, D94B and D95A, which have no UNCL. */
  codes: Record<string, CodeListDef>;
};

/** Summary of a stored directory, as listed by the store. */
export type DirectoryInfo = {
  name: string;
  version: string;
  release: string;
  agency: string;
  messages: number;
  segments: number;
  composites: number;
  elements: number;
  codeLists: number;
  /** When it was imported (ISO 8601) and from what. */
  importedAt: string;
  source: string;
};

/** Where validators get directories from. The Node store implements it over a folder; a browser can preload. */
export type DirectoryProvider = {
  /** A directory already loaded, or undefined (synchronous, for the hot path). */
  get(name: string): Directory | undefined;
  /** Loads a directory (lazily, once) and returns it, or undefined when the store does not have it. */
  load(name: string): Promise<Directory | undefined>;
};

/** A provider over directories held in memory (tests, browsers that fetched them). */
export const createMemoryDirectoryProvider = (directories: readonly Directory[]): DirectoryProvider => {
  const byName = new Map(directories.map((directory) => [directory.name, directory]));
  return {
    get: (name) => byName.get(name),
    load: (name) => Promise.resolve(byName.get(name)),
  };
};
