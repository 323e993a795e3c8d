import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, withChunkTimeout } from './lazy-import.ts';

describe('withChunkTimeout', () => {
  it('raises a ChunkLoadError when the chunk does not arrive within 120 s', async () => {
    vi.useFakeTimers();
    const load = withChunkTimeout(() => new Promise<never>(() => {}));
    const result = load();
    const assertion = expect(result).rejects.toBeInstanceOf(ChunkLoadError);
    await vi.advanceTimersByTimeAsync(120_000);
    await assertion;
  });

  it('passes a loaded module through and wraps a failed import', async () => {
    await expect(withChunkTimeout(() => Promise.resolve({ a: 1 }))()).resolves.toEqual({ a: 1 });
    await expect(withChunkTimeout(() => Promise.reject(new TypeError('Failed to fetch')))()).rejects.toMatchObject({
      name: 'ChunkLoadError',
    });
  });
});
