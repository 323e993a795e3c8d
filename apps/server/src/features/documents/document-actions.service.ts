import { finished } from 'node:stream/promises';
import { PassThrough, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { ZipFile } from 'yazl';
import {
  DOCUMENT_EXPORT_MAX_ROWS,
  DOCUMENT_ZIP_MAX_BYTES,
  hasPermission,
  type DocumentColumn,
  type DocumentDirection,
  type DocumentExportQuery,
  type DocumentStatusChangeSchema,
  type DocumentStatusChangeResponse,
  type FeaturePermission,
  type Principal,
} from '@portal/contracts';
import type { z } from 'zod';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import { documentReaderOf, READ_PERMISSION, type DocumentReader } from '../../access/document-scope.ts';
import { AppError, forbidden, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { exportCell } from '../../lib/spreadsheet-cell.ts';
import { catalogTranslator, type Translate } from '../../lib/catalog-text.ts';
import { createDocumentsRepository, type DocumentListRow, type NewHistory } from './documents.repository.ts';
import type { DocumentsCaller, DocumentsService } from './documents.service.ts';

/** Changing a document's statuses takes inbox modify for an inbox document, outbox modify for an outbox one. */
const MODIFY_PERMISSION: Record<DocumentDirection, FeaturePermission> = { in: 'INBOX_MODIFY', out: 'OUTBOX_MODIFY' };
/** Rows an export reads from the database at a time. */
const EXPORT_PAGE = 500;

export type ActionsCaller = DocumentsCaller & { language: string };

const can = (permissions: Principal['permissions'], permission: FeaturePermission) =>
  hasPermission({ roles: [], permissions, toggles: [] }, permission);

/** `name.edi`, `name (2).edi`, … : every entry of a zip once. */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Each column's cell of an export row, in the user's language; dates as ISO days, the timestamp in UTC. */
function cellOf(column: DocumentColumn, row: DocumentListRow, t: Translate): string | null {
  switch (column) {
    case 'DocumentNumber':
      return row.number;
    case 'DocumentReferenceNumber':
      return row.referenceNumber;
    case 'DocumentType':
      return t(`kind.${row.kind}`);
    case 'Direction':
      return t(`direction.${row.direction}`);
    case 'PartnerName':
      return row.partnerName ?? row.partnerGln;
    case 'DeliveryPoint':
      return row.deliveryPointName;
    case 'DeliveryPointIln':
      return row.deliveryPointGln;
    case 'ExpectedDeliveryDate':
      return row.expectedDeliveryDate;
    case 'DocumentBusinessDate':
      return row.businessDate;
    case 'WebDocumentTimeStamp':
      return row.platformTimestamp.toISOString();
    case 'Status':
      return t(`status.${row.status}`);
    case 'ProcessingStatus':
      return t(`processingStatus.${row.processingStatus}`);
    case 'BusinessStatus':
      return row.businessStatus ? t(`businessStatus.${row.businessStatus}`) : null;
    case 'AdditionalStatus':
      return row.additionalStatus ? t(`additionalStatus.${row.additionalStatus}`) : null;
    case 'Standard':
      return t(`standard.${row.standard}`);
    case 'Version':
      return row.version;
    case 'TestOut':
      return row.test ? t('yes') : t('no');
    case 'KsefNumber':
      // Sent (accepted by KSeF) and received KSeF invoices alike.
      return row.ksefNumber;
  }
}

export type DocumentExport =
  { format: 'csv'; fileName: string; body: Readable } | { format: 'xlsx'; fileName: string; body: Uint8Array };

/**
 * What users do with documents of the lists (issue 11, part 3): change their read and additional statuses, one or
 * many at once, each change a history row in the same transaction; download the originals of a selection as one zip;
 * export a list or a selection as CSV or XLSX. Every id goes through the document access scope (decision 0010): when
 * one of the ids is not the reader's, the whole request is 404 and nothing changes, so an id of another company or
 * outside a restriction answers exactly as an id that does not exist.
 */
export function createDocumentActionsService(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  documents: Pick<DocumentsService, 'original'>;
}) {
  const { db, clock, cpu } = deps;
  const repo = createDocumentsRepository(db);
  const readerOf = (caller: DocumentsCaller): Promise<DocumentReader> => documentReaderOf(db, caller);

  return {
    async changeStatus(
      caller: DocumentsCaller,
      change: z.output<typeof DocumentStatusChangeSchema>,
    ): Promise<DocumentStatusChangeResponse> {
      // A caller who may change nothing learns nothing of the ids.
      if (!can(caller.permissions, 'INBOX_MODIFY') && !can(caller.permissions, 'OUTBOX_MODIFY')) throw forbidden();
      const reader = await readerOf(caller);
      const at = clock.now();
      return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const rows = await repo.lockVisible(reader, change.ids, tx);
        if (rows.length !== change.ids.length) throw notFound();
        if (rows.some((r) => !can(caller.permissions, MODIFY_PERMISSION[r.direction as DocumentDirection]))) {
          throw forbidden();
        }
        if (change.read !== undefined && rows.some((r) => r.direction !== 'in')) {
          throw new AppError('documents.status_not_applicable', { details: [{ field: 'read', code: 'inboxOnly' }] });
        }
        const history: NewHistory[] = [];
        const changed: string[] = [];
        for (const row of rows) {
          const values: { status?: string; additionalStatus?: string | null } = {};
          const entry = { documentId: row.id, userId: caller.userId, at, reason: change.reason ?? null };
          // Read and unread move between Received and Read only: a document in error stays in error.
          const status =
            change.read === true && row.status === 'received'
              ? 'read'
              : change.read === false && row.status === 'read'
                ? 'received'
                : undefined;
          if (status) {
            values.status = status;
            history.push({ ...entry, field: 'status', fromValue: row.status, toValue: status });
          }
          if (change.additionalStatus !== undefined && change.additionalStatus !== row.additionalStatus) {
            values.additionalStatus = change.additionalStatus;
            history.push({
              ...entry,
              field: 'additionalStatus',
              fromValue: row.additionalStatus,
              toValue: change.additionalStatus,
            });
          }
          if (Object.keys(values).length === 0) continue;
          await repo.setStatus(row.id, values, tx);
          changed.push(row.id);
        }
        await repo.insertHistory(history, tx);
        return { changed };
      });
    },

    /**
     * The originals of the selection as one zip, streamed: each original is read from the store only when the zip
     * reaches it (one at a time), deflated by zlib off the event loop, and written out as the client takes it, so
     * memory holds one chunk of one original, whatever the selection (decision 0025). Entries are named as a single
     * download names the original, made unique.
     */
    async zip(caller: DocumentsCaller, ids: readonly string[]): Promise<Readable> {
      const reader = await readerOf(caller);
      const sizes = await repo.originalSizes(reader, ids);
      if (sizes.length !== ids.length) throw notFound();
      const total = sizes.reduce((sum, s) => sum + Number(s.size), 0);
      if (total > DOCUMENT_ZIP_MAX_BYTES) {
        throw new AppError('documents.zip_too_large', {
          details: [{ field: 'ids', code: 'zipTooLarge', params: { max: DOCUMENT_ZIP_MAX_BYTES } }],
          data: { maxBytes: DOCUMENT_ZIP_MAX_BYTES, bytes: total },
        });
      }
      // The first original is opened before answering: a failure there is an error answer, not a broken download.
      const first = await deps.documents.original(caller, ids[0]!);
      const zip = new ZipFile();
      const out = new PassThrough();
      zip.outputStream.pipe(out);
      zip.outputStream.on('error', (error) => out.destroy(error));
      const taken = new Set<string>();
      let current: Readable | undefined;
      let closed = false;
      // A client that goes away stops the reading of the original in hand and of the ones after it.
      out.on('close', () => {
        closed = true;
        current?.destroy();
      });
      void (async () => {
        let next: Awaited<ReturnType<typeof deps.documents.original>> | undefined = first;
        for (let i = 0; i < ids.length && !closed; i++) {
          const original = next ?? (await deps.documents.original(caller, ids[i]!));
          next = undefined;
          // A converted original is bytes in memory: a byte stream of them (Readable.from alone would make an
          // object-mode stream, which the zip never reads to its end).
          const body = original.body;
          current =
            body instanceof Readable
              ? body
              : body instanceof Uint8Array
                ? Readable.from([Buffer.from(body.buffer, body.byteOffset, body.length)], { objectMode: false })
                : Readable.from(body, { objectMode: false });
          zip.addReadStream(current, uniqueName(original.fileName, taken), { mtime: clock.now() });
          await finished(current);
        }
        zip.end();
      })().catch((error: unknown) => {
        current?.destroy();
        out.destroy(error as Error);
      });
      return out;
    },

    /**
     * The list (its filters and sort) or the selected documents of it, with the user's columns in their order and
     * headers in the user's language. CSV (UTF-8 with a BOM, cells a spreadsheet would run as formulas quoted) is
     * streamed page by page; XLSX is built on the CPU pool from at most DOCUMENT_EXPORT_MAX_ROWS rows. A filter
     * matching more rows than that is refused rather than cut short.
     */
    async export(caller: ActionsCaller, query: DocumentExportQuery): Promise<DocumentExport> {
      const reader = await readerOf(caller);
      if (!can(reader.permissions, READ_PERMISSION[query.direction])) throw forbidden();
      const { format, columns, ids, sort, order, language, ...filters } = query;
      const t = catalogTranslator('documents', language ?? caller.language);
      const header = columns.map((c) => t(`columns.${c}`));
      const sortOrder = { sort, direction: order };
      let rows: AsyncIterable<DocumentListRow[]>;
      if (ids) {
        const selected = await repo.listByIds(reader, query.direction, ids, sortOrder);
        if (selected.length !== ids.length) throw notFound();
        rows = (async function* () {
          yield selected;
        })();
      } else {
        const total = await repo.count(reader, filters);
        if (total > DOCUMENT_EXPORT_MAX_ROWS) {
          throw new AppError('documents.export_too_large', {
            details: [{ field: 'filters', code: 'exportTooLarge', params: { max: DOCUMENT_EXPORT_MAX_ROWS } }],
            data: { max: DOCUMENT_EXPORT_MAX_ROWS, total },
          });
        }
        rows = (async function* () {
          let after: { key: string; id: string } | undefined;
          let left = DOCUMENT_EXPORT_MAX_ROWS;
          while (left > 0) {
            const page = await repo.list(reader, filters, sortOrder, after, Math.min(EXPORT_PAGE, left));
            if (page.length === 0) return;
            yield page;
            left -= page.length;
            if (page.length < EXPORT_PAGE) return;
            const last = page.at(-1)!;
            after = { key: last.sortKey, id: last.id };
          }
        })();
      }
      const stamp = clock.now().toISOString().slice(0, 10);
      const fileName = `${query.direction === 'in' ? 'inbox' : 'outbox'}-${stamp}.${format}`;
      if (format === 'xlsx') {
        const cells: (string | null)[][] = [];
        for await (const page of rows) for (const row of page) cells.push(columns.map((c) => cellOf(c, row, t)));
        const body = await cpu.run({ name: 'documents.xlsx', header, rows: cells });
        return { format, fileName, body };
      }
      const records = Readable.from(
        (async function* () {
          yield header.map(exportCell);
          for await (const page of rows) {
            for (const row of page) yield columns.map((c) => exportCell(cellOf(c, row, t)));
          }
        })(),
      );
      const csv = records.pipe(stringify({ bom: true, record_delimiter: 'windows' }));
      // A database failure mid-stream ends the download short rather than leaving the socket open.
      records.on('error', (error) => csv.destroy(error));
      return { format, fileName, body: csv };
    },
  };
}
export type DocumentActionsService = ReturnType<typeof createDocumentActionsService>;
