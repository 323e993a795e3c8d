import type {
  CompanyLocationPage,
  CreatePartnerValues,
  DocumentDirection,
  DocumentTypeCode,
  EancomDirectory,
  FeaturePermission,
  Partner,
  PartnerDetail,
  PartnerEvent,
  PartnerLookup,
  PartnerNotificationsValues,
  PartnersPage,
  PartnersQuery,
  SyntaxIdentifier,
  UpdatePartnerValues,
} from '@portal/contracts';
import { hasPermission, LANGUAGES, PARTNER_SENDING_DEFAULTS, PARTNER_SORTS } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf } from '../../lib/company-scope.ts';
import { decodeCursor, takePage, uuid, type KeyPart } from '../../lib/keyset.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { emailTranslator, type MailService } from '../mail/mail.service.ts';
import {
  createPartnersRepository,
  type PartnerRow,
  type PartnerScope,
  type PartnersRepository,
  type PartnerValues,
} from './partners.repository.ts';

/** What the partners need of the companies feature (its service): linking by GLN and the linked companies' names. */
export type PartnerCompanies = {
  /** Pass the caller's transaction as `tx`: on PGlite a query outside an open transaction waits for it to end. */
  findCompanyByGln(gln: string, tx?: Db): Promise<{ id: string; name: string } | null>;
  namesOf(ids: readonly string[], tx?: Db): Promise<Map<string, string>>;
  /** A platform partner's delivery points (the companies service's locations). */
  locations: {
    list(
      caller: { companyId: string },
      query: { limit: number; search?: string | undefined; kind: 'delivery_point'; includeTotal: false },
    ): Promise<CompanyLocationPage>;
  };
};

/** The reader or editor of a company's partners. */
export type PartnersCaller = {
  userId: string;
  companyId: string | null;
  permissions: readonly FeaturePermission[];
};

/** What a notification says about the document it is about. */
export type PartnerDocumentInfo = {
  documentType: string;
  /** The document's number, as its sender gave it. */
  number?: string | null;
  direction: DocumentDirection;
  /** For `failed`: why, in a few words (shown as it is). */
  reason?: string | null;
};

/** What the sending of a document written in the portal needs to know of its receiving partner. */
export type PartnerSendingSettings = {
  gln: string;
  /** The linked company's current name, else the name the company gave. */
  name: string;
  /** The platform company the partner is (its documents are delivered on the platform), or null. */
  linkedCompanyId: string | null;
  /** `blocked`: the company refuses exchange with this partner. */
  status: Partner['status'];
  testMode: boolean;
  edifactDirectory: EancomDirectory;
  /** UNB S001 0001: the character set the interchange is written in. */
  syntaxIdentifier: SyntaxIdentifier;
  /** Whether the interchange starts with UNA. */
  una: boolean;
  /** The document types the company sends to the partner. */
  docTypesOut: DocumentTypeCode[];
};

const glnTaken = () => new AppError('partners.gln_taken', { details: [{ field: 'gln', code: 'glnTaken' }] });
const nameRequired = () => new AppError('validation.failed', { details: [{ field: 'name', code: 'required' }] });

const SORT_NAMES: KeyPart = (part) => (PARTNER_SORTS as readonly string[]).includes(part);
const ORDERS: KeyPart = (part) => part === 'asc' || part === 'desc';
const SORT_VALUE: KeyPart = (part) => part.length <= 300;

const LANGUAGE_SET = new Set<string>(LANGUAGES);

