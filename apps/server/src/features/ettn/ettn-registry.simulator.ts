/**
 * The embedded e-TTN registry SIMULATOR (issue 14 §2). It stands in for the central registry, whose API is not
 * public: it keeps processes, documents and transactions in the `ettn_registry_*` tables, enforces the lifecycle
 * tables of @portal/ettn with their codes, accepts a consignor's transaction at once (REGISTRATION_PENDING → PLANNED)
 * and writes an event for every company subscribed to one of the note's parties. Nothing it says is a real
 * registration; its log lines and the OpenAPI text say so.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  actTransition,
  checkSignatureCount,
  REGISTRY_ACTOR,
  startAct,
  STEP_SIGNERS,
  transition,
  type ActState,
  type ActType,
  type NoteStatus,
} from '@portal/ettn';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { partyIdOfRole } from './ettn-documents.ts';
import type {
  EttnRegistry,
  RegistryActor,
  RegistryOutcome,
  RegistryStep,
  RegistryTransaction,
} from './ettn-registry.ts';
import type { EttnRepository, ProcessRow } from './ettn.repository.ts';

export const SIMULATOR_KIND = 'simulator';

const refuse = (code: number, reason: string): RegistryOutcome => ({ ok: false, code, reason });

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Part META: the registry's facts about a transaction, as XML (what `processDocumentPartGet` gives for META). */
const metaXml = (m: {
  processId: string;
  documentId: string;
  documentDetId: string;
  kind: string;
  transactionNo: number;
  status: string;
  actor: RegistryActor;
  at: Date;
}) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  `<ProcessDocumentMeta registry="${SIMULATOR_KIND}">` +
  `<ProcessId>${m.processId}</ProcessId><DocumentId>${m.documentId}</DocumentId>` +
  `<DocumentDetId>${m.documentDetId}</DocumentDetId><Kind>${m.kind}</Kind>` +
  `<TransactionNo>${m.transactionNo}</TransactionNo><Status>${escape(m.status)}</Status>` +
  '<ProcessDocumentStatus>OK</ProcessDocumentStatus>' +
  `<Actor role="${escape(m.actor.role)}">${escape(m.actor.identifier)}</Actor>` +
  `<RegisteredAt>${m.at.toISOString()}</RegisteredAt></ProcessDocumentMeta>\n`;

const processColumns = (t: RegistryTransaction) => {
  const s = t.summary;
  return {
    number: s.number,
    issueDateTime: s.issueDateTime,
    parties: s.parties,
    partyIds: s.partyIds,
    vehicle: s.vehicle,
    routeFrom: s.routeFrom,
    routeTo: s.routeTo,
    searchText: [s.number, ...s.parties.flatMap((p) => [p.name, p.edrpou])].filter(Boolean).join(' ').toLowerCase(),
  };
};

/** The signatures a transaction adds to those of the one before. */
const newSignatureRoles = (t: RegistryTransaction, before: number) => t.signatures.slice(before).map((s) => s.roleCode);

