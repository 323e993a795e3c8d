import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (/work/main); shared test data lives beside it in ../shared. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const samplesDir = repoRoot + '../shared/samples/edifact/';

export const listSamples = (): string[] =>
  readdirSync(samplesDir)
    .filter((f) => !f.endsWith('.md'))
    .sort();

export const readSample = (name: string): Uint8Array => new Uint8Array(readFileSync(samplesDir + name));

/** Line and column (1-based) of an offset, counting LF, CRLF and lone CR as line ends. */
export const lineColumnAt = (units: ArrayLike<number>, offset: number): { line: number; column: number } => {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = units[i];
    if (c === 0x0a || (c === 0x0d && units[i + 1] !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
};

/** The bytes cut at the given offsets (any order, repeats allowed): the chunks a stream would deliver. */
export const splitAt = (bytes: Uint8Array, points: number[]): Uint8Array[] => {
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of sorted) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out;
};
