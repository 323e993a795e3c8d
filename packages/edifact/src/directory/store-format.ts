/**
 * The compact JSON form of a directory in the store, one folder per directory:
 *
 * - `meta.json`: {@link DirectoryInfo} (for listing without loading the tables);
 * - `tables.json`: elements, composites, segments and messages as positional arrays;
 * - `codes.json`: the UNCL code lists.
 *
 * Arrays instead of objects keep the files small (D01B: about 0.5 MB of tables) and quick to parse.
 */
import type { CodeListDef, Directory, DirectoryInfo, Status, StructureNodeDef } from './types.ts';

/** Version of the stored layout; a store written by another version is re-imported, not read. */
export const STORE_FORMAT = 1;

type StoredNode = [position: string, tag: string, status: Status, max: number, children?: StoredNode[]];

/** `tables.json`. */
export type StoredTables = {
  format: number;
  name: string;
  version: string;
  release: string;
  agency: string;
  elements: [id: string, name: string, format: string][];
  composites: [id: string, name: string, components: [id: string, status: Status, format: string][]][];
  segments: [tag: string, name: string, elements: [id: string, status: Status, repeat: number, format: string][]][];
  messages: [type: string, children: StoredNode[]][];
};

/** `codes.json`. */
export type StoredCodes = { format: number; codes: Record<string, [code: string, name: string][]> };

const encodeNodes = (nodes: readonly StructureNodeDef[]): StoredNode[] =>
  nodes.map((node) =>
    node.kind === 'segment'
      ? [node.position, node.tag, node.status, node.max]
      : [node.position, node.name, node.status, node.max, encodeNodes(node.children)],
  );

const decodeNodes = (nodes: readonly StoredNode[]): StructureNodeDef[] =>
  nodes.map(([position, tag, status, max, children]) =>
    children
      ? { kind: 'group', position, name: tag, status, max, children: decodeNodes(children) }
      : { kind: 'segment', position, tag, status, max },
  );

/** Summary of a directory for `meta.json`. */
export const describeDirectory = (directory: Directory, source: string, importedAt: string): DirectoryInfo => ({
  name: directory.name,
  version: directory.version,
  release: directory.release,
  agency: directory.agency,
  messages: Object.keys(directory.messages).length,
  segments: Object.keys(directory.segments).length,
  composites: Object.keys(directory.composites).length,
  elements: Object.keys(directory.elements).length,
  codeLists: Object.keys(directory.codes).length,
  importedAt,
  source,
});

export const encodeTables = (directory: Directory): StoredTables => ({
  format: STORE_FORMAT,
  name: directory.name,
  version: directory.version,
  release: directory.release,
  agency: directory.agency,
  elements: Object.values(directory.elements).map((e) => [e.id, e.name, e.format]),
  composites: Object.values(directory.composites).map((c) => [
    c.id,
    c.name,
    c.components.map((k) => [k.id, k.status, k.format]),
  ]),
  segments: Object.values(directory.segments).map((s) => [
    s.tag,
    s.name,
    s.elements.map((e) => [e.id, e.status, e.repeat, e.format]),
  ]),
  messages: Object.values(directory.messages).map((m) => [m.type, encodeNodes(m.children)]),
});

export const encodeCodes = (directory: Directory): StoredCodes => ({
  format: STORE_FORMAT,
  codes: Object.fromEntries(Object.entries(directory.codes).map(([id, list]) => [id, Object.entries(list)])),
});

/** Rebuilds a directory from its stored files (trusted: written by {@link encodeTables}). */
export const decodeDirectory = (tables: StoredTables, codes: StoredCodes | undefined): Directory => {
  const codeLists: Record<string, CodeListDef> = {};
  for (const [id, list] of Object.entries(codes?.codes ?? {})) codeLists[id] = Object.fromEntries(list);
  return {
    name: tables.name,
    version: tables.version,
    release: tables.release,
    agency: tables.agency,
    elements: Object.fromEntries(tables.elements.map(([id, name, format]) => [id, { id, name, format }])),
    composites: Object.fromEntries(
      tables.composites.map(([id, name, components]) => [
        id,
        { id, name, components: components.map(([cid, status, format]) => ({ id: cid, status, format })) },
      ]),
    ),
    segments: Object.fromEntries(
      tables.segments.map(([tag, name, elements]) => [
        tag,
        { tag, name, elements: elements.map(([id, status, repeat, format]) => ({ id, status, repeat, format })) },
      ]),
    ),
    messages: Object.fromEntries(
      tables.messages.map(([type, nodes]) => [type, { type, children: decodeNodes(nodes) }]),
    ),
    codes: codeLists,
  };
};
