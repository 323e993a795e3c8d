/**
 * A multipart POST through XMLHttpRequest, because fetch cannot report upload progress. Sends the session's bearer
 * token and, like the API client, renews it once after a 401 and tries again.
 */

export type UploadProgress = { loaded: number; total: number };

export type UploadResponse = { status: number; body: unknown };

export type UploadRequestOptions = {
  url: string;
  form: FormData;
  getAccessToken: () => string | undefined;
  refresh: () => Promise<boolean>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** For tests. */
  createRequest?: () => XMLHttpRequest;
};

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendOnce(options: UploadRequestOptions, token: string | undefined): Promise<UploadResponse> {
  return new Promise((resolve, reject) => {
    const xhr = options.createRequest?.() ?? new XMLHttpRequest();
    xhr.open('POST', options.url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => resolve({ status: xhr.status, body: parse(xhr.responseText) });
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(options.form);
  });
}

export async function uploadWithProgress(options: UploadRequestOptions): Promise<UploadResponse> {
  const token = options.getAccessToken();
  const first = await sendOnce(options, token);
  if (first.status !== 401 || !token) return first;
  const renewed = options.getAccessToken() !== token || (await options.refresh());
  const next = options.getAccessToken();
  if (!renewed || !next) return first;
  options.onProgress?.({ loaded: 0, total: 1 });
  return sendOnce(options, next);
}
