import { describe, expect, it } from 'vitest';
import {
  addFiles,
  applyProgress,
  finishItems,
  formatBytes,
  markRefused,
  sendableItems,
  type UploadLimits,
} from './upload-files.ts';

const limits: UploadLimits = { maxFiles: 2, maxFileBytes: 100, maxTotalBytes: 120, extensions: ['pdf', 'png', 'txt'] };
const file = (name: string, size: number) => new File([new Uint8Array(size)], name);

describe('upload files', () => {
  it('keeps allowed files pending and lists each refused one with the limit it breaks', () => {
    const items = addFiles(
      [],
      [
        file('a.pdf', 50),
        file('virus.exe', 10),
        file('empty.txt', 0),
        file('big.png', 101),
        file('b.PNG', 90),
        file('c.txt', 10),
      ],
      limits,
    );
    expect(items.map((i) => [i.file.name, i.status, i.error?.code])).toEqual([
      ['a.pdf', 'pending', undefined],
      ['virus.exe', 'error', 'fileType'],
      ['empty.txt', 'error', 'fileEmpty'],
      ['big.png', 'error', 'fileTooLarge'],
      ['b.PNG', 'error', 'totalTooLarge'],
      ['c.txt', 'pending', undefined],
    ]);
    const more = addFiles(items, [file('d.txt', 1)], limits);
    expect(more.at(-1)?.error).toEqual({ code: 'tooManyFiles', params: { name: 'd.txt', max: 2 } });
    expect(sendableItems(more).map((i) => i.file.name)).toEqual(['a.pdf', 'c.txt']);
  });

  it('spreads the request progress over the files in order, then completes or fails them', () => {
    const items = addFiles([], [file('a.pdf', 50), file('x.exe', 5), file('b.pdf', 50)], limits);
    const half = applyProgress(items, 60, 120);
    expect(half.map((i) => [i.status, i.progress])).toEqual([
      ['loading', 100],
      ['error', 0],
      ['loading', 0],
    ]);
    const most = applyProgress(items, 90, 120);
    expect(most[2]?.progress).toBe(50);
    expect(finishItems(most, 'completed').map((i) => i.status)).toEqual(['completed', 'error', 'completed']);
    const failed = finishItems(most, 'error');
    expect(failed.map((i) => i.error?.code)).toEqual(['uploadFailed', 'fileType', 'uploadFailed']);
    // A failed upload may be sent again.
    expect(sendableItems(failed)).toHaveLength(2);
    expect(markRefused(items, [{ code: 'fileType', name: 'b.pdf' }])[2]?.error?.code).toBe('fileType');
  });

  it('formats sizes', () => {
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(5 * 1024 * 1024, 'en')).toBe('5 MB');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
  });
});
