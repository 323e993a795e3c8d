import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EttnAliasSchema } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { attachmentFilename, saveBlob, sendAuthorized } from '../../../lib/api-files.ts';
import { ettnDocumentRequest, ettnKeys } from './ettn-queries.ts';

/** The note's PDF (the paper copy with its QR code), saved as a file: the server's name, else `e-TTN_<number>.pdf`. */
export function useEttnPdf() {
  const session = useSession();
  return useMutation({
    mutationFn: async (input: { id: string; pending: boolean; language: string; number: string | null }) => {
      const response = await sendAuthorized(session, '/ettns/documentPdf', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(ettnDocumentRequest(input.id, input.pending, input.language)),
      });
      const blob = await response.blob();
      const fallback = `e-TTN_${(input.number ?? input.id).replace(/[^\p{L}\p{N}._-]+/gu, '_')}.pdf`;
      saveBlob(blob, attachmentFilename(response.headers.get('content-disposition'), fallback));
    },
  });
}

/**
 * Registers the company's alias (EDRPOU) or renews one it holds (`isRegistered`), each for a year. The endpoint takes
 * multipart or JSON; JSON here, as no file goes with it.
 */
export function useAliasRegistration() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { aliasValue: string; isRegistered: boolean }) =>
      api.post('/ettns/aliasRegistrationSet', EttnAliasSchema, { aliasQualifier: 'EDRPOU', ...input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ettnKeys.aliases() }),
  });
}
