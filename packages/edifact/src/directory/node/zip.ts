/**
 * A small, dependency-free zip reader over `node:zlib` (PKWARE APPNOTE 6.3: end of central directory record,
 * central directory file headers, local file headers). Only what UNECE's directory distributions use: methods 0
 * (stored) and 8 (deflate). Node only: the browser build never imports this file.
 *
 * Uploads reach it from the admin area, so it reads an archive as an attacker may shape it: every entry is inflated
 * with a cap on its output (zlib stops as soon as the cap is passed, so a bomb costs at most the cap), the caps are
 * shared by nested archives through one budget, and the entry count and nesting depth are bounded.
 */
import { inflateRawSync } from 'node:zlib';

/** One file of a zip archive. */
export type ZipEntry = {
  /** Path inside the archive, `/` separated. */
  name: string;
  /** Uncompressed bytes; throws {@link ZipLimitError} when they would pass the budget. */
  read(): Uint8Array;
};

/** The bounds an archive and everything nested in it must keep. */
export type ZipLimits = {
  /** Files and folders listed, over all nested archives. */
  maxEntries: number;
  /** Bytes inflated, over all entries read from all nested archives. */
  maxTotalBytes: number;
  /** Bytes one entry may inflate to. */
  maxEntryBytes: number;
  /** Archives inside archives: 1 means a zip may hold zips but those may not hold more. */
  maxDepth: number;
};

/**
 * Enough for any UNECE directory (D01B, the largest of the shipped ones, inflates to about 20 MB in about 400 files),
 * small enough that an upload can never hold the process's memory.
 */
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
  maxDepth: 3,
};

/** An archive that passes one of its {@link ZipLimits}. */
export class ZipLimitError extends Error {
  constructor(
    readonly limit: keyof ZipLimits,
    readonly max: number,
  ) {
    super(`zip archive over its limit: ${limit} ${max}`);
    this.name = 'ZipLimitError';
  }
}

/** What is left of the limits while one upload is read; nested archives share it. */
export type ZipBudget = { limits: ZipLimits; entries: number; bytes: number };

export const createZipBudget = (limits: Partial<ZipLimits> = {}): ZipBudget => ({
  limits: { ...DEFAULT_ZIP_LIMITS, ...limits },
  entries: 0,
  bytes: 0,
});

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

/** Whether the bytes start like a zip archive (local file header or an empty archive's end record). */
export const isZip = (bytes: Uint8Array): boolean =>
  bytes.length >= 4 &&
  bytes[0] === 0x50 &&
  bytes[1] === 0x4b &&
  ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06));

const inflateCapped = (data: Uint8Array, budget: ZipBudget): Uint8Array => {
  const { maxEntryBytes, maxTotalBytes } = budget.limits;
  const room = Math.min(maxEntryBytes, maxTotalBytes - budget.bytes);
  let out: Buffer;
  try {
    // maxOutputLength makes zlib give up once the output passes it, instead of inflating the whole bomb first.
    out = inflateRawSync(data, { maxOutputLength: Math.max(1, room) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw room === maxEntryBytes
        ? new ZipLimitError('maxEntryBytes', maxEntryBytes)
        : new ZipLimitError('maxTotalBytes', maxTotalBytes);
    }
    throw error;
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};

const charge = (budget: ZipBudget, size: number): void => {
  budget.bytes += size;
  if (budget.bytes > budget.limits.maxTotalBytes) throw new ZipLimitError('maxTotalBytes', budget.limits.maxTotalBytes);
  if (size > budget.limits.maxEntryBytes) throw new ZipLimitError('maxEntryBytes', budget.limits.maxEntryBytes);
};

/**
 * Lists the files of a zip archive (folders are left out). Throws on an archive it cannot read, and a
 * {@link ZipLimitError} on one that passes the budget's limits. `depth` is how deep this archive is nested (0: the
 * upload itself).
 */
export const readZip = (bytes: Uint8Array, budget: ZipBudget = createZipBudget(), depth = 0): ZipEntry[] => {
  if (depth > budget.limits.maxDepth) throw new ZipLimitError('maxDepth', budget.limits.maxDepth);
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
  budget.entries += count;
  if (budget.entries > budget.limits.maxEntries) throw new ZipLimitError('maxEntries', budget.limits.maxEntries);
  let offset = view.getUint32(eocd + 16, true);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder('latin1');
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== CENTRAL_SIGNATURE) {
      throw new Error('corrupt zip central directory');
    }
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
        if (localOffset + 30 > bytes.length || view.getUint32(localOffset, true) !== LOCAL_SIGNATURE) {
          throw new Error(`corrupt zip entry ${name}`);
        }
        const start =
          localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
        const data = bytes.subarray(start, start + compressedSize);
        let out: Uint8Array;
        if (method === 0) out = data;
        else if (method === 8) out = inflateCapped(data, budget);
        else throw new Error(`zip entry ${name}: unsupported compression method ${method}`);
        // Stored entries count too: many entries pointing at one stored member would otherwise be free.
        charge(budget, out.byteLength);
        return out;
      },
    });
  }
  return entries;
};
