import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DocumentCodesSchema,
  UploadDocumentsResponseSchema,
  type DocumentDirection,
  type DocumentOriginalQuery,
  type UploadDocumentsResponse,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import type { ApiSession } from '../../../lib/api-client.ts';
import { parseResponse } from '../../../lib/api-client.ts';
import { ApiError, NETWORK_ERROR_STATUS, toApiError } from '../../../lib/api-error.ts';
import { attachmentFilename, saveBlob, sendAuthorized } from '../../../lib/api-files.ts';
import { uploadWithProgress, type UploadProgress } from '../../../components/upload-widget/upload-request.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { documentsKeys } from './documents-queries.ts';

const originalPath = (id: string, encoding?: DocumentOriginalQuery['encoding']) =>
  `/documents/${encodeURIComponent(id)}/original${encoding ? `?encoding=${encodeURIComponent(encoding)}` : ''}`;

/**
 * The original as text, one segment a line being the view's job: asked for in UTF-8, so that a file in ISO 8859-1
 * (UNOC) or another single-byte set reads right in the browser.
 */
export function originalQuery(session: ApiSession, id: string) {
  return queryOptions({
    queryKey: documentsKeys.original(id),
    queryFn: async ({ signal }) => (await sendAuthorized(session, originalPath(id, 'utf-8'), { signal })).text(),
    staleTime: Infinity,
  });
}

/** The names of the document's codes and segments from its directory; they never change for a document. */
export function codesQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: [...documentsKeys.detail(id), 'codes'] as const,
    queryFn: ({ signal }) => api.get(`/documents/${encodeURIComponent(id)}/codes`, DocumentCodesSchema, { signal }),
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * Saves the original under the server's file name: in the profile's encoding, or in `encoding` (`utf-8` when the
 * profile's cannot hold a character).
 */
export function useDownloadOriginal() {
  const session = useSession();
  return useMutation({
    mutationFn: async ({
      id,
      fallbackName,
      encoding,
    }: {
      id: string;
      fallbackName: string;
      encoding?: DocumentOriginalQuery['encoding'];
    }) => {
      const response = await sendAuthorized(session, originalPath(id, encoding));
      saveBlob(await response.blob(), attachmentFilename(response.headers.get('content-disposition'), fallbackName));
    },
  });
}

/**
 * The PDF of a document in the reader's language, saved or handed to `print`. Either may set the additional status
 * Printed, so the document and the lists are fetched again.
 */
export function usePdf() {
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      language,
      purpose,
      fallbackName,
      print,
    }: {
      id: string;
      language: string;
      purpose: 'download' | 'print';
      fallbackName: string;
      print?: (blob: Blob) => void;
    }) => {
      const query = new URLSearchParams({ language, purpose });
      const response = await sendAuthorized(session, `/documents/${encodeURIComponent(id)}/pdf?${query}`);
      const blob = await response.blob();
      if (purpose === 'print' && print) print(blob);
      else saveBlob(blob, attachmentFilename(response.headers.get('content-disposition'), fallbackName));
    },
    onSuccess: (_, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: documentsKeys.detail(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: documentsKeys.lists() }),
      ]),
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
