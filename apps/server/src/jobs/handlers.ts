import type { DemoDocumentsService } from '../features/documents/demo-documents.service.ts';
import type { DocumentsService } from '../features/documents/documents.service.ts';
import type { KsefService } from '../features/ksef/ksef.service.ts';
import type { MailService } from '../features/mail/mail.service.ts';
import type { JobHandlers } from './jobs.ts';

/** The one list of job handlers; the type makes a job without a handler a compile error. */
export function createJobHandlers(deps: {
  mail: MailService;
  documents: Pick<DocumentsService, 'ingest' | 'answerWithContrl'>;
  demoDocuments: Pick<DemoDocumentsService, 'create' | 'presentation' | 'remove' | 'sweep'>;
  ksef: Pick<KsefService, 'send' | 'receive'>;
}): JobHandlers {
  return {
    'mail.send': (payload, run) => deps.mail.deliver(payload.emailId, run),
    'documents.ingest': async (payload) => {
      await deps.documents.ingest(payload.interchangeId);
    },
    'documents.contrl': async (payload) => {
      await deps.documents.answerWithContrl(payload.interchangeId, payload.controlReference);
    },
    'documents.demo.create': (payload) => deps.demoDocuments.create(payload),
    'documents.demo.presentation': async (payload) => {
      await deps.demoDocuments.presentation(payload);
    },
    'documents.demo.remove': async (payload) => {
      await deps.demoDocuments.remove(payload.sessionId);
    },
    'ksef.send': async (payload, run) => {
      await deps.ksef.send(payload.documentId, run, payload.waits ?? 0);
    },
    'ksef.receive': async (payload) => {
      await deps.ksef.receive(payload.companyId);
    },
    'documents.demo.sweep': async () => {
      await deps.demoDocuments.sweep();
    },
  };
}
