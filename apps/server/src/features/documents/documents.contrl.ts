/**
 * A CONTRL for every interchange a company receives (issue 12, part 4; decision 0035). The ingest's last transaction
 * of a received interchange takes a control reference and writes a `documents.contrl` job (`contrlJobOf`); the job
 * validates the file as the ingest does, builds the engine's CONTRL (`buildContrl`: UCI 7 acknowledged or 4
 * rejected, a UCM per message) and stores it as the receiving company's outbox upload, so routing to a sender on the
 * platform is the existing one (`answer`). When a CONTRL reaches a company's inbox, the ingest gives the documents of
 * the outbox interchange it names their acknowledgement (`acknowledge`).
 */
import type { CanonicalDocument } from '@portal/documents';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { EdifactService } from '../edifact/edifact.service.ts';
import type { DocumentCompanies } from './documents.dependencies.ts';
import { createDocumentsRepository, type InterchangeRow, type NewDocument } from './documents.repository.ts';
import { ACKNOWLEDGEMENT_FIELD, createContrlRepository } from './document-contrl.repository.ts';

/** The link from a CONTRL to each document of the interchange it answers (its receiver's and its sender's copies). */
export const ACKNOWLEDGEMENT_LINK = 'acknowledgement';
/** Larger files are not answered: the CONTRL task validates the whole file in one piece on the CPU pool. */
export const CONTRL_MAX_BYTES = 20 * 1024 * 1024;

const GLN = /^\d{13}$/;
const CONTRL_TYPE = 'CONTRL';

type Upload = (
  caller: { userId: string | null; companyId: string },
  direction: 'out',
  files: { fileName: string; bytes: Uint8Array }[],
) => Promise<{ documents: { id: string }[] }[]>;

/**
 * In the ingest's last transaction of an interchange: whether it is answered with a CONTRL, and then the job's
 * payload (a control reference taken now, so a retry of the job writes the same UNB key). Answered: an interchange
 * received (an inbox upload or the API key's inbound) or routed to another company on the platform by its UNB
 * recipient, not a demo session's, holding no CONTRL (a CONTRL is never answered).
 */
export async function contrlJobOf(
  interchange: InterchangeRow,
  messageTypes: readonly string[],
  recipientCompanyId: string | null,
  tx: Db,
): Promise<{ interchangeId: string; controlReference: string } | undefined> {
  if (interchange.sessionId) return undefined;
  if (messageTypes.includes(CONTRL_TYPE)) return undefined;
  if (interchange.direction === 'out' && (!recipientCompanyId || recipientCompanyId === interchange.companyId)) {
    return undefined;
  }
  const controlReference = await createContrlRepository().nextControlReference(tx);
  return { interchangeId: interchange.id, controlReference };
}

/**
 * A CONTRL new in a company's inbox (rows of one ingest batch, inserted): the documents of the company's outbox
 * interchange it names (the CONTRL's UNB recipient was that interchange's UNB sender; UCI 0020 its control reference)
 * get `acknowledged` or `rejected` (UCI 0083 4, or the UCM in the message's place 4): a history row, which is where
 * a document's acknowledgement is read from, and an `acknowledgement` link from the CONTRL. A CONTRL naming nothing of
 * the company's changes nothing.
 */
