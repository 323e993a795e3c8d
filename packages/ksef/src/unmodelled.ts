/**
 * What the model drops from a received invoice: the element paths of the XML that reading it and writing it back
 * would not produce. The server keeps the original XML of every received invoice; this says when the portal's view
 * of it is incomplete (e.g. `Faktura/Fa/WarunkiTransakcji/Transport`).
 */
import { parseFa3, parseTree } from './parse.ts';
import { buildFa3 } from './write.ts';

const pathsOf = (node: unknown, prefix: string, out: Set<string>): Set<string> => {
  const items = Array.isArray(node) ? node : [node];
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    for (const [name, child] of Object.entries(item as Record<string, unknown>)) {
      if (name.startsWith('@_') || name === '#text') continue;
      const path = prefix ? `${prefix}/${name}` : name;
      out.add(path);
      pathsOf(child, path, out);
    }
  }
  return out;
};

/** The element paths of `xml` that the model does not hold, sorted; empty when nothing is lost. */
export function findUnmodelled(xml: string | Uint8Array): string[] {
  const source = pathsOf(parseTree(xml), '', new Set());
  const written = pathsOf(parseTree(buildFa3(parseFa3(xml))), '', new Set());
  return [...source].filter((path) => !written.has(path)).sort();
}