export function createPartnersService(deps: {
  db: Db;
  /** Its repository (made on `db` when not given: the job worker builds the service alone). */
  repo?: PartnersRepository;
  audit: AuditService;
  clock: Clock;
  mail: MailService;
  companies: PartnerCompanies;
  /** The partners each restriction of the user names (ids or GLNs), restrictions without partners left out. */
  partnerScopeOf: (userId: string) => Promise<PartnerScope>;
}) {
  const { db, audit, clock, mail, companies } = deps;
  const repo = deps.repo ?? createPartnersRepository(db);

  const inTransaction = <T>(run: (tx: Db) => Promise<T>): Promise<T> =>
    db
      .transaction((tx) => run(tx as unknown as Db))
      .catch((error: unknown) => {
        // Two adds of one GLN at the same moment: the unique index answers like the check.
        if (isUniqueViolation(error)) throw glnTaken();
        throw error;
      });

  /** The partners as the API shows them, linked ones under their company's current name. */
  async function toPartners(rows: readonly PartnerRow[], tx: Db = db): Promise<Partner[]> {
    const linked = rows.flatMap((r) => (r.linkedCompanyId ? [r.linkedCompanyId] : []));
    const names = await companies.namesOf(linked, tx);
    return rows.map((row) => {
      const companyName = row.linkedCompanyId ? names.get(row.linkedCompanyId) : undefined;
      return {
        id: row.id,
        gln: row.gln,
        name: companyName ?? row.name,
        linkedCompany: row.linkedCompanyId && companyName ? { id: row.linkedCompanyId, name: companyName } : null,
        vatId: row.vatId,
        country: row.country,
        contactName: row.contactName,
        contactEmail: row.contactEmail,
        contactPhone: row.contactPhone,
        status: row.status as Partner['status'],
        testMode: row.testMode,
        docTypesIn: row.docTypesIn as Partner['docTypesIn'],
        docTypesOut: row.docTypesOut as Partner['docTypesOut'],
        createdAt: row.createdAt.toISOString(),
        lastExchangeAt: row.lastExchangeAt?.toISOString() ?? null,
      };
    });
  }

  async function toDetail(caller: PartnersCaller, row: PartnerRow, tx: Db = db): Promise<PartnerDetail> {
    const [partner] = await toPartners([row], tx);
    const mayNotify = hasPermission(
      { roles: [], permissions: caller.permissions, toggles: [] },
      'PARTNERS_NOTIFICATIONS',
    );
    return {
      ...partner!,
      // The table's checks hold these to the contract's lists.
      edifactDirectory: row.edifactDirectory as EancomDirectory,
      syntaxIdentifier: row.syntaxIdentifier as SyntaxIdentifier,
      una: row.una,
      ...(mayNotify
        ? {
            notifications: row.notifications.map((n) => ({
              email: n.email,
              language: n.language as (typeof LANGUAGES)[number],
              events: n.events as PartnerEvent[],
            })),
          }
        : {}),
    };
  }

  async function record(
    caller: PartnersCaller,
    companyId: string,
    details: Record<string, unknown>,
    meta: RequestMeta,
    tx: Db,
  ): Promise<void> {
    await audit.record(
      {
        event: 'partners.changed',
        actorUserId: caller.userId,
        companyId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details,
      },
      tx,
    );
  }

  /** A partner the caller may see (company and restrictions), or 404. */
  async function visible(caller: PartnersCaller, id: string, tx: Db = db): Promise<PartnerRow> {
    const row = await repo.find(companyOf(caller), await deps.partnerScopeOf(caller.userId), id, tx);
    if (!row) throw notFound();
    return row;
  }

  /** The stored values of a partner: a linked one keeps its company's name, any other needs a name of its own. */
  function valuesOf(
    input: UpdatePartnerValues,
    linked: { id: string; name: string } | null,
    fallbackName?: string,
  ): PartnerValues {
    const name = linked?.name ?? input.name ?? fallbackName;
    if (!name) throw nameRequired();
    return {
      name,
      linkedCompanyId: linked?.id ?? null,
      vatId: input.vatId,
      country: input.country,
      contactName: input.contactName,
      contactEmail: input.contactEmail,
      contactPhone: input.contactPhone,
      status: input.status,
      testMode: input.testMode,
      edifactDirectory: input.edifactDirectory,
      syntaxIdentifier: input.syntaxIdentifier,
      una: input.una,
      docTypesIn: input.docTypesIn,
      docTypesOut: input.docTypesOut,
    };
  }

  /** The platform company of a GLN, unless it is the caller's own company (a company is not its own partner). */
  async function platformCompany(companyId: string, gln: string, tx?: Db) {
    const found = await companies.findCompanyByGln(gln, tx);
    return found && found.id !== companyId ? found : null;
  }

  return {
    /** What the company keeps of its partners of these GLNs, for the documents' enrichment (the caller checks the toggle). */
    async byGlns(
      companyId: string,
      glns: readonly string[],
      tx?: Db,
    ): Promise<Map<string, { name: string; vatId: string | null; country: string | null }>> {
      const rows = await repo.byGlns(companyId, glns, tx);
      return new Map(rows.map((r) => [r.gln, { name: r.name, vatId: r.vatId, country: r.country }]));
    },

    async list(caller: PartnersCaller, query: PartnersQuery): Promise<PartnersPage> {
      const q = query;
      const companyId = companyOf(caller);
      // The cursor carries its sort, so that a cursor of one order is never read as a position in another.
      const key = decodeCursor(q.cursor, [SORT_NAMES, ORDERS, SORT_VALUE, uuid]);
      if (key && (key[0] !== q.sort || key[1] !== q.order)) {
        throw new AppError('validation.failed', { details: [{ field: 'cursor', code: 'cursor' }] });
      }
      const after = key ? { key: key[2]!, id: key[3]! } : undefined;
      const scope = await deps.partnerScopeOf(caller.userId);
      const filters = { search: q.search, status: q.status, testMode: q.testMode };
      const rows = await repo.list(companyId, scope, filters, { sort: q.sort, direction: q.order }, after, q.limit + 1);
      const page = takePage(rows, q.limit, (r) => [q.sort, q.order, r.sortKey, r.id]);
      return {
        items: await toPartners(page.rows),
        nextCursor: page.nextCursor,
        ...(q.includeTotal ? { total: await repo.count(companyId, scope, filters) } : {}),
      };
    },

    async get(caller: PartnersCaller, id: string): Promise<PartnerDetail> {
      return toDetail(caller, await visible(caller, id));
    },

    /** What adding this GLN would do: the platform company it links to, and the partner it already is. */
    async lookup(caller: PartnersCaller, gln: string): Promise<PartnerLookup> {
      const companyId = companyOf(caller);
      const existing = await repo.findByGln(companyId, gln);
      return { gln, company: await platformCompany(companyId, gln), partnerId: existing?.id ?? null };
    },

    async create(caller: PartnersCaller, input: CreatePartnerValues, meta: RequestMeta): Promise<PartnerDetail> {
      const companyId = companyOf(caller);
      // A user narrowed to some partners adds only those (a GLN their restrictions name); any other would be
      // invisible to them the moment it exists.
      const scope = await deps.partnerScopeOf(caller.userId);
      if (scope.some((list) => !list.includes(input.gln))) throw new AppError('auth.forbidden');
      const linked = await platformCompany(companyId, input.gln);
      return inTransaction(async (tx) => {
        if (await repo.findByGln(companyId, input.gln, tx)) throw glnTaken();
        const row = await repo.insert(companyId, input.gln, valuesOf(input, linked), clock.now(), tx);
        await record(
          caller,
          companyId,
          { change: 'created', partnerId: row.id, gln: row.gln, linkedCompanyId: row.linkedCompanyId },
          meta,
          tx,
        );
        return toDetail(caller, row, tx);
      });
    },

    async update(
      caller: PartnersCaller,
      id: string,
      input: UpdatePartnerValues,
      meta: RequestMeta,
    ): Promise<PartnerDetail> {
      const companyId = companyOf(caller);
      const current = await visible(caller, id);
      // The link is looked at again: a company that joined the platform since is linked now.
      const linked = await platformCompany(companyId, current.gln);
      return inTransaction(async (tx) => {
        const row = await repo.update(companyId, id, valuesOf(input, linked, current.name), clock.now(), tx);
        if (!row) throw notFound();
        await record(caller, companyId, { change: 'updated', partnerId: id, gln: row.gln }, meta, tx);
        return toDetail(caller, row, tx);
      });
    },

    async setNotifications(
      caller: PartnersCaller,
      id: string,
      input: PartnerNotificationsValues,
      meta: RequestMeta,
    ): Promise<PartnerDetail> {
      const companyId = companyOf(caller);
      await visible(caller, id);
      return inTransaction(async (tx) => {
        const row = await repo.setNotifications(companyId, id, input.notifications, clock.now(), tx);
        if (!row) throw notFound();
        await record(
          caller,
          companyId,
          { change: 'notifications', partnerId: id, gln: row.gln, recipients: input.notifications.length },
          meta,
          tx,
        );
        return toDetail(caller, row, tx);
      });
    },

    async remove(caller: PartnersCaller, id: string, meta: RequestMeta): Promise<void> {
      const companyId = companyOf(caller);
      await visible(caller, id);
      await inTransaction(async (tx) => {
        const row = await repo.remove(companyId, id, tx);
        if (!row) throw notFound();
        await record(caller, companyId, { change: 'deleted', partnerId: id, gln: row.gln }, meta, tx);
      });
    },

    /**
     * For the documents: the company's partner of a GLN a document came from or went to. Unknown, it is created with
     * status `new` (linked when the GLN is a platform company's, else named by its GLN until someone names it); known,
     * its last exchange moves to `at` (never back). Pass the document's transaction as `tx`.
     */
    async ensurePartner(
      companyId: string,
      gln: string,
      options: { at?: Date; tx?: Db } = {},
    ): Promise<{ id: string; status: Partner['status']; testMode: boolean; created: boolean }> {
      const at = options.at ?? clock.now();
      const linked = await platformCompany(companyId, gln, options.tx);
      const values: PartnerValues = {
        name: linked?.name ?? gln,
        linkedCompanyId: linked?.id ?? null,
        vatId: null,
        country: null,
        contactName: null,
        contactEmail: null,
        contactPhone: null,
        status: 'new',
        testMode: false,
        ...PARTNER_SENDING_DEFAULTS,
        docTypesIn: [],
        docTypesOut: [],
      };
      const row = await repo.upsertExchange(companyId, gln, values, at, options.tx ?? db);
      if (row.inserted) {
        await audit.record(
          { event: 'partners.changed', companyId, details: { change: 'discovered', partnerId: row.id, gln } },
          options.tx ?? db,
        );
      }
      return { id: row.id, status: row.status as Partner['status'], testMode: row.testMode, created: row.inserted };
    },

    /**
     * For the sending of documents written in the portal: how to write and address an interchange to the company's
     * partner `partnerId`, or null when the company has no such partner. It answers for the company, so no user's
     * restrictions apply; pass the sending transaction as `tx`.
     */
    /**
     * The delivery points of a partner on the platform (its company's), for a document's delivery party; none for a
     * partner off the platform. The partner must be one the caller's restrictions let it see.
     */
    async deliveryPoints(
      caller: PartnersCaller,
      id: string,
      query: { limit: number; search?: string | undefined },
    ): Promise<CompanyLocationPage> {
      const row = await visible(caller, id);
      if (!row.linkedCompanyId) return { items: [], nextCursor: null };
      return companies.locations.list(
        { companyId: row.linkedCompanyId },
        { limit: query.limit, search: query.search, kind: 'delivery_point', includeTotal: false },
      );
    },

    /** The names of the company's partners of these ids (a platform partner's as its company is named now), in one go. */
    async namesOf(companyId: string, ids: readonly string[]): Promise<Map<string, string>> {
      const rows = await repo.findByIds(companyId, ids);
      const shown = await toPartners(rows, db);
      return new Map(shown.map((p) => [p.id, p.name]));
    },

    async sendingSettings(
      companyId: string,
      partnerId: string,
      options: { tx?: Db } = {},
    ): Promise<PartnerSendingSettings | null> {
      const tx = options.tx ?? db;
      const row = await repo.find(companyId, [], partnerId, tx);
      if (!row) return null;
      const [partner] = await toPartners([row], tx);
      return {
        gln: row.gln,
        name: partner!.name,
        linkedCompanyId: row.linkedCompanyId,
        status: partner!.status,
        testMode: row.testMode,
        edifactDirectory: row.edifactDirectory as EancomDirectory,
        syntaxIdentifier: row.syntaxIdentifier as SyntaxIdentifier,
        una: row.una,
        docTypesOut: partner!.docTypesOut,
      };
    },

    /**
     * For the documents: tells the partner's notification recipients of an event, each in their language. Each
     * message is stored and its delivery queued as a job (the mail service's `mail.send`) in `tx` when given, so it
     * goes out exactly when the document's change commits. Returns how many messages were queued.
     */
    async notifyPartnerEvent(
      companyId: string,
      partnerId: string,
      event: PartnerEvent,
      document: PartnerDocumentInfo,
      options: { tx?: Db } = {},
    ): Promise<number> {
      const tx = options.tx ?? db;
      const row = await repo.find(companyId, [], partnerId, tx);
      if (!row) return 0;
      const recipients = row.notifications.filter((n) => n.events.includes(event));
      if (recipients.length === 0) return 0;
      const ids = row.linkedCompanyId ? [companyId, row.linkedCompanyId] : [companyId];
      const names = await companies.namesOf(ids, tx);
      const params = {
        company: names.get(companyId) ?? '',
        partner: (row.linkedCompanyId && names.get(row.linkedCompanyId)) || row.name,
        gln: row.gln,
        documentType: document.documentType,
        number: document.number ?? '-',
        reason: document.reason ?? '-',
      };
      const send = async (t: Db) => {
        for (const recipient of recipients) {
          const language = LANGUAGE_SET.has(recipient.language) ? recipient.language : 'en';
          const tr = emailTranslator(language);
          const text = [
            tr(`partners.${event}.body`, params),
            '',
            `${tr('partners.document')}: ${document.documentType} ${params.number}`,
            ...(event === 'failed' ? [`${tr('partners.reason')}: ${params.reason}`] : []),
            '',
            tr('partners.why'),
            '',
            tr('common.signature'),
          ].join('\n');
          await mail.send(
            {
              kind: `partner_${event}`,
              to: recipient.email,
              subject: tr(`partners.${event}.subject`, params),
              text,
              language,
            },
            { tx: t },
          );
        }
      };
      if (options.tx) await send(options.tx);
      else await db.transaction((t) => send(t as unknown as Db));
      return recipients.length;
    },
  };
}
export type PartnersService = ReturnType<typeof createPartnersService>;
