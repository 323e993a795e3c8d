/**
 * The imported UN/EDIFACT directories live in the BlobStore (decision 0019), one bundle per directory under
 * `edifact/directories/<NAME>/<stamp>.gz`; the newest stamp of a name is the directory. Each process keeps a local
 * copy in the engine's own folder layout (one folder per directory), which the CPU pool's threads read with
 * `openDirectoryStore`: the cache.
 *
 * Staying in step: every import also rewrites a small blob, `edifact/directories-changed`, with a fresh token. Before
 * each use the process reads that token (one small read of the store) and checks that the folders it filled are
 * still there (one file check per directory); only when either differs does it list the store and fetch the
 * directories whose key changed. A change of the cache's contents raises `generation`, which tells the threads to
 * reopen the folder.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { openDirectoryStore, type DirectoryInfo } from '@portal/edifact/node';
import { BlobNotFoundError, type BlobStore } from '../../storage/blob-store.ts';
import { DIRECTORY_NAME, packBundle, readDirectoryFiles, unpackBundle } from './directory-bundle.ts';

export const DIRECTORY_PREFIX = 'edifact/directories/';
export const DIRECTORIES_CHANGED_KEY = 'edifact/directories-changed';
/** In each cache folder: the key of the bundle it was filled from. A folder without it predates decision 0019. */
const MARKER = '.blob';

export type DirectoryCache = ReturnType<typeof createDirectoryCache>;

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A key that sorts after every earlier import's: the time in fixed width, then randomness for ties. */
const stampedKey = (name: string): string =>
  `${DIRECTORY_PREFIX}${name}/${String(Date.now()).padStart(15, '0')}-${randomBytes(4).toString('hex')}.gz`;

