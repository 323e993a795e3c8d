import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertBlobKey,
  assertBlobPrefix,
  BlobNotFoundError,
  piecesOf,
  type BlobBody,
  type BlobInfo,
  type BlobListing,
  type BlobObject,
  type BlobStore,
  type PutOptions,
} from './blob-store.ts';
import type { S3Location } from './storage-url.ts';

/** S3's smallest part; with two parts in flight a put holds about 10 MiB, whatever the blob's size. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** Pieces the body is counted in on its way to the uploader (the size limit is checked at each). */
const COUNT_BYTES = 64 * 1024;

export type S3BlobStore = BlobStore & {
  /** Fails, naming the bucket, when it is missing or the credentials cannot reach it: at start, not at the first upload. */
  ready(): Promise<void>;
  close(): void;
};

/** A missing object: GetObject says NoSuchKey, HeadObject (no body) only the status. */
function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** The client for a parsed `STORAGE_URL`; credentials come from the AWS SDK's usual chain unless given. */
export function s3ClientFor(location: S3Location, credentials?: S3ClientConfig['credentials']): S3Client {
  return new S3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    ...(credentials ? { credentials } : {}),
  });
}

/**
 * Blobs as objects of one bucket, under an optional key prefix, for when several servers share the files or the
 * database should not carry them. Puts stream through the SDK's multipart uploader; gets hand over the HTTP body.
 */
export function createS3BlobStore(location: S3Location, client: S3Client = s3ClientFor(location)): S3BlobStore {
  const { bucket } = location;
  const objectKey = (key: string) => location.prefix + key;

  return {
    kind: 's3',

    async put(key: string, body: BlobBody, options: PutOptions): Promise<BlobInfo> {
      assertBlobKey(key);
      let size = 0;
      let refused: unknown;
      async function* counted(): AsyncGenerator<Buffer> {
        try {
          for await (const piece of piecesOf(key, body, COUNT_BYTES, options.maxBytes)) {
            size += piece.length;
            yield piece;
          }
        } catch (error) {
          refused = error;
          throw error;
        }
      }
      const upload = new Upload({
        client,
        params: {
          Bucket: bucket,
          Key: objectKey(key),
          Body: Readable.from(counted(), { objectMode: false }),
          ContentType: options.contentType,
        },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        // A failed put must leave nothing behind: the uploader aborts the multipart upload.
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // The uploader wraps or replaces a failure of the body; the caller gets the body's own (too large, say).
        throw refused ?? error;
      }
      return { key, contentType: options.contentType, size, createdAt: new Date() };
    },

    async get(key: string): Promise<BlobObject> {
      assertBlobKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        if (!(object.Body instanceof Readable)) throw new Error(`S3 gave no stream for ${key}`);
        return {
          key,
          contentType: object.ContentType ?? 'application/octet-stream',
          size: object.ContentLength ?? 0,
          createdAt: object.LastModified ?? new Date(0),
          body: object.Body,
        };
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        throw error;
      }
    },

    async stat(key: string): Promise<BlobInfo | undefined> {
      assertBlobKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return {
          key,
          contentType: head.ContentType ?? 'application/octet-stream',
          size: head.ContentLength ?? 0,
          createdAt: head.LastModified ?? new Date(0),
        };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async delete(key: string): Promise<void> {
      assertBlobKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async *list(prefix: string): AsyncGenerator<BlobListing> {
      assertBlobPrefix(prefix);
      // ListObjectsV2 returns keys in UTF-8 byte order, the order the database store lists in too.
      const pages = paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: objectKey(prefix) });
      for await (const page of pages) {
        for (const o of page.Contents ?? []) {
          if (!o.Key) continue;
          yield {
            key: o.Key.slice(location.prefix.length),
            size: o.Size ?? 0,
            createdAt: o.LastModified ?? new Date(0),
          };
        }
      }
    },

    async ready() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
        const why = e.$metadata?.httpStatusCode
          ? `${e.name ?? 'error'} (HTTP ${e.$metadata.httpStatusCode})`
          : String(error);
        throw new Error(`STORAGE_URL: bucket "${bucket}" cannot be used: ${why}`, { cause: error });
      }
    },

    close() {
      client.destroy();
    },
  };
}
