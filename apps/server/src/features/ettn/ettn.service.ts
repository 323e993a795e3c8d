import {
  ETTN_EXPIRY_WARNING_MS,
  ETTN_XML_MAX_BYTES,
  ettnErrorMessages,
  isEttnErrorCode,
  type AliasRegistrationGetRequest,
  type AliasRegistrationResponse,
  type AliasRegistrationSetForm,
  type DocumentViewRequest,
  type DownloadSignedEttnForm,
  type EttnAlias,
  type EttnComposeDraft,
  type EttnComposeForm,
  type EttnSupportingDocument,
  type EttnSupportingDocumentForm,
  type FeaturePermission,
  type EttnApiErrorCode,
  type EttnEvent,
  type EttnListItem,
  type EttnListQuery,
  type EttnPartResponse,
  type EttnView,
  type Page,
  type PendingPartGetRequest,
  type ProcessDocumentPartGetRequest,
  type RegisterEttnForm,
  type SignAndSendForm,
  type SignAndSendResponse,
} from '@portal/contracts';
import { createHash, randomUUID } from 'node:crypto';
import type { CanonicalDocument } from '@portal/documents';
import {
  attachSupportingDocument,
  createDemoCredential,
  exportDemoCredential,
  foldRole,
  nextActSigner,
  partyRolesOf,
  portalRoleOf,
  supportingDocumentTransition,
  type ActStatus,
  type ActType,
  type NoteAction,
  type NoteStatus,
  type Outcome,
  type PartyRole,
  type StoredDemoCredential,
  type SupportingDocument,
  type SupportingDocumentStatus,
} from '@portal/ettn';
import type { FastifyBaseLogger } from 'fastify';
import type { CpuPool } from '../../cpu/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, serialId, timestampText, toPage, uuid } from '../../lib/keyset.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { composeNote, draftFromDespatchAdvice } from './ettn-compose.ts';
import { partyIdOfRole, type DocumentSummary, type SummaryParty } from './ettn-documents.ts';
import type { EttnRegistry, RegistryActor, RegistryProcess, RegistryStep } from './ettn-registry.ts';
import type { EttnRepository, RegisteredFileRow, SupportingDocumentRow } from './ettn.repository.ts';
import type { PrepareFinding, PrepareResult, PrepareTask } from './ettn.tasks.ts';

/** Inputs above this size are read, checked and signed on the CPU pool; smaller ones inline (cheaper than a thread). */
const INLINE_MAX_BYTES = 64 * 1024;
/** How long an alias and its subscription last from (re-)registration. */
const ALIAS_DAYS = 365;
const DAY_MS = 86_400_000;

export type EttnCaller = {
  userId: string;
  companyId: string;
  roles: readonly string[];
  language: string;
  /** For reading the documents feature's documents through its access scope. */
  permissions: readonly FeaturePermission[];
  sessionId?: string | undefined;
};

/** What the e-TTN feature needs of the documents feature: a document the caller may read, or null. */
export type EttnDocumentsSource = {
  source(caller: EttnCaller, id: string): Promise<{ id: string; kind: string; body: CanonicalDocument } | null>;
};

/** A supporting document's bytes as the routes send them. */
export type SupportingDocumentFile = { fileName: string; size: number; body: NodeJS.ReadableStream };

/** The e-TTN refusal: the API code `ettn.<code>`, its text in every language, and the findings of a 29. */
export function ettnError(code: number, reason: string, findings: PrepareFinding[] = []): AppError {
  const known = isEttnErrorCode(code) ? code : 0;
  return new AppError(`ettn.${known}` as EttnApiErrorCode, {
    message: reason,
    data: { ettnCode: known, messages: ettnErrorMessages(known) },
    ...(findings.length
      ? {
          details: findings.slice(0, 50).map((f) => ({
            field: f.path,
            code: f.code,
            params: { ...f.params, field: f.field },
          })),
        }
      : {}),
  });
}

/** The step a note waits for in each status, and who takes it. */
const NEXT_STEP: Partial<Record<string, { step: NoteAction; roles: string[] }>> = {
  PENDING: { step: 'consignor_send', roles: ['CZ'] },
  ERROR: { step: 'consignor_send', roles: ['CZ'] },
  PLANNED: { step: 'pickup_sign', roles: ['CA'] },
  PICKUP: { step: 'arrival_sign', roles: ['CN'] },
};

/** The note move a party's signature on a registered note means. */
const moveOf = (status: string, role: string, decision: 'sign' | 'reject'): NoteAction => {
  const folded = foldRole(role);
  if (decision === 'reject') return status === 'PENDING' && folded === 'CZ' ? 'consignor_decline' : 'reject';
  if (folded === 'CZ') return 'consignor_send';
  if (folded === 'CA') return 'pickup_sign';
  if (folded === 'CN') return 'arrival_sign';
  // No note step of its own: the table refuses it (7).
  return 'send_preliminary';
};

