import { queryOptions, useMutation } from '@tanstack/react-query';
import { UploadDocumentsResponseSchema, type DocumentDirection, type UploadDocumentsResponse } from '@portal/contracts';
import type { ApiSession } from '../../../lib/api-client.ts';
import { parseResponse } from '../../../lib/api-client.ts';
import { ApiError, NETWORK_ERROR_STATUS, toApiError } from '../../../lib/api-error.ts';
import { attachmentFilename, saveBlob, sendAuthorized } from '../../../lib/api-files.ts';
import { uploadWithProgress, type UploadProgress } from '../../../components/upload-widget/upload-request.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { documentsKeys } from './documents-queries.ts';

const originalPath = (id: string) => `/documents/${encodeURIComponent(id)}/original`;

/** The original as received, as text (one segment a line is the view's job). */
export function originalQuery(session: ApiSession, id: string) {
  return queryOptions({
    queryKey: documentsKeys.original(id),
    queryFn: async ({ signal }) => (await sendAuthorized(session, originalPath(id), { signal })).text(),
    staleTime: Infinity,
  });
}

/** Saves the original's exact bytes under the server's file name. */
export function useDownloadOriginal() {
  const session = useSession();
  return useMutation({
    mutationFn: async ({ id, fallbackName }: { id: string; fallbackName: string }) => {
      const response = await sendAuthorized(session, originalPath(id));
      saveBlob(await response.blob(), attachmentFilename(response.headers.get('content-disposition'), fallbackName));
    },
  });
}

export type UploadDocumentsOptions = {
  direction: DocumentDirection;
  files: readonly File[];
  session: ApiSession;
  onProgress: (progress: UploadProgress) => void;
  createRequest?: () => XMLHttpRequest;
};

/** `POST /api/documents/upload?direction=…` as multipart/form-data, one `file` part per file. */
export async function uploadDocuments(options: UploadDocumentsOptions): Promise<UploadDocumentsResponse> {
  const form = new FormData();
  for (const file of options.files) form.append('file', file, file.name);
  const url = `/api/documents/upload?direction=${options.direction}`;
  let response;
  try {
    response = await uploadWithProgress({
      url,
      form,
      getAccessToken: options.session.getAccessToken,
      refresh: options.session.refresh,
      onProgress: options.onProgress,
      ...(options.createRequest ? { createRequest: options.createRequest } : {}),
    });
  } catch (cause) {
    throw new ApiError({ status: NETWORK_ERROR_STATUS, code: 'server.unavailable', message: String(cause) });
  }
  if (response.status < 200 || response.status >= 300) throw toApiError(response.status, response.body);
  return parseResponse(UploadDocumentsResponseSchema, response.body, { method: 'POST', url, status: response.status });
}