export function createEttnRegistrySimulator(deps: {
  repo: EttnRepository;
  clock: Clock;
  log: FastifyBaseLogger;
}): EttnRegistry {
  const { repo, clock } = deps;
  const log = deps.log.child({ component: 'ettn-registry-simulator' });

  /** Writes the transaction, its signatures and the events for every subscribed company. */
  async function record(
    tx: Db,
    input: {
      process: Pick<ProcessRow, 'id' | 'partyIds'>;
      documentId: string;
      kind: 'ettn' | 'act';
      transactionNo: number;
      status: string;
      actor: RegistryActor;
      transaction: RegistryTransaction;
      entityId: string;
    },
  ): Promise<string> {
    const at = clock.now();
    const documentDetId = randomUUID();
    await repo.insertTransaction(
      {
        id: documentDetId,
        documentId: input.documentId,
        processId: input.process.id,
        transactionNo: input.transactionNo,
        body: input.transaction.xml,
        meta: metaXml({ ...input, processId: input.process.id, documentDetId, at }),
        status: 'OK',
        signingRole: input.actor.role,
        actorIdentifier: input.actor.identifier,
        createdAt: at,
      },
      input.transaction.signatures.map((s) => ({
        roleCode: s.roleCode,
        signerName: s.signerName,
        signerSerial: s.signerSerial,
        signedAt: s.signedAt ? new Date(s.signedAt) : null,
        verified: s.verified,
        signerKind: 'demo',
      })),
      tx,
    );
    const subscribers = await repo.subscribersOf(input.process.partyIds, at, tx);
    await repo.insertEvents(
      subscribers.map((companyId) => ({
        companyId,
        processId: input.process.id,
        entityType: input.kind,
        entityId: input.entityId,
        documentId: documentDetId,
        entityStatus: input.status,
        actorIdentifier: input.actor.identifier,
        timestamp: at,
      })),
      tx,
    );
    log.info(
      { processId: input.process.id, kind: input.kind, status: input.status, events: subscribers.length },
      'ettn registry SIMULATOR: transaction registered',
    );
    return documentDetId;
  }

  async function newNote(
    tx: Db,
    actor: RegistryActor,
    move: 'consignor_send' | 'send_preliminary',
    t: RegistryTransaction,
  ) {
    const s = t.summary;
    if (s.kind !== 'ettn') return refuse(1, 'a new process starts with a note');
    if (s.transactionId !== '0' || s.previousId !== null)
      return refuse(31, 'the first transaction is 0, without a back reference');
    if (!partyIdOfRole(s.parties, actor.role).includes(actor.identifier)) {
      return refuse(20, `${actor.identifier} is not the note's ${actor.role}`);
    }
    const moved = transition('NULL', move, [`ETTN_${actor.role}`]);
    if (!moved.ok) return refuse(moved.code, moved.reason);
    if (move === 'consignor_send') {
      const count = checkSignatureCount('consignor_send', newSignatureRoles(t, 0));
      if (!count.ok) return refuse(count.code, count.reason);
    }
    let status: NoteStatus = moved.state;
    if (status === 'REGISTRATION_PENDING') {
      // The simulator takes every well-formed first transaction at once.
      const accepted = transition(status, 'registry_accept', [REGISTRY_ACTOR]);
      if (accepted.ok) status = accepted.state;
    }
    const at = clock.now();
    const process = await repo.insertProcess(
      { ...processColumns(t), status, version: 0, createdAt: at, updatedAt: at },
      tx,
    );
    const document = await repo.insertDocument(
      { processId: process.id, kind: 'ettn', status, createdAt: at, updatedAt: at },
      tx,
    );
    const documentDetId = await record(tx, {
      process,
      documentId: document.id,
      kind: 'ettn',
      transactionNo: 0,
      status,
      actor,
      transaction: t,
      entityId: process.id,
    });
    return {
      ok: true as const,
      processId: process.id,
      documentId: document.id,
      documentDetId,
      status,
      documentStatus: null,
      processDocumentStatus: 'OK' as const,
    };
  }

  async function submitInTx(
    tx: Db,
    actor: RegistryActor,
    step: RegistryStep,
    t: RegistryTransaction,
  ): Promise<RegistryOutcome> {
    if (step.kind === 'note' && step.processId === undefined) {
      if (step.move !== 'consignor_send' && step.move !== 'send_preliminary')
        return refuse(7, `${step.move} on no note`);
      return newNote(tx, actor, step.move, t);
    }
    const processId = step.processId!;
    const process = await repo.findProcess(processId, { tx, lock: true });
    if (!process) return refuse(6, `no process ${processId}`);
    const documents = await repo.documentsOf(process.id, tx);
    const note = documents.find((d) => d.kind === 'ettn');
    if (!note) return refuse(6, 'the process has no note');
    const isParty = partyIdOfRole(process.parties, actor.role).includes(actor.identifier);
    const at = clock.now();

    if (step.kind === 'note') {
      if (!isParty) return refuse(20, `${actor.identifier} is not the note's ${actor.role}`);
      if (step.expected?.status !== undefined && step.expected.status !== process.status) {
        return refuse(7, `the note is ${process.status}, not ${step.expected.status}`);
      }
      if (step.expected?.version !== undefined && step.expected.version !== process.version) {
        return refuse(31, `the note's newest transaction is ${process.version}, not ${step.expected.version}`);
      }
      const moved = transition(process.status as NoteStatus, step.move, [`ETTN_${actor.role}`]);
      if (!moved.ok) return refuse(moved.code, moved.reason);
      const s = t.summary;
      if (s.kind !== 'ettn') return refuse(1, 'a note step is a note transaction');
      const chain = await repo.transactionsOfDocument(note.id, tx);
      const last = chain.at(-1)!;
      if (s.transactionId !== String(process.version + 1) || s.previousId !== String(process.version)) {
        return refuse(
          31,
          `transaction ${s.transactionId} back to ${s.previousId ?? 'nothing'} after ${process.version}`,
        );
      }
      if (s.previousDocumentId !== null && s.previousDocumentId !== last.id) {
        return refuse(31, `the back reference names ${s.previousDocumentId}, not ${last.id}`);
      }
      const before = await repo.signaturesOf([last.id], tx);
      if (step.move in STEP_SIGNERS) {
        const count = checkSignatureCount(step.move as keyof typeof STEP_SIGNERS, newSignatureRoles(t, before.length));
        if (!count.ok) return refuse(count.code, count.reason);
      }
      let status = moved.state;
      if (status === 'REGISTRATION_PENDING') {
        const accepted = transition(status, 'registry_accept', [REGISTRY_ACTOR]);
        if (accepted.ok) status = accepted.state;
      }
      await repo.updateProcess(
        process.id,
        { ...processColumns(t), status, version: process.version + 1, updatedAt: at },
        tx,
      );
      await repo.updateDocument(note.id, { status, updatedAt: at }, tx);
      const documentDetId = await record(tx, {
        process,
        documentId: note.id,
        kind: 'ettn',
        transactionNo: process.version + 1,
        status,
        actor,
        transaction: t,
        entityId: process.id,
      });
      return {
        ok: true,
        processId: process.id,
        documentId: note.id,
        documentDetId,
        status,
        documentStatus: null,
        processDocumentStatus: 'OK',
      };
    }

    if (!isParty) return refuse(21, `${actor.identifier} is not the note's ${actor.role}`);
    const s = t.summary;
    if (step.kind === 'act') {
      if (s.kind !== 'act' || s.actType !== step.actType) return refuse(1, `not a ${step.actType}`);
      const started = startAct(process.status as NoteStatus, step.actType, [`ETTN_${actor.role}`]);
      if (!started.ok) return refuse(started.code, started.reason);
      const noteChain = await repo.transactionsOfDocument(note.id, tx);
      if (s.previousDocumentId === null || !noteChain.some((c) => c.id === s.previousDocumentId)) {
        return refuse(22, 'the act does not refer to a transaction of this note');
      }
      if (newSignatureRoles(t, 0).length !== 1) return refuse(26, 'an act starts with its initiator’s signature');
      const act = await repo.insertDocument(
        {
          processId: process.id,
          kind: 'act',
          actType: step.actType,
          status: started.state.status,
          route: [...started.state.route],
          signedBy: started.state.signedBy,
          createdAt: at,
          updatedAt: at,
        },
        tx,
      );
      await repo.updateProcess(process.id, { updatedAt: at }, tx);
      const documentDetId = await record(tx, {
        process,
        documentId: act.id,
        kind: 'act',
        transactionNo: 0,
        status: started.state.status,
        actor,
        transaction: t,
        entityId: act.id,
      });
      return {
        ok: true,
        processId: process.id,
        documentId: act.id,
        documentDetId,
        status: process.status,
        documentStatus: started.state.status,
        processDocumentStatus: 'OK',
      };
    }

    const act = documents.find((d) => d.id === step.documentId && d.kind === 'act');
    if (!act) return refuse(10, `no act ${step.documentId} in the process`);
    const state: ActState = {
      type: act.actType as ActType,
      status: act.status as ActState['status'],
      route: act.route,
      signedBy: act.signedBy,
    };
    const moved = actTransition(state, step.decision, [`ETTN_${actor.role}`]);
    if (!moved.ok) return refuse(moved.code, moved.reason);
    const chain = await repo.transactionsOfDocument(act.id, tx);
    if (s.kind !== 'act' || s.actType !== state.type) return refuse(1, `not a ${state.type}`);
    if (step.decision === 'countersign') {
      const before = t.signatures.length - 1;
      if (before < 0 || newSignatureRoles(t, before).length !== 1) return refuse(26, 'one countersignature');
    }
    let status = process.status;
    if (moved.state.status === 'SIGNED') {
      // The signed act is the note's move; a note that moved on where the act has no effect keeps its status.
      const noteMove = transition(process.status as NoteStatus, `act:${state.type}`, [`ETTN_${state.route[0]}`]);
      if (noteMove.ok) status = noteMove.state;
      else
        log.info(
          { processId: process.id, reason: noteMove.reason },
          'ettn registry SIMULATOR: act signed without effect on the note',
        );
    }
    await repo.updateDocument(
      act.id,
      { status: moved.state.status, signedBy: moved.state.signedBy, updatedAt: at },
      tx,
    );
    await repo.updateProcess(process.id, { status, updatedAt: at }, tx);
    if (status !== process.status) await repo.updateDocument(note.id, { status, updatedAt: at }, tx);
    const documentDetId = await record(tx, {
      process,
      documentId: act.id,
      kind: 'act',
      transactionNo: chain.length,
      status: moved.state.status,
      actor,
      transaction: t,
      entityId: act.id,
    });
    return {
      ok: true,
      processId: process.id,
      documentId: act.id,
      documentDetId,
      status,
      documentStatus: moved.state.status,
      processDocumentStatus: 'OK',
    };
  }

  return {
    kind: SIMULATOR_KIND,
    submit: (actor, step, transaction) => repo.transaction((tx) => submitInTx(tx, actor, step, transaction)),
    async findProcess(processId) {
      const process = await repo.findProcess(processId);
      if (!process) return undefined;
      const [documents, transactions] = await Promise.all([
        repo.documentsOf(processId),
        repo.transactionHeads(processId),
      ]);
      const signatures = await repo.signaturesOf(transactions.map((t) => t.id));
      return { process, documents, transactions, signatures };
    },
    chain: (documentId) => repo.transactionsOfDocument(documentId),
    findTransaction: (id) => repo.findTransaction(id),
    listProcesses: (filter) => repo.listProcesses(filter),
    pendingActs: (ids) => repo.pendingActsOf(ids),
    aliases: (companyId) => repo.aliasesOf(companyId),
    findAlias: (qualifier, value) => repo.findAlias(qualifier, value),
    async registerAlias({ companyId, qualifier, value, expiresAt }) {
      const at = clock.now();
      return repo.transaction(async (tx) => {
        const alias = await repo.upsertAlias({ companyId, qualifier, value, registeredAt: at, expiresAt }, tx);
        await repo.upsertSubscription(
          { companyId, aliasQualifier: qualifier, aliasValue: value, startDate: at, expiresAt },
          tx,
        );
        log.info({ companyId, qualifier, value }, 'ettn registry SIMULATOR: alias registered');
        return alias;
      });
    },
    subscriptions: (companyId) => repo.subscriptionsOf(companyId),
    events: (filter) => repo.listEvents(filter),
  };
}
