import {
  type CompanyLocationPage,
  DRAFT_KINDS,
  DRAFT_MESSAGE_TYPES,
  DRAFTS_MAX_PER_COMPANY,
  DraftFormSchema,
  draftProblems,
  emptyDraftForm,
  hasPermission,
  isValidIban,
  LIST_LIMIT_MAX,
  type Draft,
  type DraftCheck,
  type DraftForm,
  type DraftKind,
  type DraftKinds,
  type DraftListItem,
  type DraftParty,
  type DraftSent,
  type FeaturePermission,
  type Partner,
  type UserSettings,
} from '@portal/contracts';
import { turnaroundForm, TURNAROUNDS, type CanonicalDocument, type CatalogueItem } from '@portal/documents';
import { DEMO_ROLE } from '../../access/document-scope.ts';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf } from '../../lib/company-scope.ts';
import type { StoreRef } from '../edifact/edifact.tasks.ts';
import type { CheckDraftResult } from './drafts.tasks.ts';
import { answeredQuantities, completionOf, openQuantity, orderedQuantities } from './drafts.completion.ts';
import { createDraftsRepository, type DraftOwner, type DraftRow } from './drafts.repository.ts';

/** Who calls: the request's principal (an impersonating admin is the impersonated user here). */
export type DraftsCaller = {
  userId: string;
  companyId: string | null;
  permissions: readonly FeaturePermission[];
  roles?: readonly string[];
  sessionId?: string | undefined;
};

/** What the drafts need of the other features (their services, passed in by app.ts). */
export type DraftsDependencies = {
  partners: {
    list(
      caller: { userId: string; companyId: string | null; permissions: readonly FeaturePermission[] },
      query: { limit: number; sort: 'name'; order: 'asc'; includeTotal: boolean; testMode: undefined },
    ): Promise<{ items: Partner[] }>;
    namesOf(companyId: string, ids: readonly string[]): Promise<Map<string, string>>;
    deliveryPoints(
      caller: { userId: string; companyId: string | null; permissions: readonly FeaturePermission[] },
      id: string,
      query: { limit: number; search?: string | undefined },
    ): Promise<CompanyLocationPage>;
    sendingSettings(
      companyId: string,
      partnerId: string,
    ): Promise<{
      gln: string;
      name: string;
      status: Partner['status'];
      testMode: boolean;
      edifactDirectory: 'D96A' | 'D01B';
      syntaxIdentifier: string;
      una: boolean;
      docTypesOut: readonly string[];
    } | null>;
  };
  companies: {
    find(id: string): Promise<
      | {
          name: string;
          vatId: string | null;
          taxId: string | null;
          country: string | null;
          profile: Record<string, string | null>;
        }
      | undefined
    >;
    /** The company's own GLNs (not its delivery points), first the main one. */
    ownGlns(companyId: string): Promise<string[]>;
  };
  documents: {
    /** A document the caller may read (the access scope), for turnaround; null otherwise. */
    source(
      caller: DraftsCaller,
      id: string,
    ): Promise<{
      id: string;
      kind: string;
      direction: string;
      partnerId: string | null;
      body: CanonicalDocument;
    } | null>;
    /** Sets a readable document's additional status as its answers leave it (history reason `answered`). */
    markAnswered(caller: DraftsCaller, id: string, status: 'completed' | 'partially_completed'): Promise<void>;
    upload(
      caller: DraftsCaller,
      direction: 'out',
      files: { fileName: string; bytes: Uint8Array }[],
    ): Promise<{ documents: { id: string }[]; queued: boolean; duplicate: boolean }[]>;
  };
  users: { settingsOf(userId: string): Promise<UserSettings> };
  products: { catalogue(companyId: string, gtins: readonly string[]): Promise<Map<string, CatalogueItem>> };
  edifact: { directoryRef(): Promise<StoreRef> };
};

/** The kind's own party (the sender): the buyer of an order or a receiving advice, else the supplier. */
const SENDER_ROLE: Record<DraftKind, 'buyer' | 'supplier'> = {
  order: 'buyer',
  order_response: 'supplier',
  despatch_advice: 'supplier',
  invoice: 'supplier',
  credit_note: 'supplier',
  receiving_advice: 'buyer',
};
const other = (role: 'buyer' | 'supplier') => (role === 'buyer' ? 'supplier' : 'buyer');

const algorithmOf = (settings: UserSettings): 'lines' | 'summary' =>
  settings.vatAlgorithm === 'lines' ? 'lines' : 'summary';

