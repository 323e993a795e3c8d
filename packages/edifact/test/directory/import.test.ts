import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readDirectorySource, readDirectoryZip } from '../../src/directory/node/import.ts';
import { openDirectoryStore, importDirectoryZip } from '../../src/directory/node/store.ts';
import { isZip, readZip } from '../../src/directory/node/zip.ts';
import { decodeCp437 } from '../../src/directory/text.ts';
import { extractedPath, getTestDirectory, phpMappingPath, unecePath } from './helpers.ts';
import { buildDistributionZip, writeZip } from './zip-writer.ts';

describe('zip reader', () => {
  it('reads stored and deflated entries', () => {
    const zip = writeZip([
      { name: 'a.txt', bytes: new TextEncoder().encode('hello'), deflate: false },
      { name: 'dir/b.txt', bytes: new TextEncoder().encode('world '.repeat(100)), deflate: true },
    ]);
    expect(isZip(zip)).toBe(true);
    const entries = readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(['a.txt', 'dir/b.txt']);
    expect(new TextDecoder().decode(entries[1]?.read())).toBe('world '.repeat(100));
    expect(deflateRawSync).toBeTypeOf('function');
  });

  it('rejects what is not a zip', () => {
    expect(isZip(new Uint8Array([1, 2, 3, 4]))).toBe(false);
    expect(() => readZip(new Uint8Array(100))).toThrow(/not a zip/);
  });
});

describe('CP437', () => {
  it('decodes the box-drawing characters of the segment tables', () => {
    expect(decodeCp437(new Uint8Array([0xc4, 0xbf, 0xb3, 0xd9, 0xc1, 0x41, 0x82]))).toBe('─┐│┘┴Aé');
  });
});

describe('importer', () => {
  it('gives identical tables from the published zip, the one-level unpacked folder and the extracted folder', async () => {
    const fromFolder = await readDirectorySource(unecePath('D96A'));
    const fromExtracted = await readDirectorySource(extractedPath('D96A'));
    const fromZip = readDirectoryZip(buildDistributionZip(unecePath('D96A')));
    expect(fromZip).toEqual(fromFolder);
    expect(fromExtracted).toEqual(fromFolder);
  });

  it('round-trips through the store', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'edifact-store-'));
    try {
      const store = openDirectoryStore(folder);
      const info = await importDirectoryZip(buildDistributionZip(unecePath('D96A')), store, 'd96a.zip');
      expect(info).toMatchObject({ name: 'D96A', version: 'D', release: '96A', messages: 125, codeLists: 207 });
      expect((await store.list()).map((i) => i.name)).toEqual(['D96A']);
      expect(store.get('D96A')).toBeUndefined();
      const loaded = await store.load('D96A');
      expect(loaded).toEqual(await getTestDirectory('D96A'));
      expect(store.get('D96A')).toBe(loaded);
      expect(await store.load('D99Z')).toBeUndefined();
      expect(await store.load('../etc')).toBeUndefined();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('parses every table kind of D01B', async () => {
    const d01b = await getTestDirectory('D01B');
    expect(d01b.elements['3039']).toEqual({ id: '3039', name: 'Party identifier', format: 'an..35' });
    expect(d01b.composites.C082?.components.map((c) => `${c.id}${c.status}${c.format}`)).toEqual([
      '3039Man..35',
      '1131Can..17',
      '3055Can..3',
    ]);
    expect(d01b.segments.ADR?.elements.at(-1)).toEqual({ id: 'C517', status: 'C', repeat: 5, format: '' });
    const orders = d01b.messages.ORDERS?.children ?? [];
    expect(orders.slice(0, 2)).toEqual([
      { kind: 'segment', position: '0010', tag: 'UNH', status: 'M', max: 1 },
      { kind: 'segment', position: '0020', tag: 'BGM', status: 'M', max: 1 },
    ]);
    const sg28 = orders.find((n) => n.kind === 'group' && n.name === 'SG28');
    expect(sg28).toMatchObject({ status: 'C', max: 200000, position: '1030' });
    expect(d01b.codes['1001']?.['220']).toBe('Order');
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
