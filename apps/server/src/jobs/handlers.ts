import type { DocumentsService } from '../features/documents/documents.service.ts';
import type { MailService } from '../features/mail/mail.service.ts';
import type { JobHandlers } from './jobs.ts';

/** The one list of job handlers; the type makes a job without a handler a compile error. */
export function createJobHandlers(deps: {
  mail: MailService;
  documents: Pick<DocumentsService, 'ingest'>;
}): JobHandlers {
  return {
    'mail.send': (payload, run) => deps.mail.deliver(payload.emailId, run),
    'documents.ingest': async (payload) => {
      await deps.documents.ingest(payload.interchangeId);
    },
  };
}