const toBase64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export function createEttnService(deps: {
  repo: EttnRepository;
  registry: EttnRegistry;
  cpu: CpuPool;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The signer's name and company for a demo certificate. */
  identityOf: (userId: string, companyId: string) => Promise<{ name: string; organization: string }>;
  /** The documents feature (the create form filled from a despatch advice). */
  documents: EttnDocumentsSource;
  /** Where supporting documents' bytes live. */
  blobs: BlobStore;
  /** The company's own GLNs, the first of which a composed note names the consignor by; none: compose refuses (29). */
  companyGlns: (companyId: string) => Promise<string[]>;
}) {
  const { repo, registry, clock } = deps;

  const prepare = async (task: Omit<PrepareTask, 'maxBytes'>): Promise<PrepareResult> => {
    const size = (task.xml?.length ?? 0) + task.previous.reduce((n, x) => n + x.length, 0);
    const input = { ...task, maxBytes: ETTN_XML_MAX_BYTES * 2 };
    return size > INLINE_MAX_BYTES
      ? ((await deps.cpu.run({ name: 'ettn.run', kind: 'prepare', ...input })) as PrepareResult)
      : // Loaded by the first e-TTN request: its XML and signature libraries stay out of a server that has none.
        (await import('./ettn.tasks.ts')).prepareTask(input);
  };
  const prepared = async (task: Omit<PrepareTask, 'maxBytes'>) => {
    const result = await prepare(task);
    if (!result.ok) throw ettnError(result.code, result.reason, result.findings);
    return result;
  };

  /** The company's live alias values (EDRPOU): the notes naming one of them are the company's. */
  const identifiersOf = async (companyId: string): Promise<string[]> => {
    const now = clock.now();
    return (await registry.aliases(companyId)).filter((a) => a.expiresAt > now).map((a) => a.value);
  };

  /** A process the caller's company is a party of; another company's note is a 404, like one that does not exist. */
  const visibleProcess = async (caller: EttnCaller, processId: string) => {
    const [found, ids] = await Promise.all([registry.findProcess(processId), identifiersOf(caller.companyId)]);
    if (!found || !found.process.partyIds.some((id) => ids.includes(id))) throw new AppError('resource.not_found');
    return { ...found, ids };
  };

  /** 20 (note) or 21 (act) when the user does not hold the portal role ETTN_<role> (sub-roles fold). */
  const requirePartyRole = (caller: EttnCaller, role: string, act: boolean) => {
    if (!partyRolesOf(caller.roles).has(foldRole(role))) {
      throw ettnError(act ? 21 : 20, `the user does not hold ETTN_${role}`);
    }
  };

  /** The EDRPOU the company acts under as `role` in a note of these parties: 20/21 when it is not that party. */
  const actorOf = (
    ids: string[],
    parties: readonly SummaryParty[],
    role: string,
    act: boolean,
    aliasValue: string | undefined,
  ): RegistryActor => {
    if (aliasValue !== undefined && !ids.includes(aliasValue))
      throw ettnError(5, `${aliasValue} is not an alias of the company`);
    const candidates = partyIdOfRole(parties, role).filter((id) => ids.includes(id));
    const identifier = aliasValue !== undefined ? candidates.find((c) => c === aliasValue) : candidates[0];
    if (identifier === undefined) throw ettnError(act ? 21 : 20, `the company is not the note's ${role}`);
    return { identifier, role };
  };

  const credentialOf = async (caller: EttnCaller): Promise<StoredDemoCredential & { name: string }> => {
    const found = await repo.findCredential(caller.userId);
    if (found) {
      return {
        identity: found.identity,
        certificate: found.certificate,
        privateKey: found.privateKey,
        name: found.identity.name,
      };
    }
    const identity = await deps.identityOf(caller.userId, caller.companyId);
    // Valid from a day before the portal's clock, so a test clock (or a slightly wrong one) does not make it too new.
    const credential = await createDemoCredential(identity, {
      notBefore: new Date(clock.now().getTime() - DAY_MS),
      days: 730,
    });
    const stored = await exportDemoCredential(credential);
    const row = await repo.insertCredential({
      userId: caller.userId,
      identity: stored.identity as { name: string; organization?: string },
      certificate: stored.certificate,
      privateKey: stored.privateKey,
      createdAt: clock.now(),
    });
    return {
      identity: row.identity,
      certificate: row.certificate,
      privateKey: row.privateKey,
      name: row.identity.name,
    };
  };

  const signWith = async (caller: EttnCaller, role: string) => {
    const credential = await credentialOf(caller);
    return { credential, role, name: credential.name, at: clock.now().toISOString() };
  };

  const mustActOf = (
    status: string,
    acts: { route: string[]; signedBy: string[]; status: string; actType: string | null }[],
  ) => {
    const next = NEXT_STEP[status];
    const roles = new Set(next?.roles ?? []);
    for (const act of acts) {
      const signer = nextActSigner({
        type: act.actType as ActType,
        status: act.status as ActStatus,
        route: act.route,
        signedBy: act.signedBy,
      });
      if (signer) roles.add(signer);
    }
    return { currentStep: next?.step ?? null, mustAct: [...roles] };
  };

  const myRolesOf = (parties: readonly SummaryParty[], ids: string[]) => [
    ...new Set(parties.filter((p) => p.edrpou !== null && ids.includes(p.edrpou)).map((p) => p.role)),
  ];

  const summaryOfFile = (file: RegisteredFileRow) => file.summary as unknown as DocumentSummary;

  const aliasOut = (a: { qualifier: string; value: string; registeredAt: Date; expiresAt: Date }): EttnAlias => ({
    qualifier: 'EDRPOU',
    value: a.value,
    registeredAt: a.registeredAt.toISOString(),
    expiresAt: a.expiresAt.toISOString(),
    isRegistered: a.expiresAt > clock.now(),
  });

  /** An upload waiting in the Pending list, to be signed and sent with `signAndSend {registeredFileId}`. */
  const storePending = async (
    caller: EttnCaller,
    input: { fileName: string; signingRole: string; xml: string; summary: DocumentSummary },
  ) => {
    const at = clock.now();
    const row = await repo.insertRegisteredFile({
      companyId: caller.companyId,
      userId: caller.userId,
      fileName: input.fileName,
      signingRole: input.signingRole,
      xml: input.xml,
      summary: input.summary as unknown as Record<string, unknown>,
      status: 'PENDING',
      createdAt: at,
      updatedAt: at,
    });
    return { id: row.id };
  };

  const supportingOut = (row: SupportingDocumentRow): EttnSupportingDocument => ({
    id: row.id,
    type: row.type as EttnSupportingDocument['type'],
    status: row.status as EttnSupportingDocument['status'],
    fileName: row.fileName,
    size: row.size,
    attachedBy: row.attachedBy,
    signedBy: row.signedBy,
    createdAt: row.createdAt.toISOString(),
  });

  const refused = <T>(outcome: Outcome<T>): T => {
    if (!outcome.ok) throw ettnError(outcome.code, outcome.reason);
    return outcome.state;
  };

  /**
   * A supporting document of a note the caller's company is a party of (another company's is a 404), and the
   * caller acting on it as `role`: a role the user holds (21) and the company's role in the note (21).
   */
  const supportingContext = async (caller: EttnCaller, id: string, role: string) => {
    const row = await repo.findSupportingDocument(id);
    if (!row) throw new AppError('resource.not_found');
    const found = await visibleProcess(caller, row.processId);
    requirePartyRole(caller, role, true);
    actorOf(found.ids, found.process.parties, role, true, undefined);
    return { row, found, actorRoles: [portalRoleOf(foldRole(role) as PartyRole)] };
  };

  const viewOfSummary = (s: DocumentSummary) => ({
    number: s.number,
    issueDateTime: s.issueDateTime,
    parties: s.parties,
    route: { loading: s.loading, unloading: s.unloading },
    items: s.items,
    vehicles: s.vehicles,
  });

  return {
    async aliasGet(caller: EttnCaller, query: AliasRegistrationGetRequest): Promise<AliasRegistrationResponse> {
      const now = clock.now();
      const [aliases, subscriptions] = await Promise.all([
        registry.aliases(caller.companyId),
        registry.subscriptions(caller.companyId),
      ]);
      const matches = (value: string) => query.aliasValue === undefined || query.aliasValue === value;
      const kept = aliases.filter((a) => matches(a.value));
      const subs = subscriptions.filter((s) => matches(s.aliasValue));
      const soon = [...kept.map((a) => a.expiresAt), ...subs.map((s) => s.expiresAt)]
        .filter((d) => d > now && d.getTime() - now.getTime() <= ETTN_EXPIRY_WARNING_MS)
        .sort((a, b) => a.getTime() - b.getTime())[0];
      return {
        aliases: kept.map(aliasOut),
        subscriptions: subs.map((s) => ({
          id: s.id,
          aliasQualifier: 'EDRPOU' as const,
          aliasValue: s.aliasValue,
          startDate: s.startDate.toISOString(),
          expiresAt: s.expiresAt.toISOString(),
          expired: s.expiresAt <= now,
        })),
        expiresSoon: soon?.toISOString() ?? null,
      };
    },

    async aliasSet(caller: EttnCaller, form: AliasRegistrationSetForm): Promise<EttnAlias> {
      const existing = await registry.findAlias(form.aliasQualifier, form.aliasValue);
      // Another company's alias: the registry ties an EDRPOU to one representative.
      if (existing && existing.companyId !== caller.companyId)
        throw ettnError(25, 'the alias belongs to another company');
      if (form.isRegistered && !existing) throw ettnError(6, 'no such alias to renew');
      const alias = await registry.registerAlias({
        companyId: caller.companyId,
        qualifier: form.aliasQualifier,
        value: form.aliasValue,
        expiresAt: new Date(clock.now().getTime() + ALIAS_DAYS * DAY_MS),
      });
      return aliasOut(alias);
    },

    async registerEttn(caller: EttnCaller, form: RegisterEttnForm, xml: string): Promise<{ id: string }> {
      requirePartyRole(caller, form.signingPartyRoleCode, false);
      const result = await prepared({ xml, previous: [], verify: true, at: clock.now().toISOString() });
      if (result.summary.kind !== 'ettn')
        throw ettnError(1, 'registerEttn takes a note; acts are sent with signAndSend');
      const ids = await identifiersOf(caller.companyId);
      actorOf(ids, result.summary.parties, form.signingPartyRoleCode, false, undefined);
      return storePending(caller, {
        fileName: form.fileName,
        signingRole: form.signingPartyRoleCode,
        xml,
        summary: result.summary,
      });
    },

    /**
     * A note written by the server from the create form, the company as consignor under its registered alias: held to
     * the v3 table like an upload (29 with the findings) and kept as a pending upload for its consignor to send.
     */
    async compose(caller: EttnCaller, form: EttnComposeForm): Promise<{ id: string }> {
      requirePartyRole(caller, 'CZ', false);
      const [ids, identity, glns] = await Promise.all([
        identifiersOf(caller.companyId),
        deps.identityOf(caller.userId, caller.companyId),
        deps.companyGlns(caller.companyId),
      ]);
      // The registry knows the consignor by its alias: without one the company cannot be the note's party (5).
      const edrpou = ids[0];
      if (edrpou === undefined) throw ettnError(5, 'the company has no registered alias (EDRPOU)');
      if (form.despatchAdviceId !== undefined && !(await deps.documents.source(caller, form.despatchAdviceId))) {
        throw new AppError('validation.failed', { details: [{ field: 'despatchAdviceId', code: 'notFound' }] });
      }
      // The consignor sends transaction 0, so its GLN (TRADEPARTY_GLN, row 3.4) is mandatory: a company without one
      // is refused as a note that does not match the table (29), naming the field, rather than given a made-up GLN.
      const gln = glns[0];
      if (gln === undefined) {
        throw ettnError(29, 'the company has no GLN to name the consignor by (3.4 TRADEPARTY_GLN)', [
          {
            path: 'eCMR/SpecifiedSupplyChainConsignment/ram:ConsignorTradeParty/ram:SpecifiedGovernmentRegistration[ram:TypeCode=TRADEPARTY_GLN]/ram:ID',
            field: '3.4',
            code: 'required',
            params: {},
          },
        ]);
      }
      const note = composeNote(form, { edrpou, name: identity.organization, gln });
      const result = await prepared({
        build: { kind: 'compose', note },
        previous: [],
        verify: true,
        at: clock.now().toISOString(),
      });
      return storePending(caller, {
        fileName: `ettn_${form.number.replace(/[^\p{L}\p{N}._-]+/gu, '_')}.xml`,
        signingRole: 'CZ',
        xml: result.xml,
        summary: result.summary,
      });
    },

    /** The create form filled from a despatch advice the caller may read (another's or an unseen one: 404). */
    async composeFromDespatchAdvice(caller: EttnCaller, documentId: string): Promise<EttnComposeDraft> {
      const source = await deps.documents.source(caller, documentId);
      if (!source) throw new AppError('resource.not_found');
      if (source.kind !== 'despatch_advice') {
        throw new AppError('validation.failed', { details: [{ field: 'documentId', code: 'despatchAdvice' }] });
      }
      return { ...draftFromDespatchAdvice(source.body), despatchAdviceId: source.id };
    },

    /**
     * Attaches a PDF to a note as `signingPartyRoleCode`, signed at once (submit, then sign: SIGNED, signed by that
     * role). 27 an unknown type, 24 a note status that takes none, 21 a role the user or the company does not hold.
     */
    async attachSupporting(
      caller: EttnCaller,
      form: EttnSupportingDocumentForm,
      file: { fileName: string; bytes: Buffer },
    ): Promise<EttnSupportingDocument> {
      const role = form.signingPartyRoleCode;
      const found = await visibleProcess(caller, form.processId);
      requirePartyRole(caller, role, true);
      actorOf(found.ids, found.process.parties, role, true, undefined);
      const context = {
        noteStatus: found.process.status as NoteStatus,
        actorRoles: [portalRoleOf(foldRole(role) as PartyRole)],
      };
      let state = refused(attachSupportingDocument(context.noteStatus, form.type, context.actorRoles));
      state = refused(supportingDocumentTransition(state, 'submit', context));
      state = refused(supportingDocumentTransition(state, 'sign', context));
      const id = randomUUID();
      const blobKey = `ettn-supporting/${id}`;
      await deps.blobs.put(blobKey, file.bytes, { contentType: 'application/pdf' });
      const at = clock.now();
      const row = await repo.insertSupportingDocument({
        id,
        processId: found.process.id,
        companyId: caller.companyId,
        userId: caller.userId,
        type: state.type,
        status: state.status,
        fileName: file.fileName,
        size: file.bytes.length,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        blobKey,
        attachedBy: role,
        signedBy: [role],
        createdAt: at,
        updatedAt: at,
      });
      deps.log.info({ processId: found.process.id, id, role }, 'ettn: supporting document attached');
      return supportingOut(row);
    },

    /**
     * Another party's signature on a supporting document. A SIGNED one stays SIGNED and gains the role (the
     * lifecycle's `sign` is the move of the first signature; a countersignature is held to the same rules as that
     * move: 24, 21); a second signature by the same role, or one on a withdrawn document, is 12.
     */
    async signSupporting(caller: EttnCaller, id: string, role: string): Promise<EttnSupportingDocument> {
      const { row, found, actorRoles } = await supportingContext(caller, id, role);
      const context = { noteStatus: found.process.status as NoteStatus, actorRoles };
      return supportingOut(
        await repo.transaction(async (tx) => {
          const current = (await repo.findSupportingDocument(row.id, { tx, lock: true }))!;
          const doc: SupportingDocument = {
            type: current.type as SupportingDocument['type'],
            status: current.status as SupportingDocumentStatus,
          };
          if (current.signedBy.some((r) => foldRole(r) === foldRole(role))) {
            throw ettnError(12, `already signed by ${role}`);
          }
          const base = doc.status === 'SIGNED' ? { ...doc, status: 'SIGNATURE_PENDING' as const } : doc;
          const next = refused(supportingDocumentTransition(base, 'sign', context));
          return repo.updateSupportingDocument(
            current.id,
            { status: next.status, signedBy: [...current.signedBy, role], updatedAt: clock.now() },
            tx,
          );
        }),
      );
    },

    /** Withdraws a supporting document (CANCELED): only the party that attached it (21); a withdrawn one is 12. */
    async cancelSupporting(caller: EttnCaller, id: string, role: string): Promise<EttnSupportingDocument> {
      const { row, found, actorRoles } = await supportingContext(caller, id, role);
      if (row.companyId !== caller.companyId || foldRole(row.attachedBy) !== foldRole(role)) {
        throw ettnError(21, 'only the party that attached a supporting document withdraws it');
      }
      const context = { noteStatus: found.process.status as NoteStatus, actorRoles };
      return supportingOut(
        await repo.transaction(async (tx) => {
          const current = (await repo.findSupportingDocument(row.id, { tx, lock: true }))!;
          const doc: SupportingDocument = {
            type: current.type as SupportingDocument['type'],
            status: current.status as SupportingDocumentStatus,
          };
          const next = refused(supportingDocumentTransition(doc, 'cancel', context));
          return repo.updateSupportingDocument(
            current.id,
            { status: next.status, signedBy: current.signedBy, updatedAt: clock.now() },
            tx,
          );
        }),
      );
    },

    /** A supporting document's PDF, for a party of its note (another company's: 404). */
    async supportingFile(caller: EttnCaller, id: string): Promise<SupportingDocumentFile> {
      const row = await repo.findSupportingDocument(id);
      if (!row) throw new AppError('resource.not_found');
      await visibleProcess(caller, row.processId);
      const blob = await deps.blobs.get(row.blobKey);
      return { fileName: row.fileName, size: blob.size, body: blob.body };
    },

    async pendingPart(caller: EttnCaller, request: PendingPartGetRequest): Promise<EttnPartResponse> {
      const file = await repo.findRegisteredFile(request.registeredFileId, caller.companyId);
      if (!file) throw new AppError('resource.not_found');
      const meta =
        '<?xml version="1.0" encoding="UTF-8"?>\n<PendingDocumentMeta>' +
        `<RegisteredFileId>${file.id}</RegisteredFileId><Status>${file.status}</Status>` +
        `<SigningPartyRoleCode>${file.signingRole}</SigningPartyRoleCode>` +
        `<UploadedAt>${file.createdAt.toISOString()}</UploadedAt></PendingDocumentMeta>\n`;
      return {
        bodyPartContent: toBase64(request.partType === 'META' ? meta : file.xml),
        partType: request.partType,
        processDocumentStatus: 'PENDING',
      };
    },

    async processPart(caller: EttnCaller, request: ProcessDocumentPartGetRequest): Promise<EttnPartResponse> {
      const found = await visibleProcess(caller, request.processId);
      const transaction = await pickTransaction(found, request.documentId, request.documentDetId);
      return {
        bodyPartContent: toBase64(request.partType === 'META' ? transaction.meta : transaction.body),
        partType: request.partType,
        processDocumentStatus: transaction.status === 'OK' ? 'OK' : 'PENDING',
      };
    },

    async download(caller: EttnCaller, form: DownloadSignedEttnForm): Promise<{ xml: string; fileName: string }> {
      const transaction = await registry.findTransaction(form.fileUrl);
      if (!transaction) throw new AppError('resource.not_found');
      const found = await visibleProcess(caller, transaction.processId);
      const fileName =
        form.fileName ?? `ettn_${found.process.number ?? found.process.id}_${transaction.transactionNo}.xml`;
      return { xml: transaction.body, fileName };
    },

    async signAndSend(
      caller: EttnCaller,
      form: SignAndSendForm,
      uploaded: string | undefined,
    ): Promise<SignAndSendResponse> {
      const role = form.signingPartyRoleCode;
      const at = clock.now().toISOString();
      const ids = await identifiersOf(caller.companyId);
      let registeredFile: RegisteredFileRow | undefined;
      let xml = uploaded;
      if (form.registeredFileId !== undefined) {
        registeredFile = await repo.findRegisteredFile(form.registeredFileId, caller.companyId);
        if (!registeredFile) throw new AppError('resource.not_found');
        if (registeredFile.status !== 'PENDING') throw ettnError(7, 'the file was sent already');
        xml = registeredFile.xml;
      }

      let step: RegistryStep;
      let actor: RegistryActor;
      let result: Extract<PrepareResult, { ok: true }>;

      if (form.processId === undefined) {
        // A new note: the consignor's signed transaction 0, or another party's unsigned preliminary note.
        requirePartyRole(caller, role, false);
        if (xml === undefined) {
          throw new AppError('validation.failed', { details: [{ field: 'file', code: 'required' }] });
        }
        const isConsignor = foldRole(role) === 'CZ';
        const sign = isConsignor && form.decision === 'sign' ? await signWith(caller, role) : undefined;
        result = await prepared({ xml, previous: [], verify: true, at, ...(sign ? { sign } : {}) });
        if (result.summary.kind !== 'ettn') throw ettnError(1, 'a new process starts with a note');
        actor = actorOf(ids, result.summary.parties, role, false, form.aliasValue);
        step = { kind: 'note', move: isConsignor ? 'consignor_send' : 'send_preliminary' };
      } else {
        const found = await visibleProcess(caller, form.processId);
        const note = found.documents.find((d) => d.kind === 'ettn')!;
        const act = form.documentId
          ? found.documents.find((d) => d.id === form.documentId && d.kind === 'act')
          : undefined;
        if (form.documentId !== undefined && form.documentId !== note.id && !act) throw ettnError(10, 'no such act');
        const isAct = form.actType !== undefined || act !== undefined;
        requirePartyRole(caller, role, isAct);
        actor = actorOf(ids, found.process.parties, role, isAct, form.aliasValue);
        const sign = await signWith(caller, role);
        const noteChain = await registry.chain(note.id);
        const lastNote = noteChain.at(-1)!;
        if (form.actType !== undefined) {
          result = await prepared(
            xml !== undefined
              ? { xml, previous: [], verify: true, at, sign }
              : {
                  build: {
                    kind: 'act',
                    actType: form.actType,
                    number: `${found.process.number ?? 'ACT'}-${form.actType}-${found.documents.length}`,
                    issueDateTime: at,
                    ...(form.reason ? { reason: form.reason } : {}),
                    noteTransactionId: String(lastNote.transactionNo),
                    noteDetId: lastNote.id,
                  },
                  previous: [],
                  verify: true,
                  at,
                  sign,
                },
          );
          step = { kind: 'act', processId: found.process.id, actType: form.actType };
        } else if (act !== undefined) {
          const actChain = await registry.chain(act.id);
          const base = actChain.at(-1)!.body;
          result = await prepared(
            xml !== undefined
              ? { xml, previous: [], verify: true, at, sign }
              : { build: { kind: 'same', base }, previous: [], verify: true, at, sign },
          );
          step = {
            kind: 'actSign',
            processId: found.process.id,
            documentId: act.id,
            decision: form.decision === 'reject' ? 'reject' : 'countersign',
          };
        } else {
          const move = moveOf(found.process.status, role, form.decision);
          const previous = noteChain.map((t) => t.body);
          result = await prepared(
            xml !== undefined
              ? { xml, previous, verify: true, at, sign }
              : {
                  build: {
                    kind: 'next',
                    base: lastNote.body,
                    move,
                    transactionNo: found.process.version + 1,
                    previousDetId: lastNote.id,
                  },
                  previous,
                  verify: true,
                  at,
                  sign,
                },
          );
          step = {
            kind: 'note',
            processId: found.process.id,
            move,
            expected: {
              ...(form.actualStatus !== undefined ? { status: form.actualStatus } : {}),
              ...(form.actualVersion !== undefined ? { version: form.actualVersion } : {}),
            },
          };
        }
      }

      const outcome = await registry.submit(actor, step, {
        xml: result.xml,
        summary: result.summary,
        signatures: result.signatures,
      });
      if (!outcome.ok) throw ettnError(outcome.code, outcome.reason);
      if (registeredFile) await repo.markRegisteredFileSent(registeredFile.id, outcome.processId, clock.now());
      return {
        processId: outcome.processId,
        documentId: outcome.documentId,
        documentDetId: outcome.documentDetId,
        status: outcome.status as SignAndSendResponse['status'],
        documentStatus: outcome.documentStatus as SignAndSendResponse['documentStatus'],
        processDocumentStatus: outcome.processDocumentStatus,
      };
    },

    async view(
      caller: EttnCaller,
      request: Pick<DocumentViewRequest, 'ettnDocumentId' | 'isPending' | 'act'>,
    ): Promise<EttnView> {
      const { procId, docId, docDetId } = request.ettnDocumentId;
      if (request.isPending) {
        const file = await repo.findRegisteredFile(procId, caller.companyId);
        if (!file) throw new AppError('resource.not_found');
        const s = summaryOfFile(file);
        const ids = await identifiersOf(caller.companyId);
        return {
          processId: file.id,
          documentId: null,
          isPending: true,
          kind: 'ettn',
          actType: null,
          ...viewOfSummary(s),
          status: 'PENDING',
          processDocumentStatus: 'PENDING',
          version: 0,
          currentStep: file.status === 'PENDING' ? 'consignor_send' : null,
          mustAct: file.status === 'PENDING' ? [file.signingRole] : [],
          myRoles: myRolesOf(s.parties, ids),
          signatures: [],
          acts: [],
          transactions: [],
          history: [],
          supportingDocuments: [],
        };
      }
      const found = await visibleProcess(caller, procId);
      const { process, documents } = found;
      const actDoc = request.act ? documents.find((d) => d.id === docId && d.kind === 'act') : undefined;
      if (request.act && !actDoc) throw new AppError('resource.not_found');
      const transaction = await pickTransaction(found, actDoc?.id ?? (request.act ? undefined : docId), docDetId);
      const described = await prepared({
        xml: transaction.body,
        previous: [],
        verify: false,
        at: clock.now().toISOString(),
      });
      const acts = documents.filter((d) => d.kind === 'act');
      const { currentStep, mustAct } = mustActOf(process.status, acts);
      const heads = new Map(found.transactions.map((t) => [t.id, t]));
      const [events, supporting] = await Promise.all([
        registry.events({ companyId: caller.companyId, processId: process.id, limit: 200 }),
        actDoc ? Promise.resolve([]) : repo.supportingDocumentsOf(process.id),
      ]);
      return {
        processId: process.id,
        documentId: actDoc?.id ?? documents.find((d) => d.kind === 'ettn')?.id ?? null,
        isPending: false,
        kind: actDoc ? 'act' : 'ettn',
        actType: actDoc?.actType ?? null,
        ...viewOfSummary(described.summary),
        parties: process.parties,
        status: (actDoc?.status ?? process.status) as EttnView['status'],
        processDocumentStatus: transaction.status === 'OK' ? 'OK' : 'PENDING',
        version: process.version,
        currentStep,
        mustAct,
        myRoles: myRolesOf(process.parties, found.ids),
        signatures: found.signatures
          .filter((s) => heads.get(s.transactionId)?.documentId === (actDoc?.id ?? transaction.documentId))
          .map((s) => ({
            roleCode: s.roleCode,
            signerName: s.signerName,
            signedAt: s.signedAt?.toISOString() ?? null,
            transactionNo: heads.get(s.transactionId)?.transactionNo ?? 0,
            verified: s.verified,
            signerKind: s.signerKind,
          }))
          // Each transaction's storage repeats the earlier signatures: one line per signature, where it first came.
          .filter((s, i, all) => all.findIndex((o) => o.roleCode === s.roleCode && o.signedAt === s.signedAt) === i),
        acts: acts.map((a) => ({
          documentId: a.id,
          type: a.actType ?? '',
          status: a.status as EttnView['status'],
          route: a.route,
          signedBy: a.signedBy,
          nextSigner:
            nextActSigner({
              type: a.actType as ActType,
              status: a.status as ActStatus,
              route: a.route,
              signedBy: a.signedBy,
            }) ?? null,
          createdAt: a.createdAt.toISOString(),
        })),
        transactions: found.transactions.map((t) => ({
          documentDetId: t.id,
          documentId: t.documentId,
          kind: documents.find((d) => d.id === t.documentId)?.kind === 'act' ? 'act' : 'ettn',
          transactionNo: t.transactionNo,
          signingRole: t.signingRole,
          status: t.status === 'OK' ? 'OK' : 'PENDING',
          createdAt: t.createdAt.toISOString(),
          fileUrl: t.id,
        })),
        history: events
          .map((e) => eventOut(e))
          .reverse()
          .map(({ id: _id, ...rest }) => rest),
        supportingDocuments: supporting.map(supportingOut),
      };
    },

    /** The paper copy of a view, rendered on the CPU pool: a PDF with a QR code of the note's id. */
    async pdfOf(view: EttnView): Promise<Uint8Array> {
      const dash = (v: string | null | undefined) => v ?? '—';
      const model = {
        processId: view.processId,
        number: dash(view.number),
        status: view.status,
        issueDateTime: dash(view.issueDateTime),
        registryNote: `Registry: embedded ${registry.kind} (not a real registration) · ${view.processId}`,
        sections: [
          {
            title: 'Сторони / Parties',
            lines: view.parties.map((p): [string, string] => [
              p.role,
              [p.name, p.edrpou ? `ЄДРПОУ ${p.edrpou}` : null, p.address, p.person].filter(Boolean).join(', '),
            ]),
          },
          {
            title: 'Маршрут / Route',
            lines: [
              ['Завантаження / Loading', dash(view.route.loading?.description ?? view.route.loading?.name)],
              ['Розвантаження / Unloading', dash(view.route.unloading?.description ?? view.route.unloading?.name)],
            ] as [string, string][],
          },
          {
            title: 'Вантаж / Cargo',
            lines: view.items.map((i): [string, string] => [
              dash(i.sequence),
              [
                i.name,
                i.uktzed ? `УКТЗЕД ${i.uktzed}` : null,
                i.grossWeight && `${i.grossWeight} ${i.weightUnit ?? ''}`,
              ]
                .filter(Boolean)
                .join(', '),
            ]),
          },
          {
            title: 'Транспорт / Vehicles',
            lines: view.vehicles.map((v): [string, string] => [
              dash(v.id),
              [v.brand, v.model, v.seals.length ? `seals ${v.seals.join(', ')}` : null].filter(Boolean).join(', '),
            ]),
          },
          {
            title: 'Підписи / Signatures',
            lines: view.signatures.map((sig): [string, string] => [
              sig.roleCode,
              `${dash(sig.signerName)}, ${dash(sig.signedAt)} (${sig.signerKind})`,
            ]),
          },
          {
            title: 'Акти / Acts',
            lines: view.acts.map((act): [string, string] => [act.type, `${act.status}, ${act.signedBy.join(' → ')}`]),
          },
        ],
      };
      return (await deps.cpu.run({ name: 'ettn.run', kind: 'pdf', model })) as Uint8Array;
    },

    async list(caller: EttnCaller, query: EttnListQuery): Promise<Page<EttnListItem>> {
      const after = decodeCursor(query.cursor, [timestampText, uuid]) as [string, string] | undefined;
      const ids = await identifiersOf(caller.companyId);
      if (ids.length === 0) return { items: [], nextCursor: null };
      const rows = await registry.listProcesses({
        partyIds: ids,
        limit: query.limit,
        ...(query.status ? { status: query.status } : {}),
        ...(query.search ? { search: query.search } : {}),
        ...(query.dateFrom ? { dateFrom: query.dateFrom } : {}),
        ...(query.dateTo ? { dateTo: query.dateTo } : {}),
        ...(query.role ? { role: { role: foldRole(query.role), ids } } : {}),
        ...(after ? { after } : {}),
      });
      const acts = await registry.pendingActs(rows.map((r) => r.id));
      const party = (parties: SummaryParty[], role: string) => parties.find((p) => p.role === role) ?? null;
      return toPage(
        rows,
        query.limit,
        (r) => ({
          id: r.id,
          number: r.number,
          issueDate: r.issueDateTime,
          status: r.status as EttnListItem['status'],
          consignor: party(r.parties, 'CZ'),
          consignee: party(r.parties, 'CN'),
          carrier: party(r.parties, 'CA'),
          vehicle: r.vehicle,
          route: { from: r.routeFrom, to: r.routeTo },
          ...mustActOf(
            r.status,
            acts.filter((a) => a.processId === r.id),
          ),
          myRoles: myRolesOf(r.parties, ids),
          updatedAt: r.updatedAt.toISOString(),
        }),
        (r) => [r.cursorAt, r.id],
      );
    },

    async listPending(caller: EttnCaller, query: EttnListQuery): Promise<Page<EttnListItem>> {
      const after = decodeCursor(query.cursor, [timestampText, uuid]) as [string, string] | undefined;
      const ids = await identifiersOf(caller.companyId);
      const rows = await repo.listRegisteredFiles({
        companyId: caller.companyId,
        limit: query.limit,
        ...(after ? { after } : {}),
      });
      return toPage(
        rows,
        query.limit,
        (f) => {
          const s = summaryOfFile(f);
          const party = (role: string) => s.parties.find((p) => p.role === role) ?? null;
          return {
            id: f.id,
            number: s.number,
            issueDate: s.issueDateTime,
            status: 'PENDING' as const,
            consignor: party('CZ'),
            consignee: party('CN'),
            carrier: party('CA'),
            vehicle: s.vehicle,
            route: { from: s.routeFrom, to: s.routeTo },
            currentStep: foldRole(f.signingRole) === 'CZ' ? 'consignor_send' : 'send_preliminary',
            mustAct: [f.signingRole],
            myRoles: myRolesOf(s.parties, ids),
            updatedAt: f.updatedAt.toISOString(),
          };
        },
        (f) => [f.cursorAt, f.id],
      );
    },

    async events(
      caller: EttnCaller,
      query: { cursor?: string | undefined; limit: number; processId?: string | undefined },
    ) {
      const after = decodeCursor(query.cursor, [serialId]);
      const rows = await registry.events({
        companyId: caller.companyId,
        limit: query.limit,
        ...(query.processId ? { processId: query.processId } : {}),
        ...(after ? { after: Number(after[0]) } : {}),
      });
      return toPage(rows, query.limit, eventOut, (e) => [String(e.id)]);
    },
  };

  async function pickTransaction(found: RegistryProcess, documentId?: string, documentDetId?: string) {
    if (documentDetId !== undefined) {
      const head = found.transactions.find((t) => t.id === documentDetId);
      if (!head || (documentId !== undefined && head.documentId !== documentId))
        throw new AppError('resource.not_found');
      return (await registry.findTransaction(head.id))!;
    }
    const document = found.documents.find((d) => (documentId === undefined ? d.kind === 'ettn' : d.id === documentId));
    if (!document) throw new AppError('resource.not_found');
    const chain = await registry.chain(document.id);
    return chain.at(-1)!;
  }
}

const eventOut = (e: {
  id: number;
  entityType: string;
  entityId: string;
  processId: string;
  entityStatus: string;
  timestamp: Date;
  documentId: string;
  actorIdentifier: string;
}): EttnEvent => ({
  id: String(e.id),
  entityType: e.entityType === 'act' ? 'act' : 'ettn',
  entityId: e.entityId,
  ettnId: e.processId,
  entityStatus: e.entityStatus as EttnEvent['entityStatus'],
  timestamp: e.timestamp.toISOString(),
  documentId: e.documentId,
  actorIdentifier: e.actorIdentifier,
});

export type EttnService = ReturnType<typeof createEttnService>;
