import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  EttnAliasSchema,
  EttnSupportingDocumentSchema,
  RegisterEttnResponseSchema,
  SignAndSendResponseSchema,
  type EttnComposeForm,
  type SignAndSendForm,
} from '@portal/contracts';
import type { EttnPartyRole, EttnSupportingDocumentType } from '../ettn-roles.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { attachmentFilename, saveBlob, sendAuthorized, sendAuthorizedJson } from '../../../lib/api-files.ts';
import { ettnComposeDraftQuery, ettnDocumentRequest, ettnKeys } from './ettn-queries.ts';

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

/**
 * Statuses the e-TTN screens say themselves, in the code's words beside the action (a refused role is a 403, the
 * registry's failure a 500 or 502): no `Error <code>` toast on top.
 */
const SAID_IN_PLACE = [403, 500, 502] as const;

/** After a step of a note: its view and the lists (status, step, who must act) are asked again. */
function useInvalidateNotes() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ettnKeys.views() }),
      queryClient.invalidateQueries({ queryKey: ettnKeys.lists() }),
    ]);
}

/** The JSON body of `signAndSend` (the form's input: `decision` defaults to sign on the server). */
export type SignAndSendInput = Omit<SignAndSendForm, 'decision'> & { decision?: SignAndSendForm['decision'] };

/**
 * `signAndSend` without a file: sends a pending upload (`registeredFileId`), takes the next step of a note, starts an
 * act (`actType`), or countersigns or rejects an act (`documentId`). The view's status and version go with it, so a
 * note that moved meanwhile is refused (7, 31) rather than signed blind.
 */
export function useEttnSignAndSend() {
  const api = useApi();
  const invalidate = useInvalidateNotes();
  return useMutation({
    mutationFn: (input: SignAndSendInput) =>
      api.post('/ettns/signAndSend', SignAndSendResponseSchema, input, { quietStatuses: SAID_IN_PLACE }),
    onSuccess: invalidate,
  });
}

/** `compose`: a new note written by the server from the create form; it becomes a pending upload to sign and send. */
export function useEttnCompose() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: EttnComposeForm) =>
      api.post('/ettns/compose', RegisterEttnResponseSchema, form, { quietStatuses: SAID_IN_PLACE }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ettnKeys.lists() }),
  });
}

/** "Fill from a despatch advice": the server's draft of the create form from that document (asked on demand). */
export function useEttnComposeDraft() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (documentId: string) => queryClient.fetchQuery(ettnComposeDraftQuery(api, documentId)),
  });
}

/** `registerEttn` (multipart): an XML file uploaded as a pending note of the role it is signed as. */
export function useEttnRegister() {
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { file: File; signingPartyRoleCode: EttnPartyRole }) => {
      const form = new FormData();
      form.append('fileName', input.file.name);
      form.append('signingPartyRoleCode', input.signingPartyRoleCode);
      form.append('file', input.file, input.file.name);
      return sendAuthorizedJson(session, '/ettns/registerEttn', RegisterEttnResponseSchema, {
        method: 'POST',
        body: form,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ettnKeys.lists() }),
  });
}

/** Attaches a supporting document (a PDF) to a note, signed at once as `signingPartyRoleCode`. */
export function useAttachSupportingDocument() {
  const session = useSession();
  const invalidate = useInvalidateNotes();
  return useMutation({
    mutationFn: (input: {
      processId: string;
      type: EttnSupportingDocumentType;
      signingPartyRoleCode: EttnPartyRole;
      file: File;
    }) => {
      const form = new FormData();
      form.append('processId', input.processId);
      form.append('type', input.type);
      form.append('signingPartyRoleCode', input.signingPartyRoleCode);
      form.append('file', input.file, input.file.name);
      return sendAuthorizedJson(session, '/ettns/supportingDocuments', EttnSupportingDocumentSchema, {
        method: 'POST',
        body: form,
      });
    },
    onSuccess: invalidate,
  });
}

/** Countersigns (`sign`) or withdraws (`cancel`) a supporting document as one of the company's roles on the note. */
export function useSupportingDocumentAction() {
  const api = useApi();
  const invalidate = useInvalidateNotes();
  return useMutation({
    mutationFn: (input: { id: string; action: 'sign' | 'cancel'; signingPartyRoleCode: EttnPartyRole }) =>
      api.post(
        `/ettns/supportingDocuments/${encodeURIComponent(input.id)}/${input.action}`,
        EttnSupportingDocumentSchema,
        { signingPartyRoleCode: input.signingPartyRoleCode },
        { quietStatuses: SAID_IN_PLACE },
      ),
    onSuccess: invalidate,
  });
}

/** A supporting document's PDF, saved under its file name. */
export function useSupportingDocumentFile() {
  const session = useSession();
  return useMutation({
    mutationFn: async (input: { id: string; fileName: string }) => {
      const response = await sendAuthorized(session, `/ettns/supportingDocuments/${encodeURIComponent(input.id)}/file`);
      const blob = await response.blob();
      saveBlob(blob, attachmentFilename(response.headers.get('content-disposition'), input.fileName));
    },
  });
}