export function createDirectoryCache(deps: { blobs: BlobStore; path: string; log: FastifyBaseLogger }) {
  const root = resolve(deps.path);
  const { blobs, log } = deps;
  let generation = 0;
  /** The change token read before the last listing; undefined until the first one. */
  let seenToken: string | undefined;
  /** Directory name → the bundle key its cache folder holds. */
  let held = new Map<string, string>();
  let queue: Promise<unknown> = Promise.resolve();
  let checking: Promise<number> | undefined;

  /** Syncs and imports of this process run one at a time. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function readToken(): Promise<string> {
    try {
      return (await readAll((await blobs.get(DIRECTORIES_CHANGED_KEY)).body)).toString('utf8');
    } catch (error) {
      if (error instanceof BlobNotFoundError) return '';
      throw error;
    }
  }

  async function announceChange(): Promise<void> {
    await blobs.put(DIRECTORIES_CHANGED_KEY, Buffer.from(randomUUID()), { contentType: 'text/plain' });
  }

  /** The newest bundle key of each directory in the store. */
  async function storedKeys(): Promise<Map<string, string>> {
    const newest = new Map<string, string>();
    for await (const entry of blobs.list(DIRECTORY_PREFIX)) {
      const [name, file, ...rest] = entry.key.slice(DIRECTORY_PREFIX.length).split('/');
      if (!name || !file || rest.length > 0 || !DIRECTORY_NAME.test(name)) continue;
      if (entry.key > (newest.get(name) ?? '')) newest.set(name, entry.key);
    }
    return newest;
  }

  /** The directory folders of the cache, each with the key it was filled from (undefined: from before 0019). */
  async function cachedKeys(): Promise<Map<string, string | undefined>> {
    const found = new Map<string, string | undefined>();
    let entries;
    try {
      entries = await readdir(root, { withFileTypes: true });
    } catch {
      return found;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || !DIRECTORY_NAME.test(entry.name)) continue;
      const key = await readFile(join(root, entry.name, MARKER), 'utf8').catch(() => undefined);
      found.set(entry.name, key);
    }
    return found;
  }

  /** Puts a folder in place of the directory's, whole: the old one moves aside first and comes back on failure. */
  async function swapIn(staging: string, name: string): Promise<void> {
    const target = join(root, name);
    const previous = `${staging}.old`;
    const hadPrevious = await rename(target, previous).then(
      () => true,
      () => false,
    );
    try {
      await rename(staging, target);
    } catch (error) {
      if (hadPrevious) await rename(previous, target);
      throw error;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    if (hadPrevious) await rm(previous, { recursive: true, force: true });
  }

  /** Copies one bundle from the store into the cache; false when it was replaced meanwhile (the next sync sees it). */
  async function fill(name: string, key: string): Promise<boolean> {
    let bytes: Buffer;
    try {
      bytes = await readAll((await blobs.get(key)).body);
    } catch (error) {
      if (error instanceof BlobNotFoundError) return false;
      throw error;
    }
    let directory;
    try {
      directory = await unpackBundle(bytes);
      if (directory.name !== name) throw new Error(`it holds directory ${directory.name}`);
    } catch (error) {
      // Not a bundle this server wrote: the folder keeps what it had, and the other directories still come.
      log.error({ err: error, key }, 'UN/EDIFACT directory in the blob store is unreadable');
      return false;
    }
    const staging = join(root, `.${name}.${randomUUID()}`);
    await mkdir(staging, { recursive: true });
    for (const [fileName, content] of directory.files) await writeFile(join(staging, fileName), content);
    await writeFile(join(staging, MARKER), key);
    await swapIn(staging, name);
    return true;
  }

  async function putBundle(name: string, bundle: Uint8Array): Promise<string> {
    const key = stampedKey(name);
    await blobs.put(key, bundle, { contentType: 'application/gzip' });
    const older: string[] = [];
    for await (const entry of blobs.list(`${DIRECTORY_PREFIX}${name}/`)) if (entry.key < key) older.push(entry.key);
    for (const old of older) await blobs.delete(old);
    return key;
  }

  /** Brings the cache in step with the store; call inside `serial`. */
  async function sync(): Promise<void> {
    let token: string | undefined = await readToken();
    const stored = await storedKeys();
    const cached = await cachedKeys();
    let changed = false;
    for (const [name, key] of cached) {
      if (key !== undefined || stored.has(name)) continue;
      // DATA_DIR/edifact was the store itself before decision 0019: a directory only it has goes to the store.
      const adopted = await putBundle(name, await packBundle(await readDirectoryFiles(join(root, name), name)));
      await writeFile(join(root, name, MARKER), adopted);
      stored.set(name, adopted);
      cached.set(name, adopted);
      await announceChange();
      token = undefined;
      log.info({ directory: name }, 'UN/EDIFACT directory of the local folder copied to the blob store');
    }
    for (const [name, key] of stored) {
      if (cached.get(name) === key) continue;
      if (await fill(name, key)) {
        cached.set(name, key);
        changed = true;
      } else token = undefined;
    }
    for (const name of cached.keys()) {
      if (stored.has(name)) continue;
      await rm(join(root, name), { recursive: true, force: true });
      cached.delete(name);
      changed = true;
    }
    held = new Map([...cached].filter((entry): entry is [string, string] => entry[1] !== undefined));
    seenToken = token;
    if (changed) generation++;
  }

  async function allPresent(): Promise<boolean> {
    for (const name of held.keys()) {
      try {
        await access(join(root, name, MARKER));
      } catch {
        return false;
      }
    }
    return true;
  }

  return {
    /** The folder the threads open with `openDirectoryStore`. */
    path: root,

    /**
     * The cache's generation once it is in step with the store: one small read when nothing changed. Callers that
     * arrive while a check is under way share it.
     */
    current(): Promise<number> {
      checking ??= (async () => {
        if (seenToken !== undefined && (await readToken()) === seenToken && (await allPresent())) return generation;
        await serial(sync);
        return generation;
      })().finally(() => {
        checking = undefined;
      });
      return checking;
    },

    /** The store's directories, described as the engine's folder has them (read from the synced cache). */
    async list(): Promise<DirectoryInfo[]> {
      await this.current();
      const infos = await openDirectoryStore(root).list();
      return infos.filter((info) => held.has(info.name));
    },

    /** Writes an imported directory's bundle to the store (the truth), tells the other processes, then fills the cache. */
    publish(name: string, bundle: Uint8Array): Promise<void> {
      return serial(async () => {
        await putBundle(name, bundle);
        await announceChange();
        await sync();
      });
    },
  };
}
