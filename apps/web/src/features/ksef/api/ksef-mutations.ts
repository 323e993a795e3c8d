import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  KsefConnectionTestSchema,
  KsefConnectionSchema,
  KsefReceiveAcceptedSchema,
  type KsefConnectionView,
  type KsefSettingsUpdate,
} from '@portal/contracts';
import { useSession } from '../../../app/session/session-context.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { sendAuthorizedJson } from '../../../lib/api-files.ts';
import { ksefKeys } from './ksef-queries.ts';

/** Every call answers the settings as they now are: the cache takes them as they come. */
function useStoreSettings() {
  const queryClient = useQueryClient();
  return (settings: KsefConnectionView) => queryClient.setQueryData(ksefKeys.settings(), settings);
}

/** Saves the NIP, the environment and the login method; a token is sent only when the user typed a new one. */
export function useSaveKsefSettingsMutation() {
  const api = useApi();
  const store = useStoreSettings();
  return useMutation({
    mutationFn: (body: KsefSettingsUpdate) => api.put('/company/ksef', KsefConnectionSchema, body),
    onSuccess: store,
  });
}

/** Uploads the certificate (PKCS#12, or PEM with its key) as multipart: a `file` part and an optional `password`. */
export function useUploadKsefCertificateMutation() {
  const session = useSession();
  const store = useStoreSettings();
  return useMutation({
    mutationFn: ({ file, password }: { file: File; password: string }) => {
      const form = new FormData();
      // The password goes first: the server reads the parts in order, and so never waits on the file to find it.
      if (password) form.append('password', password);
      form.append('file', file, file.name);
      return sendAuthorizedJson(session, '/company/ksef/certificate', KsefConnectionSchema, {
        method: 'POST',
        body: form,
      });
    },
    onSuccess: store,
  });
}

/** Logs in to the company's KSeF with the saved settings and out again; the answer says how it went. */
export function useTestKsefConnectionMutation() {
  const api = useApi();
  return useMutation({
    mutationFn: () => api.post('/company/ksef/test', KsefConnectionTestSchema),
  });
}

/**
 * "Receive invoices now": queues a run of the company's receiving job (202). The invoices land in the inbox when it
 * has run; the settings are read again later so that the last receiving time moves.
 */
export function useReceiveKsefInvoicesMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/company/ksef/receive', KsefReceiveAcceptedSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ksefKeys.settings() }),
  });
}
