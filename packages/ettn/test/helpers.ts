/**
 * The e-TTN specs beside the clone (`../shared/specs/ettn`, never copied here): read only by the conformance suite
 * (`*.conformance.test.ts`), which is skipped when they are not there.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (/work/main). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const specsDir = repoRoot + '../shared/specs/ettn/';
export const hasSpecs = existsSync(specsDir);

export const listSamples = (): string[] =>
  readdirSync(specsDir + 'samples/')
    .filter((f) => f.endsWith('.xml'))
    .sort();

export const readSample = (name: string): string => readFileSync(specsDir + 'samples/' + name, 'utf8');
