/**
 * Hostile zips for the upload tests, written here because the project only reads zips: a bomb (many central
 * entries pointing at one deflated member that inflates to `inflatedBytes`), a junk directory, and archives nested
 * deeper than any UNECE distribution.
 */
import { createDeflateRaw, deflateRawSync } from 'node:zlib';

type Entry = { name: string; at: number; method: number; compressed: number; size: number };

const central = (entries: Entry[], dataEnd: number): Buffer => {
  const parts = entries.map((e) => {
    const name = Buffer.from(e.name, 'latin1');
    const c = Buffer.alloc(46 + name.length);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(e.method, 10);
    c.writeUInt32LE(e.compressed, 20);
    c.writeUInt32LE(Math.min(e.size, 0xffffffff), 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(e.at, 42);
    name.copy(c, 46);
    return c;
  });
  const dir = Buffer.concat(parts);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(dataEnd, 16);
  return Buffer.concat([dir, end]);
};

const local = (name: string, method: number, data: Buffer, size: number): Buffer => {
  const n = Buffer.from(name, 'latin1');
  const l = Buffer.alloc(30 + n.length);
  l.writeUInt32LE(0x04034b50, 0);
  l.writeUInt16LE(20, 4);
  l.writeUInt16LE(method, 8);
  l.writeUInt32LE(data.length, 18);
  l.writeUInt32LE(Math.min(size, 0xffffffff), 22);
  l.writeUInt16LE(n.length, 26);
  n.copy(l, 30);
  return Buffer.concat([l, data]);
};

/** A plain zip of the given files (deflated). */
export const zipOf = (files: { name: string; bytes: Buffer }[]): Buffer => {
  const blobs: Buffer[] = [];
  const entries: Entry[] = [];
  let at = 0;
  for (const file of files) {
    const data = deflateRawSync(file.bytes);
    const blob = local(file.name, 8, data, file.bytes.length);
    entries.push({ name: file.name, at, method: 8, compressed: data.length, size: file.bytes.length });
    blobs.push(blob);
    at += blob.length;
  }
  return Buffer.concat([...blobs, central(entries, at)]);
};

/** One deflated member of `inflatedBytes` letters, listed `entries` times under directory file names. */
export async function zipBomb(inflatedBytes: number, entries: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const block = Buffer.alloc(1 << 20, 0x41);
  for (let left = inflatedBytes; left > 0; left -= block.length) {
    const part = left >= block.length ? block : block.subarray(0, left);
    if (!deflate.write(part)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await new Promise((r) => deflate.once('end', r));
  const data = Buffer.concat(chunks);
  const member = local('EDED.96A', 8, data, inflatedBytes);
  const names = ['EDED.96A', 'EDSD.96A', 'EDCD.96A', 'ORDERS_D.96A'];
  const list = Array.from({ length: entries }, (_, i) => ({
    name: `part${i}/${names[i % names.length]}`,
    at: 0,
    method: 8,
    compressed: data.length,
    size: inflatedBytes,
  }));
  return Buffer.concat([member, central(list, member.length)]);
}

/** A zip holding a zip holding a zip ..., `depth` levels, the innermost holding one small file. */
export const nestedZip = (depth: number): Buffer => {
  let inner = zipOf([{ name: 'EDSD.96A', bytes: Buffer.from('not a directory file at all') }]);
  for (let i = 0; i < depth; i++) inner = zipOf([{ name: `level${i}.zip`, bytes: inner }]);
  return inner;
};
