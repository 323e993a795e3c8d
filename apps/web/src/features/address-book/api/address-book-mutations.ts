import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AddressBookEntrySchema, AddressBookImportResultSchema, type AddressBookEntryValues } from '@portal/contracts';
import { useSession } from '../../../app/session/session-context.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { attachmentFilename, saveBlob, sendAuthorized, sendAuthorizedJson } from '../../../lib/api-files.ts';
import { addressBookKeys } from './address-book-queries.ts';

const id = (value: string) => encodeURIComponent(value);

function useInvalidateAddressBook() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: addressBookKeys.all });
}

/** Creates an entry, or replaces one when `entryId` is given. */
export function useSaveEntryMutation() {
  const api = useApi();
  const invalidate = useInvalidateAddressBook();
  return useMutation({
    mutationFn: ({ entryId, entry }: { entryId?: string; entry: AddressBookEntryValues }) =>
      entryId
        ? api.put(`/address-book/${id(entryId)}`, AddressBookEntrySchema, entry)
        : api.post('/address-book', AddressBookEntrySchema, entry),
    onSuccess: invalidate,
  });
}

export function useDeleteEntryMutation() {
  const api = useApi();
  const invalidate = useInvalidateAddressBook();
  return useMutation({
    mutationFn: (entryId: string) => api.delete(`/address-book/${id(entryId)}`),
    onSuccess: invalidate,
  });
}

/**
 * Sends a CSV file to the import: with `dryRun` the server only checks it and answers the preview with every problem;
 * without, it saves all rows or none (and answers the problems again if the file no longer passes).
 */
export function useImportMutation() {
  const session = useSession();
  const invalidate = useInvalidateAddressBook();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return sendAuthorizedJson(
        session,
        `/address-book/import${dryRun ? '?dryRun=true' : ''}`,
        AddressBookImportResultSchema,
        { method: 'POST', body: form },
      );
    },
    onSuccess: (result) => (result.created > 0 ? invalidate() : undefined),
  });
}

/** Downloads the whole address book as CSV. */
export function useExportMutation() {
  const session = useSession();
  return useMutation({
    mutationFn: async () => {
      const response = await sendAuthorized(session, '/address-book/export', { headers: { Accept: 'text/csv' } });
      saveBlob(
        await response.blob(),
        attachmentFilename(response.headers.get('content-disposition'), 'address-book.csv'),
      );
    },
  });
}
