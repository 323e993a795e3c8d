import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { directoryUrl, importDirectory, isZip, shippedDirectoryZips } from '@portal/edifact/node';
import {
  EDIFACT_DIRECTORY_ZIP_MAX_BYTES,
  type EdifactDirectoryInfo,
  type ValidateEdifactResponse,
} from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { CpuPool } from '../../cpu/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { importToBundle } from './directory-bundle.ts';
import { createDirectoryCache } from './directory-cache.ts';

export type EdifactService = Awaited<ReturnType<typeof createEdifactService>>;

/** The directory name a source's file name suggests (`d96a.zip` → `D96A`). */
const nameOf = (source: string): string | undefined =>
  basename(source)
    .toUpperCase()
    .match(/D\d\d[A-Z]/)?.[0];

/** The body of a GET, refused once it passes `maxBytes` (the download is as untrusted as an upload). */
async function fetchCapped(url: string, maxBytes: number): Promise<Uint8Array> {
  const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!response.ok || !response.body) throw new Error(`download of ${url} failed: HTTP ${response.status}`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`download of ${url} is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Validation of pasted EDIFACT against the imported UN/EDIFACT directories (specification) and the EANCOM guides
 * (map), plus the directories the admin area manages. The directories live in the BlobStore; the threads of the CPU
 * pool (edifact.tasks.ts) read this process's local copy of them, which directory-cache.ts keeps in step before each
 * use (decision 0019).
 */
export async function createEdifactService(deps: {
  /** A folder of this process's own for the local copy of the directories (`DATA_DIR/edifact`). */
  cachePath: string;
  blobs: BlobStore;
  log: FastifyBaseLogger;
  cpu: CpuPool;
  downloadBaseUrl?: string | undefined;
}) {
  const cache = createDirectoryCache({ blobs: deps.blobs, path: deps.cachePath, log: deps.log });
  const task = async (content: string, strict: boolean) => ({
    storePath: cache.path,
    generation: await cache.current(),
    content,
    strict,
  });

  return {
    async validate(content: string, strict = false): Promise<ValidateEdifactResponse> {
      return deps.cpu.run({ name: 'edifact.validate', ...(await task(content, strict)) });
    },

    /** The CONTRL a partner's system would send back for this input. */
    async contrl(content: string, strict = false): Promise<string> {
      return deps.cpu.run({ name: 'edifact.contrl', ...(await task(content, strict)) });
    },

    async listDirectories(): Promise<EdifactDirectoryInfo[]> {
      return cache.list();
    },

    /** Reads the zip on the CPU pool, writes the directory to the BlobStore, then brings this process's copy in step. */
    async importZip(bytes: Uint8Array, source: string): Promise<EdifactDirectoryInfo> {
      if (!isZip(bytes)) throw new AppError('validation.failed', { details: [{ field: 'file', code: 'zipRequired' }] });
      const result = await deps.cpu.run({ name: 'edifact.importZip', bytes, source });
      if (result.ok) {
        await cache.publish(result.info.name, result.bundle);
        return result.info;
      }
      deps.log.warn({ reason: result.message }, 'directory import refused');
      throw new AppError('validation.failed', {
        details: [{ field: 'file', code: result.code }],
        message: result.message,
      });
    },

    /** Fetches UNECE's zip by name (at most the upload limit) and imports it as an upload is imported. */
    async download(name: string): Promise<EdifactDirectoryInfo> {
      const url = directoryUrl(name.toUpperCase(), deps.downloadBaseUrl);
      let bytes: Uint8Array;
      try {
        bytes = await fetchCapped(url, EDIFACT_DIRECTORY_ZIP_MAX_BYTES);
      } catch (error) {
        deps.log.warn({ err: error, name }, 'directory download failed');
        throw new AppError('edifact.directory_download_failed', {
          message: error instanceof Error ? error.message : 'download failed',
        });
      }
      const info = await this.importZip(bytes, url);
      if (info.name !== name.toUpperCase()) {
        throw new AppError('edifact.directory_download_failed', {
          message: `${url} holds directory ${info.name}, not ${name}`,
        });
      }
      return info;
    },

    /**
     * Before the server listens: the directories shipped with the EDIFACT package (D96A and D01B) and each source of
     * EDIFACT_DIRECTORIES_IMPORT, each imported once, when the BlobStore lacks that directory. The local copy is
     * brought in step with the store first, so a process started beside others fetches what they imported.
     */
    async importAtStart(sources: readonly string[], options: { shipped?: boolean } = {}): Promise<void> {
      const all = [...(options.shipped === false ? [] : Object.values(shippedDirectoryZips)), ...sources];
      const have = new Set((await cache.list()).map((d) => d.name));
      for (const source of all) {
        const guess = nameOf(source);
        if (guess && have.has(guess)) continue;
        if (!existsSync(source)) {
          deps.log.warn({ source }, 'UN/EDIFACT directory to import: no such file or folder');
          continue;
        }
        try {
          const { info, bundle } = await importToBundle((store) => importDirectory(source, store));
          await cache.publish(info.name, bundle);
          have.add(info.name);
          deps.log.info({ directory: info.name, source }, 'UN/EDIFACT directory imported');
        } catch (error) {
          deps.log.error({ err: error, source }, 'UN/EDIFACT directory import failed');
        }
      }
    },
  };
}
