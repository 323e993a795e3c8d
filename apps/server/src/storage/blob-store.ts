import type { Readable } from 'node:stream';

/**
 * Bytes the server keeps beside its rows (issue-report attachments now; document payloads next), behind one interface
 * so that nothing assumes one process or a local disk. The database is the default store; an S3-compatible bucket is
 * the scale-out option (decision 0008, `STORAGE_URL`).
 */
export type BlobStore = {
  /** Which store this is, for logs and the health page. */
  readonly kind: 'database' | 's3';
  /**
   * Stores bytes under a key, replacing whatever was there; the blob becomes visible only once it is whole. A body
   * given as a stream is read as it comes (memory does not grow with its size); past `maxBytes` the put fails with
   * {@link BlobTooLargeError} and nothing is stored.
   */
  put(key: string, body: BlobBody, options: PutOptions): Promise<BlobInfo>;
  /** The blob's bytes as a stream, read from the store as they are consumed; {@link BlobNotFoundError} when absent. */
  get(key: string): Promise<BlobObject>;
  /** The blob's metadata, or undefined when there is none under that key. */
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Removes a blob; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Every blob whose key starts with the prefix, in key order, fetched page by page. */
  list(prefix: string): AsyncIterable<BlobListing>;
};

/** Bytes in memory, or a stream (a Node Readable is an async iterable of Buffers). */
export type BlobBody = Uint8Array | AsyncIterable<Uint8Array>;

export type PutOptions = {
  contentType: string;
  /** Refuse the body once it is longer than this. */
  maxBytes?: number | undefined;
};

export type BlobInfo = { key: string; contentType: string; size: number; createdAt: Date };
/** What a listing shows: S3 lists no content type, so neither store promises one here. */
export type BlobListing = { key: string; size: number; createdAt: Date };
export type BlobObject = BlobInfo & { body: Readable };

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob under key ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export class BlobTooLargeError extends Error {
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`Blob ${key} is longer than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/**
 * Keys are chosen by the server (`issue-reports/<report>/<file>`), never by a client. The characters S3 calls safe,
 * `/` between non-empty segments, no `.` or `..` segment: the same key means the same object on every store.
 */
const KEY = /^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/;

export function assertBlobKey(key: string): void {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..'))
    throw new TypeError(`Not a blob key: ${JSON.stringify(key)}`);
}

/** A prefix is a key's beginning: empty, or what a key may start with (it may end in `/`). */
export function assertBlobPrefix(prefix: string): void {
  if (prefix === '') return;
  assertBlobKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

/**
 * The body cut into pieces of exactly `pieceBytes` (the last one shorter), each a fresh Buffer, so memory holds at
 * most one piece plus one incoming chunk whatever the body's length. Throws {@link BlobTooLargeError} as soon as the
 * bytes read pass `maxBytes`.
 */
export async function* piecesOf(
  key: string,
  body: BlobBody,
  pieceBytes: number,
  maxBytes = Number.POSITIVE_INFINITY,
): AsyncGenerator<Buffer> {
  let total = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const source: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = body instanceof Uint8Array ? [body] : body;
  for await (const chunk of source) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new BlobTooLargeError(key, maxBytes);
    let rest = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (pendingBytes + rest.length >= pieceBytes) {
      const take = pieceBytes - pendingBytes;
      yield Buffer.concat([...pending, rest.subarray(0, take)]);
      pending = [];
      pendingBytes = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      // Copied: the caller may reuse the chunk's memory once it has handed it over.
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}
