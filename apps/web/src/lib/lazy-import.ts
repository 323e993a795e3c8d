import { CHUNK_LOAD_TIMEOUT_MS } from '@portal/contracts';

/** A script chunk that did not arrive in time or failed to load (description, sections 8 and 9). */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/** Wraps a dynamic import so it fails with a ChunkLoadError after the time-out instead of hanging forever. */
export function withChunkTimeout<T>(
  load: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new ChunkLoadError(`Loading chunk timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      load().then(
        (module) => {
          clearTimeout(timer);
          resolve(module);
        },
        (cause: unknown) => {
          clearTimeout(timer);
          reject(new ChunkLoadError('Loading chunk failed', { cause }));
        },
      );
    });
}
