import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DocumentResponseResultSchema,
  DocumentStatusChangeResponseSchema,
  type DocumentResponse,
  type DocumentColumn,
  type DocumentDetail,
  type DocumentDirection,
  type DocumentExportFormat,
  type DocumentStatusChange,
} from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { attachmentFilename, saveBlob, sendAuthorized } from '../../../lib/api-files.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { documentsQueryParams, type DocumentsSearch } from '../documents-search.ts';
import { documentsKeys } from './documents-queries.ts';

/**
 * `POST /documents/status`: the lists are read again; an open document takes the new values into its cached detail
 * instead of being read again, since reading an inbox document marks it Read (and would undo "mark as unread").
 */
export function useChangeStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: DocumentStatusChange) =>
      api.post('/documents/status', DocumentStatusChangeResponseSchema, change),
    onSuccess: async (answer, change) => {
      for (const id of answer.changed) {
        queryClient.setQueryData<DocumentDetail>(documentsKeys.detail(id), (doc) => {
          if (!doc) return doc;
          const next = { ...doc };
          if (change.additionalStatus !== undefined) next.additionalStatus = change.additionalStatus;
          if (change.read === true && doc.status === 'received') next.status = 'read';
          if (change.read === false && doc.status === 'read') next.status = 'received';
          return next;
        });
      }
      await queryClient.invalidateQueries({ queryKey: documentsKeys.lists() });
    },
  });
}

/**
 * `POST /documents/:id/response`: accept or reject a received document (an APERAK goes to its sender). The document is
 * read again (its history holds the answer), and the lists, where the APERAK now is in the outbox.
 */
export function useRespond(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (answer: DocumentResponse) =>
      api.post(`/documents/${id}/response`, DocumentResponseResultSchema, answer),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: documentsKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: documentsKeys.lists() }),
      ]);
    },
  });
}

/** The originals of the selection as one zip, saved under the server's name. */
export function useDownloadZip() {
  const session = useSession();
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      const response = await sendAuthorized(session, '/documents/zip', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ids }),
      });
      saveBlob(await response.blob(), attachmentFilename(response.headers.get('content-disposition'), 'documents.zip'));
    },
  });
}

export type ExportRequest = {
  format: DocumentExportFormat;
  direction: DocumentDirection;
  columns: readonly DocumentColumn[];
  search: DocumentsSearch;
  /** The selection; without it, the whole filtered list. */
  ids?: readonly string[];
  /** The screen's language, for the headers and labels. */
  language?: string;
};

/** The export's address: the list's filters and sort, the columns in their order, the selection when there is one. */
export function exportPath(request: ExportRequest): string {
  const params = new URLSearchParams({ format: request.format, direction: request.direction });
  for (const [key, value] of Object.entries(documentsQueryParams(request.search))) {
    if (value !== undefined) params.set(key, value);
  }
  params.set('columns', request.columns.join(','));
  if (request.ids?.length) params.set('ids', request.ids.join(','));
  if (request.language) params.set('language', request.language);
  return `/documents/export?${params.toString()}`;
}

export function useExportDocuments() {
  const session = useSession();
  return useMutation({
    mutationFn: async (request: ExportRequest) => {
      const response = await sendAuthorized(session, exportPath(request));
      const fallback = `${request.direction === 'in' ? 'inbox' : 'outbox'}.${request.format}`;
      saveBlob(await response.blob(), attachmentFilename(response.headers.get('content-disposition'), fallback));
    },
  });
}