export async function acknowledge(
  rows: readonly (NewDocument & { unbRecipient: string })[],
  at: Date,
  tx: Db,
): Promise<void> {
  const repo = createContrlRepository();
  // The documents' own inserts of history and links: 1,000 rows a statement, whatever the interchange's size.
  const documents = createDocumentsRepository(tx);
  for (const row of rows) {
    const ack = (row.body as unknown as CanonicalDocument).acknowledgement;
    if (!ack?.interchangeReference || !row.unbRecipient) continue;
    const interchangeId = await repo.outboxInterchange(row.companyId, row.unbRecipient, ack.interchangeReference, tx);
    if (!interchangeId) continue;
    const copies = (await repo.copies(interchangeId, row.companyId, 'out', tx)).filter(
      (c) => c.messageType !== CONTRL_TYPE,
    );
    const whole = ack.action === '4';
    // UCMs follow the messages' order; matched by place when there is one per message.
    const byPlace = ack.messages.length === copies.length;
    const current = await repo.acknowledgements(
      copies.map((c) => c.id),
      tx,
    );
    const changes = copies.map((c, i) => ({
      id: c.id,
      from: current.get(c.id) ?? null,
      to: whole || (byPlace && ack.messages[i]?.action === '4') ? 'rejected' : 'acknowledged',
    }));
    // The history is the acknowledgement's only record (decision 0047): no row of `documents` is rewritten.
    await documents.insertHistory(
      changes
        .filter((c) => c.from !== c.to)
        .map((c) => ({
          documentId: c.id,
          field: ACKNOWLEDGEMENT_FIELD,
          fromValue: c.from,
          toValue: c.to,
          userId: null,
          at,
          reason: 'contrl',
        })),
      tx,
    );
    await documents.insertLinks(
      changes.map((c) => ({ fromId: row.id!, toId: c.id, kind: ACKNOWLEDGEMENT_LINK })),
      tx,
    );
  }
}

/** The `documents.contrl` job: builds and stores the CONTRL answering a received interchange, once. */
export function createContrlAnswer(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  blobs: BlobStore;
  edifact: Pick<EdifactService, 'directoryRef'>;
  companies: DocumentCompanies;
  findInterchange: (id: string) => Promise<InterchangeRow | undefined>;
  upload: Upload;
  log?: { warn(details: object, message: string): void } | undefined;
}) {
  const repo = createContrlRepository();
  const documents = createDocumentsRepository(deps.db);
  return async function answer(interchangeId: string, controlReference: string): Promise<void> {
    const interchange = await deps.findInterchange(interchangeId);
    if (!interchange || interchange.state !== 'done') return;
    // The receiving company answers from the GLN the interchange was addressed to, which must be its own (the
    // outbox upload checks it).
    const addressedTo = GLN.test(interchange.recipientId)
      ? await deps.companies.findCompanyByGln(interchange.recipientId)
      : null;
    const receiver = interchange.direction === 'in' ? interchange.companyId : addressedTo?.id;
    if (!receiver || addressedTo?.id !== receiver) {
      deps.log?.warn({ interchangeId }, 'contrl: not addressed to a GLN of the receiving company');
      return;
    }
    const received = await repo.copies(interchangeId, receiver, 'in', deps.db);
    // A CONTRL is never answered (the uploader's copies: a CONTRL in error was not routed).
    const own = await repo.copies(interchangeId, interchange.companyId, interchange.direction as 'in' | 'out', deps.db);
    if (own.some((c) => c.messageType === CONTRL_TYPE)) return;
    if (interchange.size > CONTRL_MAX_BYTES) {
      deps.log?.warn({ interchangeId }, 'contrl: interchange too large to answer');
      return;
    }
    const blob = await deps.blobs.get(interchange.payloadKey);
    const chunks: Buffer[] = [];
    for await (const chunk of blob.body) chunks.push(chunk as Buffer);
    const text = await deps.cpu.run({
      name: 'documents.contrl',
      ...(await deps.edifact.directoryRef()),
      bytes: Buffer.concat(chunks),
      controlReference,
      date: deps.clock.now().toISOString(),
    });
    const [stored] = await deps.upload({ userId: null, companyId: receiver }, 'out', [
      {
        fileName: `CONTRL_${interchange.controlReference.replace(/[^\p{L}\p{N}._-]+/gu, '_')}_${controlReference}.edi`,
        bytes: Buffer.from(text, 'latin1'),
      },
    ]);
    // The receiver's CONTRL names the copies it answers (the sender's side is linked by the ingest of its copy).
    const contrl = stored?.documents[0];
    if (!contrl) return;
    await documents.insertLinks(
      received.map((c) => ({ fromId: contrl.id, toId: c.id, kind: ACKNOWLEDGEMENT_LINK })),
      deps.db,
    );
  };
}
