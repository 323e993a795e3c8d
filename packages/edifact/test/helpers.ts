import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareFindings } from '../src/findings.ts';
import type { Finding, Interchange } from '../src/model.ts';
import { Parser, type ParseResult } from '../src/parser.ts';

/** The repository root (/work/main). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The project's own EDIFACT fixtures (`test/fixtures/*.edi`, see the README there): what every test of `npm test`
 * reads, so that a fresh clone with nothing beside it passes.
 */
export const fixturesDir = new URL('./fixtures/', import.meta.url);

export const listFixtures = (): string[] =>
  readdirSync(fixturesDir)
    .filter((f) => f.endsWith('.edi'))
    .sort();

export const readFixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, fixturesDir)));

/**
 * The third-party sample corpus beside the clone (`../shared/samples/edifact`, never copied here): read only by the
 * conformance suite (`*.conformance.test.ts`), which is skipped when it is not there.
 */
export const samplesDir = repoRoot + '../shared/samples/edifact/';
export const hasSamples = existsSync(samplesDir);

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

/** Parses the input fed in the given pieces: what a stream of these chunks gives. */
export const parseChunks = (chunks: Uint8Array[]): ParseResult => {
  const interchanges: Interchange[] = [];
  const findings: Finding[] = [];
  const parser = new Parser({
    message: (_m, _i, f) => findings.push(...f),
    interchange: (i) => interchanges.push(i),
    finding: (f) => findings.push(f),
  });
  for (const c of chunks) parser.write(c);
  parser.end();
  findings.sort(compareFindings);
  return { interchanges, findings };
};
