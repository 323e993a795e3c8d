import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readDirectorySource, readDirectoryZip } from '../../src/directory/node/import.ts';
import { shippedDirectoryLicence, shippedDirectoryZips } from '../../src/directory/node/shipped.ts';
import { openDirectoryStore, importDirectoryZip } from '../../src/directory/node/store.ts';
import { isZip, readZip } from '../../src/directory/node/zip.ts';
import { decodeCp437 } from '../../src/directory/text.ts';
import { getTestDirectory } from './helpers.ts';
import { writeZip } from './zip-writer.ts';

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
  it('imports the shipped zips, the UNECE originals PROVENANCE.md lists', { timeout: 60_000 }, async () => {
    const provenance = readFileSync(join(dirname(shippedDirectoryZips.D96A), 'PROVENANCE.md'), 'utf8');
    for (const [name, messages, codeLists] of [
      ['D96A', 125, 207],
      ['D01B', 194, 268],
    ] as const) {
      const bytes = readFileSync(shippedDirectoryZips[name]);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      expect(provenance, name).toContain(`${name.toLowerCase()}.zip ${sha256}`);
      const directory = readDirectoryZip(new Uint8Array(bytes));
      expect(directory.name).toBe(name);
      expect(Object.keys(directory.messages)).toHaveLength(messages);
      expect(Object.keys(directory.codes)).toHaveLength(codeLists);
      expect(directory).toEqual(await getTestDirectory(name));
    }
    expect(readFileSync(shippedDirectoryLicence, 'latin1')).toMatch(/Licence Agreement for the use of UN\/EDIFACT/);
  });

  it(
    'gives the same tables from the zip unpacked one level and unpacked fully into a folder',
    { timeout: 60_000 },
    async () => {
      const folder = await mkdtemp(join(tmpdir(), 'edifact-unpacked-'));
      try {
        const entries = readZip(new Uint8Array(readFileSync(shippedDirectoryZips.D96A)));
        // One level: the distribution's files, its nested zips (TRMD.ZIP, UNCL.ZIP, ...) kept as they are.
        await mkdir(join(folder, 'one-level'));
        for (const entry of entries) await writeFile(join(folder, 'one-level', entry.name), entry.read());
        // Fully: every nested zip unpacked into a sub-folder of its own.
        for (const entry of entries) {
          const bytes = entry.read();
          const target = join(folder, 'full', /\.zip$/i.test(entry.name) ? entry.name.slice(0, -4) : '');
          await mkdir(target, { recursive: true });
          if (!/\.zip$/i.test(entry.name)) await writeFile(join(target, entry.name), bytes);
          else for (const inner of readZip(bytes)) await writeFile(join(target, inner.name), inner.read());
        }
        const fromZip = await getTestDirectory('D96A');
        expect(await readDirectorySource(join(folder, 'one-level'))).toEqual(fromZip);
        expect(await readDirectorySource(join(folder, 'full'))).toEqual(fromZip);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  );

  it('round-trips through the store', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'edifact-store-'));
    try {
      const store = openDirectoryStore(folder);
      const info = await importDirectoryZip(new Uint8Array(readFileSync(shippedDirectoryZips.D96A)), store, 'd96a.zip');
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
});
