import type { BlobStore } from './blob-store.ts';

export type CopyReport = { copied: number; bytes: number };

/**
 * Copies every blob under a prefix from one store to another, one at a time and streamed (memory does not grow with
 * a blob's size), keeping keys and content types; a blob already in the target is overwritten. For moving a server
 * from one `STORAGE_URL` to another: stop the server, copy, start it with the new URL.
 */
export async function copyBlobs(
  from: BlobStore,
  to: BlobStore,
  options: { prefix?: string; onCopied?: (key: string, size: number) => void } = {},
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, bytes: 0 };
  for await (const entry of from.list(options.prefix ?? '')) {
    const blob = await from.get(entry.key);
    const stored = await to.put(entry.key, blob.body, { contentType: blob.contentType });
    report.copied += 1;
    report.bytes += stored.size;
    options.onCopied?.(entry.key, stored.size);
  }
  return report;
}
