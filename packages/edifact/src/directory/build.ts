/**
 * Builds a directory's tables from the files of a UNECE distribution, whatever their container: the importer hands
 * over every file it found (in nested zips or folders) by name, and this picks the ones it knows by their UNTDID
 * names: `ORDERS_D.96A` (message), `EDSD.96A`/`TRSD.96A` (segments), `EDCD`/`TRCD` (composites), `EDED`/`TRED`
 * (elements), `UNCL*.96A` (code lists). Interactive (ID..) and index (..I1/..I2) files are ignored. Pure code: no
 * Node built-ins.
 */
import {
  parseCodesFile,
  parseCompositesFile,
  parseElementsFile,
  parseMessageFile,
  parseSegmentsFile,
} from './parse-files.ts';
import { decodeDirectoryText } from './text.ts';
import type { Directory } from './types.ts';

/** One file of a distribution: its name (any path, only the base name counts) and bytes. */
export type DirectoryFile = { name: string; bytes: Uint8Array };

type Kind = 'message' | 'segments' | 'composites' | 'elements' | 'codes';

const baseName = (path: string): string => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);

/** Which table a file feeds, and the directory release it names (`96A`), from its UNTDID file name. */
export const classifyDirectoryFile = (path: string): { kind: Kind; release: string; type?: string } | undefined => {
  const name = baseName(path).toUpperCase();
  let match = /^([A-Z]{6})_D\.(\d\d[A-Z])$/.exec(name);
  // Interactive messages (IDMD, UIH/UIT envelope, ISO 9735 part 5) are not batch messages: left out.
  if (match?.[1] && match[2] && !/(^|\/)IDMD[^/]*\//i.test(path.replace(/\\/g, '/'))) {
    return { kind: 'message', release: match[2], type: match[1] };
  }
  match = /^(?:ED|TR)(SD|CD|ED)\.(\d\d[A-Z])$/.exec(name);
  if (match?.[1] && match[2]) {
    const kind = match[1] === 'SD' ? 'segments' : match[1] === 'CD' ? 'composites' : 'elements';
    return { kind, release: match[2] };
  }
  match = /^UNCL(?:-?\d+)?\.(\d\d[A-Z])$/.exec(name);
  if (match?.[1]) return { kind: 'codes', release: match[1] };
  return undefined;
};

/**
 * Builds the tables of one directory from its files. Throws when the files hold no directory or several
 * releases (a caller error, not bad EDIFACT input).
 */
export const buildDirectory = (files: readonly DirectoryFile[]): Directory => {
  const known = files.flatMap((file) => {
    const kind = classifyDirectoryFile(file.name);
    return kind ? [{ ...kind, file }] : [];
  });
  const releases = [...new Set(known.map((entry) => entry.release))];
  if (releases.length === 0) throw new Error('no UN/EDIFACT directory files found (EDMD/TRMD, EDSD/TRSD, ...)');
  if (releases.length > 1) throw new Error(`files of several directories mixed: ${releases.join(', ')}`);
  const release = releases[0] ?? '';
  const directory: Directory = {
    name: `D${release}`,
    version: 'D',
    release,
    agency: 'UN',
    elements: {},
    composites: {},
    segments: {},
    messages: {},
    codes: {},
  };
  // By name, so that UNCL-1 comes before UNCL-2 and the result does not depend on the container's order.
  known.sort((a, b) => baseName(a.file.name).localeCompare(baseName(b.file.name)));
  for (const entry of known) {
    const text = decodeDirectoryText(entry.file.bytes);
    switch (entry.kind) {
      case 'elements':
        for (const element of parseElementsFile(text)) directory.elements[element.id] = element;
        break;
      case 'composites':
        for (const composite of parseCompositesFile(text)) directory.composites[composite.id] = composite;
        break;
      case 'segments':
        for (const segment of parseSegmentsFile(text)) directory.segments[segment.tag] = segment;
        break;
      case 'codes':
        for (const [id, list] of parseCodesFile(text)) directory.codes[id] = { ...directory.codes[id], ...list };
        break;
      case 'message': {
        const children = parseMessageFile(text);
        if (children && entry.type) directory.messages[entry.type] = { type: entry.type, children };
        break;
      }
    }
  }
  return directory;
};
