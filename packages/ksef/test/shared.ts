/** Where the KSeF files beside the clone are: `<repo>/../shared/specs/ksef`, resolved from this file. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ksefSpecsDir = fileURLToPath(new URL('../../../../shared/specs/ksef/', import.meta.url));
export const hasKsefSpecs = existsSync(ksefSpecsDir);

const samplesDir = `${ksefSpecsDir}fa3/samples/mf/`;
const upoDir = `${ksefSpecsDir}upo/examples/`;

/** The Ministry's FA(3) samples, by file name. */
export const listFa3Samples = (): string[] =>
  hasKsefSpecs
    ? readdirSync(samplesDir)
        .filter((f) => f.endsWith('.xml'))
        .sort()
    : [];
export const readFa3Sample = (name: string): Buffer => readFileSync(samplesDir + name);

export const listUpoExamples = (): string[] =>
  hasKsefSpecs
    ? readdirSync(upoDir)
        .filter((f) => f.endsWith('.xml'))
        .sort()
    : [];
export const readUpoExample = (name: string): string => readFileSync(upoDir + name, 'utf8');
