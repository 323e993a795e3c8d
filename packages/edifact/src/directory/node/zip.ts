/**
 * A small, dependency-free zip reader over `node:zlib` (PKWARE APPNOTE 6.3: end of central directory record,
 * central directory file headers, local file headers). Only what UNECE's directory distributions use: methods 0
 * (stored) and 8 (deflate). Node only: the browser build never imports this file.
 */
import { inflateRawSync } from 'node:zlib';

/** One file of a zip archive. */
export type ZipEntry = {
  /** Path inside the archive, `/` separated. */
  name: string;
  /** Uncompressed bytes. */
  read(): Uint8Array;
};

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

/** Whether the bytes start like a zip archive (local file header or an empty archive's end record). */
export const isZip = (bytes: Uint8Array): boolean =>
  bytes.length >= 4 &&
  bytes[0] === 0x50 &&
  bytes[1] === 0x4b &&
  ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06));

/**
 * Lists the files of a zip archive (folders are left out). Throws on an archive it cannot read: the importer is a
 * tool run on trusted distribution files, not the validator.
 */
export const readZip = (bytes: Uint8Array): ZipEntry[] => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record sits in the last 22 + 65535 (comment) bytes (APPNOTE 4.3.16).
  let eocd = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - 0xffff; i--) {
    if (view.getUint32(i, true) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory record)');
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder('latin1');
  for (let n = 0; n < count; n++) {
    if (view.getUint32(offset, true) !== CENTRAL_SIGNATURE) throw new Error('corrupt zip central directory');
    const method = view.getUint16(offset + 10, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)).replaceAll('\\', '/');
    offset += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    entries.push({
      name,
      read: () => {
        if (view.getUint32(localOffset, true) !== LOCAL_SIGNATURE) throw new Error(`corrupt zip entry ${name}`);
        const start =
          localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
        const data = bytes.subarray(start, start + compressedSize);
        if (method === 0) return data;
        if (method === 8) {
          const out = inflateRawSync(data);
          return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
        }
        throw new Error(`zip entry ${name}: unsupported compression method ${method}`);
      },
    });
  }
  return entries;
};
