import {
  ANSWERABLE_DOCUMENT_KINDS,
  hasPermission,
  type DocumentResponseResult,
  type DocumentResponseSchema,
} from '@portal/contracts';
import { applicationResponse, buildInterchange, writeEancomMessage, type DocumentKind } from '@portal/documents';
import { getCharset, serializeInterchangeBytes } from '@portal/edifact';
import type { z } from 'zod';
import { documentReaderOf } from '../../access/document-scope.ts';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DocumentCompanies } from './documents.dependencies.ts';
import { createDocumentResponseRepository, RESPONSE_FIELD } from './document-response.repository.ts';
import { createDocumentsRepository } from './documents.repository.ts';
import type { DocumentsCaller, DocumentsService } from './documents.service.ts';

/** What the answer needs of the partners feature: how the partner receives (directory, syntax, UNA, test mode). */
export type ResponsePartners = {
  sendingSettings(
    companyId: string,
    partnerId: string,
  ): Promise<{ testMode: boolean; edifactDirectory: 'D96A' | 'D01B'; syntaxIdentifier: string; una: boolean } | null>;
};

const ANSWERABLE: ReadonlySet<string> = new Set(ANSWERABLE_DOCUMENT_KINDS);
const GLN = /^\d{13}$/;
const DECIDED = { accept: 'accepted', reject: 'rejected' } as const;

/** The first character of the text the syntax identifier's repertoire lacks (ISO 9735 part 1 clause 5), if any. */
function outsideCharset(text: string, syntax: string): string | undefined {
  const charset = getCharset(syntax);
  for (const character of text) {
    const unit = character.charCodeAt(0);
    if (character.length > 1 || (unit < 256 ? !charset.valid[unit] : !charset.isValidHigh(unit))) return character;
  }
  return undefined;
}

const notAnswerable = () =>
  new AppError('documents.status_not_applicable', { details: [{ field: 'id', code: 'notAnswerable' }] });

/**
 * The receiver's answer to a received document (issue 12, part 4; decision 0034): accepted or rejected with a reason,
 * sent to its sender as an EANCOM APERAK stored through the outbox upload, so routing, the sender's GLN check, the
 * ingest (which gives the sender's document its business status) and the outbox copy are the existing ones. One
 * answer per document: the answer is a `response` row of the document's history, written under the document's row
 * lock before the APERAK is stored, so two answers at once make one APERAK and one 409.
 */
export function createDocumentResponseService(deps: {
  db: Db;
  clock: Clock;
  companies: DocumentCompanies;
  partners: ResponsePartners;
  documents: Pick<DocumentsService, 'upload'>;
}) {
  const { db, clock } = deps;
  const documents = createDocumentsRepository(db);
  const repo = createDocumentResponseRepository();

  return {
    async respond(
      caller: DocumentsCaller,
      id: string,
      input: z.output<typeof DocumentResponseSchema>,
    ): Promise<DocumentResponseResult> {
      if (!hasPermission({ roles: [], permissions: caller.permissions, toggles: [] }, 'INBOX_MODIFY')) {
        throw forbidden();
      }
      const reader = await documentReaderOf(db, caller);
      const row = await documents.find(reader, id);
      if (!row || !caller.companyId) throw notFound();
      if (row.direction !== 'in' || !ANSWERABLE.has(row.kind) || !row.number || !row.partnerGln) {
        throw notAnswerable();
      }
      // UNB sender: the GLN the document was addressed to (its interchange's UNB recipient), when it is the
      // company's; else the company's own party of the message.
      const own = async (gln: string | null | undefined) =>
        !!gln && GLN.test(gln) && (await deps.companies.findCompanyByGln(gln))?.id === caller.companyId;
      const addressed = await repo.interchangeRecipient(row.interchangeId, db);
      let sender: string | undefined;
      for (const gln of [addressed, row.supplierGln, row.buyerGln, row.deliveryPointGln]) {
        if (await own(gln)) {
          sender = gln!;
          break;
        }
      }
      if (!sender) throw notAnswerable();
      const partner = row.partnerId ? await deps.partners.sendingSettings(caller.companyId, row.partnerId) : null;
      const reason = input.decision === 'reject' ? (input.reason ?? null) : null;
      // The partner reads the reason in its character set: a letter it lacks is refused rather than sent mangled.
      const syntax = partner?.syntaxIdentifier ?? 'UNOC';
      const lacking = reason ? outsideCharset(reason, syntax) : undefined;
      if (lacking) {
        throw new AppError('validation.failed', {
          details: [{ field: 'reason', code: 'notInCharset', params: { character: lacking, syntax } }],
        });
      }
      const at = clock.now();

      const controlReference = await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const [locked] = await documents.lockVisible(reader, [id], tx);
        if (!locked) throw notFound();
        if (await repo.answerOf(id, tx)) throw new AppError('documents.already_answered');
        await documents.insertHistory(
          [
            {
              documentId: id,
              field: RESPONSE_FIELD,
              fromValue: null,
              toValue: DECIDED[input.decision],
              userId: caller.userId,
              at,
              reason,
            },
          ],
          tx,
          at,
        );
        return repo.nextControlReference(tx);
      });

      try {
        const body = applicationResponse({
          decision: input.decision,
          reason: reason ?? undefined,
          number: `APERAK-${controlReference}`,
          issuedOn: at.toISOString().slice(0, 10),
          answered: { kind: row.kind as DocumentKind, number: row.number, date: row.businessDate ?? undefined },
          sender,
          recipient: row.partnerGln,
        })!;
        const directory = partner?.edifactDirectory ?? 'D96A';
        const { message } = writeEancomMessage(body, { directory, reference: '1' });
        const interchange = buildInterchange({
          messages: [message],
          sender: { id: sender },
          recipient: { id: row.partnerGln },
          controlReference,
          preparedAt: at.toISOString().slice(0, 16),
          test: partner?.testMode ?? false,
          syntax,
          applicationReference: 'APERAK',
        });
        const bytes = serializeInterchangeBytes(interchange, { una: partner?.una ? 'always' : 'never' });
        const [stored] = await deps.documents.upload(caller, 'out', [
          { fileName: `APERAK_${row.number.replace(/[^\p{L}\p{N}._-]+/gu, '_')}_${controlReference}.edi`, bytes },
        ]);
        return { decision: input.decision, responseDocumentId: stored?.documents[0]?.id ?? null };
      } catch (error) {
        // The APERAK was not stored: the answer is withdrawn (a row of its own), so the user may answer again.
        await documents.insertHistory(
          [
            {
              documentId: id,
              field: RESPONSE_FIELD,
              fromValue: DECIDED[input.decision],
              toValue: null,
              userId: caller.userId,
              at: clock.now(),
              reason: 'not_sent',
            },
          ],
          db,
        );
        throw error;
      }
    },
  };
}
export type DocumentResponseService = ReturnType<typeof createDocumentResponseService>;