const versionConflict = () => new AppError('drafts.version_conflict');
const problemsError = (problems: { field: string; code: string }[]) =>
  new AppError('validation.failed', { details: problems.map((p) => ({ field: `form.${p.field}`, code: p.code })) });

/** How long a repeated send waits for the first one to finish storing the same interchange, and how often it looks. */
const SEND_WAIT_MS = 15_000;
const SEND_POLL_MS = 100;

/** `2026-11-27T10:15` in UTC, for UNB's date and time of preparation. */
const wallTime = (at: Date) => at.toISOString().slice(0, 16);

/**
 * Documents written in the browser (issue 12, decision 0033): drafts saved as the user works, the new-document menu,
 * turnaround from a received document, Check (the EDIFACT engine on the EANCOM the form writes) and Send, which
 * stores the interchange through the outbox upload and so routes it like any sent file. A send is idempotent: the
 * draft keeps its control reference, and a repeat finds the interchange stored and answers with its document.
 */
export function createDraftsService(deps: DraftsDependencies & { db: Db; clock: Clock; cpu: CpuPool }) {
  const { db, clock, cpu } = deps;
  const repo = createDraftsRepository(db);

  const ownerOf = (caller: DraftsCaller): DraftOwner => ({
    companyId: companyOf(caller),
    sessionId: caller.roles?.includes(DEMO_ROLE) ? (caller.sessionId ?? null) : null,
  });
  const can = (caller: DraftsCaller, permission: FeaturePermission) =>
    hasPermission({ roles: [], permissions: caller.permissions, toggles: [] }, permission);
  const require = (caller: DraftsCaller, permission: FeaturePermission) => {
    if (!can(caller, permission)) throw new AppError('auth.forbidden');
  };

  const partnerName = async (companyId: string, partnerId: string | null) =>
    partnerId ? ((await deps.partners.sendingSettings(companyId, partnerId))?.name ?? null) : null;

  const toDraft = async (row: DraftRow, caller: DraftsCaller): Promise<Draft> => ({
    id: row.id,
    kind: row.kind as DraftKind,
    state: row.state as Draft['state'],
    version: row.version,
    partnerId: row.partnerId,
    partnerName: await partnerName(row.companyId, row.partnerId),
    sourceDocumentId: row.sourceDocumentId,
    sentDocumentId: row.sentDocumentId,
    form: DraftFormSchema.parse(row.form),
    vatAlgorithm: (await deps.users.settingsOf(caller.userId)).vatAlgorithm,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });

  /** The company's partner `partnerId`, or a 400 on the field. */
  const partnerFor = async (caller: DraftsCaller, partnerId: string) => {
    const settings = await deps.partners.sendingSettings(companyOf(caller), partnerId);
    if (!settings) {
      throw new AppError('validation.failed', { details: [{ field: 'partnerId', code: 'notFound' }] });
    }
    return settings;
  };
  /** Whether a partner may receive `kind`: not blocked, and its outgoing types list it or list none. */
  const allows = (partner: { status: string; docTypesOut: readonly string[] }, kind: DraftKind) =>
    partner.status !== 'blocked' &&
    (partner.docTypesOut.length === 0 || partner.docTypesOut.includes(DRAFT_MESSAGE_TYPES[kind]));

  /** The company as a party of the form: its name, address and tax ids, and its main GLN. */
  const ownParty = async (companyId: string): Promise<DraftParty> => {
    const [company, glns] = await Promise.all([deps.companies.find(companyId), deps.companies.ownGlns(companyId)]);
    const profile = company?.profile ?? {};
    return {
      gln: glns[0] ?? '',
      name: company?.name ?? '',
      street: profile.street ?? '',
      city: profile.city ?? '',
      postalCode: profile.postalCode ?? '',
      country: company?.country ?? '',
      vatId: company?.vatId ?? '',
      taxId: company?.taxId ?? '',
    };
  };

  /** The IBAN of the company's profile, or '' when it has none (or an account number that is not an IBAN). */
  const ownBankAccount = async (companyId: string): Promise<string> => {
    const account = (await deps.companies.find(companyId))?.profile.bankAccount ?? '';
    return isValidIban(account) ? account : '';
  };

  /** A new form of a kind: the company as its own party, the partner (when chosen) as the other, today's date. */
  const newForm = async (caller: DraftsCaller, kind: DraftKind, partnerId: string | null): Promise<DraftForm> => {
    const companyId = companyOf(caller);
    const form = emptyDraftForm();
    form.documentDate = clock.now().toISOString().slice(0, 10);
    form.currency = 'PLN';
    form[SENDER_ROLE[kind]] = await ownParty(companyId);
    if (partnerId) {
      const partner = await partnerFor(caller, partnerId);
      form[other(SENDER_ROLE[kind])] = {
        ...form.buyer,
        ...emptyDraftForm().buyer,
        gln: partner.gln,
        name: partner.name,
      };
    }
    return form;
  };

  async function check(
    caller: DraftsCaller,
    row: DraftRow,
    controlReference: string,
  ): Promise<
    CheckDraftResult & {
      directory: 'D96A' | 'D01B';
    }
  > {
    const kind = row.kind as DraftKind;
    const form = DraftFormSchema.parse(row.form);
    const partner = row.partnerId ? await deps.partners.sendingSettings(row.companyId, row.partnerId) : null;
    const senderRole = SENDER_ROLE[kind];
    const settings = await deps.users.settingsOf(caller.userId);
    const directory = partner?.edifactDirectory ?? 'D96A';
    const result = await cpu.run({
      name: 'drafts.check',
      ...(await deps.edifact.directoryRef()),
      kind,
      form,
      algorithm: algorithmOf(settings),
      directory,
      syntax: partner?.syntaxIdentifier ?? 'UNOC',
      una: partner?.una ?? false,
      test: partner?.testMode ?? false,
      sender: form[senderRole].gln,
      recipient: partner?.gln ?? form[other(senderRole)].gln,
      controlReference,
      preparedAt: wallTime(clock.now()),
    });
    return { ...result, directory };
  }

  /**
   * After an answer to an order is sent: the order becomes Partially Completed or Completed by what its sent despatch
   * advices or invoices cover (issue 12, part 2).
   */
  async function completeSource(caller: DraftsCaller, owner: DraftOwner, row: DraftRow): Promise<void> {
    if (!row.sourceDocumentId || (row.kind !== 'despatch_advice' && row.kind !== 'invoice')) return;
    const source = await deps.documents.source(caller, row.sourceDocumentId);
    if (!source || source.body.kind !== 'order') return;
    const answers = await repo.sentAnswers(owner, source.id, ['despatch_advice', 'invoice']);
    const forms = (kind: string) => answers.filter((a) => a.kind === kind).map((a) => DraftFormSchema.parse(a.form));
    const status = completionOf(source.body, [forms('despatch_advice'), forms('invoice')]);
    if (status) await deps.documents.markAnswered(caller, source.id, status);
  }

  return {
    /** A platform partner's delivery points, for the form's delivery party (issue 12, part 1). */
    async partnerDeliveryPoints(
      caller: DraftsCaller,
      partnerId: string,
      query: { limit: number; search?: string | undefined },
    ): Promise<CompanyLocationPage> {
      require(caller, 'OUTBOX_CREATE');
      return deps.partners.deliveryPoints(caller, partnerId, query);
    },

    /** What the new-document menu offers: each kind some partner of the company may receive, with those partners. */
    async kinds(caller: DraftsCaller): Promise<DraftKinds> {
      require(caller, 'OUTBOX_CREATE');
      const { items } = await deps.partners.list(caller, {
        limit: LIST_LIMIT_MAX,
        sort: 'name',
        order: 'asc',
        includeTotal: false,
        testMode: undefined,
      });
      return {
        kinds: DRAFT_KINDS.flatMap((kind) => {
          const partners = items.filter((p) => allows(p, kind)).map((p) => ({ id: p.id, name: p.name, gln: p.gln }));
          return partners.length ? [{ kind, partners }] : [];
        }),
      };
    },

    async list(caller: DraftsCaller): Promise<{ items: DraftListItem[] }> {
      const rows = await repo.list(ownerOf(caller), LIST_LIMIT_MAX);
      const partnerIds = [...new Set(rows.flatMap((r) => (r.partnerId ? [r.partnerId] : [])))];
      // One query for the page's partners, not one a draft.
      const names = await deps.partners.namesOf(companyOf(caller), partnerIds);
      return {
        items: rows.map((row) => {
          const form = DraftFormSchema.parse(row.form);
          return {
            id: row.id,
            kind: row.kind as DraftKind,
            number: form.number,
            partnerName: row.partnerId ? (names.get(row.partnerId) ?? null) : null,
            lineCount: form.lines.length,
            updatedAt: row.updatedAt.toISOString(),
          };
        }),
      };
    },

    async get(caller: DraftsCaller, id: string): Promise<Draft> {
      const row = await repo.find(ownerOf(caller), id);
      if (!row) throw notFound();
      return toDraft(row, caller);
    },

    /** A new draft: empty (the company and the partner filled in), as given, or answering a document (turnaround). */
    async create(
      caller: DraftsCaller,
      input: {
        kind: DraftKind;
        partnerId?: string | null | undefined;
        sourceDocumentId?: string | undefined;
        form?: DraftForm | undefined;
      },
    ): Promise<Draft> {
      const owner = ownerOf(caller);
      if ((await repo.count(owner)) >= DRAFTS_MAX_PER_COMPANY) {
        throw new AppError('drafts.limit_reached', { data: { max: DRAFTS_MAX_PER_COMPANY } });
      }
      let partnerId = input.partnerId ?? null;
      let form: DraftForm;
      if (input.sourceDocumentId) {
        const source = await deps.documents.source(caller, input.sourceDocumentId);
        if (!source) {
          throw new AppError('validation.failed', { details: [{ field: 'sourceDocumentId', code: 'notFound' }] });
        }
        if (!TURNAROUNDS[source.body.kind]?.includes(input.kind)) {
          throw new AppError('validation.failed', { details: [{ field: 'kind', code: 'turnaround' }] });
        }
        const gtins = source.body.lines.flatMap((l) => (l.gtin ? [l.gtin] : []));
        const catalogue = await deps.products.catalogue(owner.companyId, gtins);
        form = turnaroundForm(source.body, input.kind, clock.now().toISOString().slice(0, 10), (gtin) =>
          catalogue.get(gtin),
        );
        form.currency ||= 'PLN';
        partnerId ??= source.partnerId;
        // A second despatch or invoice of an order starts from what is still open of each line.
        if (source.body.kind === 'order' && (input.kind === 'despatch_advice' || input.kind === 'invoice')) {
          const answers = await repo.sentAnswers(owner, source.id, [input.kind]);
          if (answers.length) {
            const ordered = orderedQuantities(source.body);
            const answered = answeredQuantities(answers.map((a) => DraftFormSchema.parse(a.form)));
            for (const line of form.lines) {
              const open = openQuantity(ordered, answered, line.orderLineNumber || line.gtin);
              if (open !== null) line.quantity = open;
            }
          }
        }
      } else {
        form = input.form ?? (await newForm(caller, input.kind, partnerId));
      }
      // An invoice is paid to the company's bank account of its profile, unless the form says otherwise.
      if ((input.kind === 'invoice' || input.kind === 'credit_note') && !input.form && !form.payment.iban) {
        form.payment = { ...form.payment, iban: await ownBankAccount(owner.companyId) };
      }
      if (partnerId) await partnerFor(caller, partnerId);
      const at = clock.now();
      const row = await repo.insert({
        companyId: owner.companyId,
        sessionId: owner.sessionId,
        createdBy: caller.userId,
        kind: input.kind,
        partnerId,
        form,
        sourceDocumentId: input.sourceDocumentId ?? null,
        createdAt: at,
        updatedAt: at,
      });
      return toDraft(row, caller);
    },

    /**
     * Saves the form. Outbox modify, or outbox create for the caller's own draft (the form saves as its author types).
     * A save over an older version is `drafts.version_conflict` (409): another tab saved in between.
     */
    async update(
      caller: DraftsCaller,
      id: string,
      input: { version: number; partnerId: string | null; form: DraftForm },
    ): Promise<Draft> {
      const owner = ownerOf(caller);
      const row = await repo.find(owner, id);
      if (!row) throw notFound();
      if (!can(caller, 'OUTBOX_MODIFY') && !(row.createdBy === caller.userId && can(caller, 'OUTBOX_CREATE'))) {
        throw new AppError('auth.forbidden');
      }
      if (row.state !== 'draft') throw new AppError('drafts.sent');
      if (input.partnerId) await partnerFor(caller, input.partnerId);
      const saved = await repo.save(
        owner,
        id,
        input.version,
        { form: input.form, partnerId: input.partnerId },
        clock.now(),
      );
      if (!saved) throw versionConflict();
      return toDraft(saved, caller);
    },

    /** A copy (clone) of a draft or of a sent draft's form, as a new draft. */
    async copy(caller: DraftsCaller, id: string): Promise<Draft> {
      const row = await repo.find(ownerOf(caller), id);
      if (!row) throw notFound();
      const form = DraftFormSchema.parse(row.form);
      return this.create(caller, {
        kind: row.kind as DraftKind,
        partnerId: row.partnerId,
        form: { ...form, number: '', documentDate: clock.now().toISOString().slice(0, 10) },
      });
    },

    async remove(caller: DraftsCaller, id: string): Promise<void> {
      const owner = ownerOf(caller);
      const row = await repo.find(owner, id);
      if (!row) throw notFound();
      if (!can(caller, 'OUTBOX_MODIFY') && !(row.createdBy === caller.userId && can(caller, 'OUTBOX_CREATE'))) {
        throw new AppError('auth.forbidden');
      }
      if (row.state !== 'draft') throw new AppError('drafts.sent');
      await repo.remove(owner, id);
    },

    /** The form's problems, then the engine's findings on the EANCOM it writes, each with its field. */
    async check(caller: DraftsCaller, id: string): Promise<DraftCheck> {
      const row = await repo.find(ownerOf(caller), id);
      if (!row) throw notFound();
      const kind = row.kind as DraftKind;
      const form = DraftFormSchema.parse(row.form);
      const problems = draftProblems(kind, form);
      if (!row.partnerId) problems.unshift({ field: 'partnerId', code: 'required' });
      if (problems.length) {
        return {
          ok: false,
          problems,
          findings: [],
          omitted: [],
          edifact: null,
          messageType: DRAFT_MESSAGE_TYPES[kind],
          directory: null,
        };
      }
      const result = await check(caller, row, row.controlReference ?? 'CHECK');
      return {
        ok: result.errors === 0,
        problems: [],
        findings: result.findings,
        omitted: result.omitted,
        edifact: result.edifact,
        messageType: result.messageType,
        directory: result.directory,
      };
    },

    /**
     * Sends the draft as `version`: the form's problems and the engine's errors refuse it (400); the interchange is
     * stored through the outbox upload, which routes it to a partner on the platform. A repeat (double click, retry
     * after a lost answer) answers with the same document and stores nothing new.
     */
    async send(caller: DraftsCaller, id: string, version: number): Promise<DraftSent> {
      require(caller, 'OUTBOX_SEND');
      const owner = ownerOf(caller);
      const row = await repo.find(owner, id);
      if (!row) throw notFound();
      if (row.state === 'sent' && row.sentDocumentId) return { documentId: row.sentDocumentId, repeated: true };
      if (row.version !== version) throw versionConflict();
      const kind = row.kind as DraftKind;
      const form = DraftFormSchema.parse(row.form);
      if (!row.partnerId) {
        throw new AppError('validation.failed', { details: [{ field: 'partnerId', code: 'required' }] });
      }
      const partner = await partnerFor(caller, row.partnerId);
      if (!allows(partner, kind)) {
        throw new AppError('validation.failed', { details: [{ field: 'partnerId', code: 'partnerRefuses' }] });
      }
      const problems = draftProblems(kind, form);
      const senderRole = SENDER_ROLE[kind];
      const own = await deps.companies.ownGlns(owner.companyId);
      if (form[senderRole].gln && !own.includes(form[senderRole].gln)) {
        problems.push({ field: `${senderRole}.gln`, code: 'senderNotOwn' });
      }
      if (problems.length) throw problemsError(problems);
      const controlReference = await repo.controlReference(id);
      const checked = await check(caller, row, controlReference);
      if (checked.errors > 0) {
        throw new AppError('drafts.check_failed', {
          details: checked.findings
            .filter((f) => f.severity === 'error')
            .slice(0, 50)
            .map((f) => ({ field: f.field ? `form.${f.field}` : 'form', code: f.code })),
        });
      }
      const fileName = `${checked.messageType}_${form.number.replace(/[^\p{L}\p{N}._-]+/gu, '_')}_${controlReference}.edi`;
      const [stored] = await deps.documents.upload(caller, 'out', [{ fileName, bytes: checked.bytes }]);
      const document = stored?.documents[0];
      if (document) {
        await repo.markSent(id, document.id, clock.now());
        await completeSource(caller, owner, row);
        return { documentId: document.id, repeated: !!stored.duplicate };
      }
      // The same interchange is being stored by another send of this draft (a double click, another server):
      // its answer is ours once it has marked the draft sent.
      for (let waited = 0; waited < SEND_WAIT_MS; waited += SEND_POLL_MS) {
        await new Promise((resolve) => setTimeout(resolve, SEND_POLL_MS));
        const now = await repo.find(owner, id);
        if (now?.state === 'sent' && now.sentDocumentId) return { documentId: now.sentDocumentId, repeated: true };
      }
      throw new AppError('drafts.sending');
    },

    removeSession: (sessionId: string, tx?: Db) => repo.removeSession(sessionId, tx),
  };
}
export type DraftsService = ReturnType<typeof createDraftsService>;
