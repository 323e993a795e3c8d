/** The rules and state of the drag-and-drop upload widget (description, section 4: pending, loading, completed, error). */

export type UploadStatus = 'pending' | 'loading' | 'completed' | 'error';

export type UploadErrorCode =
  'fileType' | 'fileTooLarge' | 'fileEmpty' | 'tooManyFiles' | 'totalTooLarge' | 'uploadFailed';

export type UploadError = { code: UploadErrorCode; params?: Record<string, string | number> };

export type UploadItem = {
  id: string;
  file: File;
  status: UploadStatus;
  /** 0..100 */
  progress: number;
  error?: UploadError;
};

export type UploadLimits = {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Accepted extensions without the dot, lower case. */
  extensions: readonly string[];
};

let nextId = 0;
function newId(): string {
  nextId += 1;
  return `upload-${nextId}`;
}

export function fileExtension(name: string): string | undefined {
  const match = /\.([a-z0-9]+)$/i.exec(name.trim());
  return match?.[1]?.toLowerCase();
}

/** Files that will be sent: every item not refused. */
export function sendableItems(items: readonly UploadItem[]): UploadItem[] {
  return items.filter((item) => item.status !== 'error' || item.error?.code === 'uploadFailed');
}

/**
 * Adds dropped or chosen files after the ones already listed. A file breaking a limit is listed with the error
 * saying which limit, so the user sees why it will not be sent; the others are pending.
 */
export function addFiles(items: readonly UploadItem[], files: readonly File[], limits: UploadLimits): UploadItem[] {
  const result = [...items];
  let count = sendableItems(result).length;
  let total = sendableItems(result).reduce((sum, item) => sum + item.file.size, 0);
  for (const file of files) {
    const error = checkFile(file, limits, count, total);
    if (error) {
      result.push({ id: newId(), file, status: 'error', progress: 0, error });
      continue;
    }
    count += 1;
    total += file.size;
    result.push({ id: newId(), file, status: 'pending', progress: 0 });
  }
  return result;
}

function checkFile(file: File, limits: UploadLimits, count: number, total: number): UploadError | undefined {
  const name = file.name;
  const ext = fileExtension(name);
  if (!ext || !limits.extensions.includes(ext)) return { code: 'fileType', params: { name } };
  if (file.size === 0) return { code: 'fileEmpty', params: { name } };
  if (file.size > limits.maxFileBytes)
    return { code: 'fileTooLarge', params: { name, size: file.size, max: limits.maxFileBytes } };
  if (count >= limits.maxFiles) return { code: 'tooManyFiles', params: { name, max: limits.maxFiles } };
  if (total + file.size > limits.maxTotalBytes)
    return { code: 'totalTooLarge', params: { name, max: limits.maxTotalBytes } };
  return undefined;
}

/**
 * Spreads the progress of one multipart request over its files in order: the bytes sent so far fill the first file,
 * then the next. `loaded` and `total` are the request's own counts (the form fields and framing included).
 */
export function applyProgress(items: readonly UploadItem[], loaded: number, total: number): UploadItem[] {
  const sending = sendableItems(items);
  const fileBytes = sending.reduce((sum, item) => sum + item.file.size, 0);
  const sent = total > 0 ? (Math.min(loaded, total) / total) * fileBytes : 0;
  let offset = 0;
  const progress = new Map<string, number>();
  for (const item of sending) {
    const size = Math.max(item.file.size, 1);
    progress.set(item.id, Math.max(0, Math.min(100, Math.round(((sent - offset) / size) * 100))));
    offset += item.file.size;
  }
  return items.map((item) => {
    const value = progress.get(item.id);
    return value === undefined ? item : { ...item, status: 'loading', progress: value, error: undefined };
  });
}

/** Sets every file being sent to a final state (completed after success, error after a failed request). */
export function finishItems(items: readonly UploadItem[], outcome: 'completed' | 'error'): UploadItem[] {
  const sending = new Set(sendableItems(items).map((item) => item.id));
  return items.map((item) => {
    if (!sending.has(item.id)) return item;
    return outcome === 'completed'
      ? { ...item, status: 'completed', progress: 100, error: undefined }
      : { ...item, status: 'error', error: { code: 'uploadFailed', params: { name: item.file.name } } };
  });
}

/** Marks the files the server refused (400 details with `params.name`). */
export function markRefused(
  items: readonly UploadItem[],
  refused: readonly { code: string; name?: string }[],
): UploadItem[] {
  return items.map((item) => {
    const match = refused.find((r) => r.name === item.file.name);
    if (!match) return item;
    const code = (['fileType', 'fileTooLarge', 'fileEmpty', 'tooManyFiles', 'totalTooLarge'] as const).find(
      (c) => c === match.code,
    );
    return {
      ...item,
      status: 'error',
      progress: 0,
      error: { code: code ?? 'uploadFailed', params: { name: item.file.name } },
    };
  });
}

/** Bytes as the user reads them (1.5 MB), in the page's language. */
export function formatBytes(bytes: number, locale?: string): string {
  const units = ['B', 'KB', 'MB', 'GB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return `${number} ${units[unit] ?? 'B'}`;
}
