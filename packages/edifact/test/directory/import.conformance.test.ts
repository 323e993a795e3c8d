/**
 * Conformance: the importer over third-party data beside the clone (`../shared/edifact-directories`): UNECE's
 * distributions unpacked one level and fully, and php-edifact's XML code lists. Skipped without it;
 * import.test.ts checks the shipped zips on every run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDirectorySource, readDirectoryZip } from '../../src/directory/node/import.ts';
import { shippedDirectoryZips } from '../../src/directory/node/shipped.ts';
import { extractedPath, getTestDirectory, hasShared, phpMappingPath, unecePath } from './helpers.ts';
import { buildDistributionZip } from './zip-writer.ts';

describe.skipIf(!hasShared)('importer on the UNECE folders and the php-edifact XML', () => {
  it('gives identical tables from the published zip, the one-level unpacked folder and the extracted folder', async () => {
    const fromFolder = await readDirectorySource(unecePath('D96A'));
    const fromExtracted = await readDirectorySource(extractedPath('D96A'));
    const fromZip = readDirectoryZip(buildDistributionZip(unecePath('D96A')));
    expect(fromZip).toEqual(fromFolder);
    expect(fromExtracted).toEqual(fromFolder);
    // The zip the package ships is the same distribution.
    expect(readDirectoryZip(new Uint8Array(readFileSync(shippedDirectoryZips.D96A)))).toEqual(fromFolder);
  });

  it.each(['D96A', 'D01B'] as const)('has the code lists of the php-edifact XML (%s)', async (name) => {
    const directory = await getTestDirectory(name);
    const xml = readFileSync(join(phpMappingPath(name), 'codes.xml'), 'utf8');
    const mismatched = new Set<string>();
    let lists = 0;
    for (const block of xml.split('<data_element ').slice(1)) {
      const id = /^id="(\w+)"/.exec(block)?.[1] ?? '';
      const theirs = new Set([...block.matchAll(/<code id="([^"]*)"/g)].map((m) => m[1]?.replace(/&amp;/g, '&') ?? ''));
      const ours = new Set(Object.keys(directory.codes[id] ?? {}));
      lists++;
      const theirsOnly = [...theirs].filter((code) => !ours.has(code));
      const oursOnly = [...ours].filter((code) => !theirs.has(code));
      if (theirsOnly.length === 0 && oursOnly.length === 0) continue;
      mismatched.add(id);
      // The XML takes the X of codes starting with X (1153 `XA`, 3035 `XX`, ...) for the change indicator
      // "marked for deletion" and drops it; UNCL has them as codes.
      if (id === '9421') continue;
      expect(
        oursOnly.every((code) => code.startsWith('X') && theirs.has(code.slice(1))),
        id,
      ).toBe(true);
      expect(
        theirsOnly.every((code) => ours.has(`X${code}`)),
        id,
      ).toBe(true);
    }
    expect(lists).toBeGreaterThan(150);
    // D96A's UNCL-2 file ends in the middle of list 9421 (one code left); the XML got the rest elsewhere.
    expect([...mismatched].sort()).toEqual(
      name === 'D96A' ? ['1153', '3035', '3153', '3155', '6313', '7161', '9421'] : [],
    );
  });
});
