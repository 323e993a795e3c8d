/**
 * Receiving (NOTES §9): an invoice by its KSeF number, the metadata query, and exports (an encrypted ZIP of the
 * invoices and their `_metadata.json`, prepared when asked for and downloaded from a pre-signed URL); and the KOD I
 * page's look-up of an accepted invoice.
 */
import { PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import { aesEncrypt } from '@portal/ksef';
import { badRequest, KSEF_CODES } from './ksef-errors.ts';
import type { SimInvoiceRow } from './ksef-simulator.repository.ts';
import { invoiceMetadata } from './sim-invoices.ts';
import type { SimKeyStore } from './sim-key-store.ts';
import { referenceNumber, sha256b64 } from './sim-keys.ts';
import {
  addMs,
  ctxOf,
  iso,
  nipOfContext,
  requirePermission,
  status,
  type AccessClaims,
  type EncryptionInfo,
  type SimBase,
} from './sim-shared.ts';

const EXPORT_MAX_INVOICES = 10_000;
const EXPORT_MAX_BYTES = 100 * 1024 * 1024;
const EXPORT_KEEP_SECONDS = 7 * 24 * 3600;

type InvoiceFilters = {
  subjectType: string;
  dateRange: { dateType: string; from: string; to?: string | null | undefined };
};

async function zipOf(files: { name: string; data: Buffer }[]): Promise<Buffer> {
  const zip = new ZipFile();
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  zip.outputStream.pipe(out);
  for (const file of files) zip.addBuffer(file.data, file.name);
  zip.end();
  await done;
  return Buffer.concat(chunks);
}

export function createSimReceiving(deps: SimBase & { keyStore: SimKeyStore }) {
  const { repo, clock, log, delay, keyStore } = deps;

  return {
    // ---------- KOD I ----------
    /**
     * The KOD I page's answer (`/ksef-simulator/invoice/{NIP}/{DD-MM-YYYY}/{SHA-256 Base64URL}`): the accepted
     * invoice of that seller, issue date and hash, with what KSeF's page shows of it before any login (number, KSeF
     * number, date, seller, amounts); undefined when none is known (or not yet decided).
     */
    async verifyInvoice(nip: string, date: string, hashUrl: string) {
      const day = /^(\d{2})-(\d{2})-(\d{4})$/.exec(date);
      if (!/^\d{10}$/.test(nip) || !day || !/^[A-Za-z0-9_-]{43}$/.test(hashUrl)) return undefined;
      const hash = Buffer.from(hashUrl, 'base64url').toString('base64');
      const row = await repo.findAcceptedByHash(nip, hash);
      if (!row || row.issueDate !== `${day[3]}-${day[2]}-${day[1]}` || clock.now() < row.decidedAt) return undefined;
      const m = invoiceMetadata(row);
      return {
        ksefNumber: m.ksefNumber,
        invoiceNumber: m.invoiceNumber,
        issueDate: m.issueDate,
        acquisitionDate: m.acquisitionDate,
        seller: m.seller,
        buyer: m.buyer,
        grossAmount: m.grossAmount,
        currency: m.currency,
      };
    },

    // ---------- receiving ----------
    async invoiceByKsefNumber(caller: AccessClaims, ksefNumber: string) {
      requirePermission(caller, 'InvoiceRead');
      const row = await repo.findInvoiceByKsefNumber(ksefNumber);
      const nip = nipOfContext(caller.context);
      if (!row || !row.accepted || (row.sellerNip !== nip && row.buyerNip !== nip)) {
        throw badRequest(KSEF_CODES.invoiceNotFound, 'Faktura o podanym numerze KSeF nie istnieje.');
      }
      if (clock.now() < row.decidedAt)
        throw badRequest(KSEF_CODES.notYetAvailable, 'Faktura nie jest jeszcze dostępna.');
      const xml = (await repo.invoiceXmls([row.referenceNumber])).get(row.referenceNumber) ?? '';
      return { xml, hash: sha256b64(Buffer.from(xml, 'utf8')) };
    },

    async queryMetadata(
      caller: AccessClaims,
      filters: InvoiceFilters,
      page: { pageOffset: number; pageSize: number; sortOrder: 'Asc' | 'Desc' },
    ) {
      requirePermission(caller, 'InvoiceRead');
      const now = clock.now();
      const side =
        filters.subjectType === 'Subject1' ? 'seller' : filters.subjectType === 'Subject2' ? 'buyer' : undefined;
      if (!side) return { hasMore: false, isTruncated: false, permanentStorageHwmDate: iso(now), invoices: [] };
      const from = new Date(filters.dateRange.from);
      const toAsked = filters.dateRange.to ? new Date(filters.dateRange.to) : now;
      const to = toAsked < now ? toAsked : now;
      const offset = page.pageOffset * page.pageSize;
      const rows = await repo.listReceivable(
        { side, nip: nipOfContext(caller.context), from, to },
        page.pageSize + 1,
        offset,
        page.sortOrder === 'Desc' ? 'desc' : 'asc',
      );
      return {
        hasMore: rows.length > page.pageSize,
        isTruncated: offset + page.pageSize >= 10_000 && rows.length > page.pageSize,
        permanentStorageHwmDate: iso(now),
        invoices: rows.slice(0, page.pageSize).map(invoiceMetadata),
      };
    },

    async createExport(
      caller: AccessClaims,
      body: {
        encryption: EncryptionInfo;
        onlyMetadata?: boolean | undefined;
        filters: InvoiceFilters;
      },
    ) {
      requirePermission(caller, 'InvoiceRead');
      const now = clock.now();
      if ((await repo.countRunningExports(ctxOf(caller), now)) >= 10) {
        throw badRequest(KSEF_CODES.concurrentExports, 'Przekroczono limit równoczesnych eksportów.');
      }
      const { key, iv } = await keyStore.unwrapKey(body.encryption);
      const ref = referenceNumber('EH', now);
      const base = {
        referenceNumber: ref,
        contextType: caller.context.type,
        contextValue: caller.context.value,
        createdAt: now,
        readyAt: addMs(now, delay),
        expiresAt: addMs(now, EXPORT_KEEP_SECONDS * 1000),
      };
      if (!key) {
        await repo.insertExport({ ...base, status: status(415, 'Błąd odszyfrowania dostarczonego klucza') });
        return { referenceNumber: ref };
      }
      const side =
        body.filters.subjectType === 'Subject1'
          ? 'seller'
          : body.filters.subjectType === 'Subject2'
            ? 'buyer'
            : undefined;
      const from = new Date(body.filters.dateRange.from);
      const toAsked = body.filters.dateRange.to ? new Date(body.filters.dateRange.to) : now;
      const to = toAsked < now ? toAsked : now;
      const rows = side
        ? await repo.listReceivable({ side, nip: nipOfContext(caller.context), from, to }, EXPORT_MAX_INVOICES + 1, 0)
        : [];
      const files: { name: string; data: Buffer }[] = [];
      const included: SimInvoiceRow[] = [];
      let bytes = 0;
      let truncated = rows.length > EXPORT_MAX_INVOICES;
      const candidates = rows.slice(0, EXPORT_MAX_INVOICES);
      // The documents are read 100 at a time, up to the package's byte cap.
      let full = false;
      for (let start = 0; start < candidates.length && !full; start += 100) {
        const chunk = candidates.slice(start, start + 100);
        const xmls = body.onlyMetadata
          ? new Map<string, string>()
          : await repo.invoiceXmls(chunk.map((r) => r.referenceNumber));
        for (const row of chunk) {
          const data = Buffer.from(xmls.get(row.referenceNumber) ?? '', 'utf8');
          if (bytes + data.length > EXPORT_MAX_BYTES) {
            truncated = true;
            full = true;
            break;
          }
          bytes += data.length;
          included.push(row);
          if (!body.onlyMetadata) files.push({ name: `${row.ksefNumber ?? row.referenceNumber}.xml`, data });
        }
      }
      files.push({
        name: '_metadata.json',
        data: Buffer.from(JSON.stringify({ invoices: included.map(invoiceMetadata) }), 'utf8'),
      });
      const zip = await zipOf(files);
      const content = aesEncrypt(zip, key, iv);
      const last = included.at(-1);
      const pkg = {
        invoiceCount: included.length,
        size: zip.length,
        parts: [
          {
            ordinalNumber: 1,
            partName: `${ref}-001.zip.aes`,
            method: 'GET',
            partSize: zip.length,
            partHash: sha256b64(zip),
            encryptedPartSize: content.length,
            encryptedPartHash: sha256b64(content),
          },
        ],
        isTruncated: truncated,
        ...(last
          ? {
              lastIssueDate: last.issueDate,
              lastInvoicingDate: iso(last.receivedAt),
              lastPermanentStorageDate: iso(last.decidedAt),
            }
          : {}),
        permanentStorageHwmDate: iso(to),
      };
      await repo.insertExport({
        ...base,
        status: status(200, 'Eksport faktur zakończony sukcesem'),
        package: pkg,
        content,
      });
      log.info(
        { reference: ref, context: caller.context.value, invoices: included.length },
        'KSeF simulator: export prepared',
      );
      return { referenceNumber: ref };
    },

    async exportStatus(caller: AccessClaims, reference: string) {
      requirePermission(caller, 'InvoiceRead');
      const row = await repo.findExport(reference);
      if (!row || row.contextType !== caller.context.type || row.contextValue !== caller.context.value) {
        throw badRequest(KSEF_CODES.inputValidation, 'Eksport o podanym numerze referencyjnym nie istnieje.');
      }
      const now = clock.now();
      if (now < row.readyAt) return { status: status(100, 'Eksport faktur w toku') };
      if (now > row.expiresAt) return { status: status(210, 'Eksport wygasł') };
      if (row.status.code !== 200 || !row.package) return { status: row.status };
      const pkg = row.package as { parts: Record<string, unknown>[] } & Record<string, unknown>;
      const parts = [];
      for (const part of pkg.parts) {
        const url = await keyStore.presign('export', row.referenceNumber, String(part.ordinalNumber), now);
        parts.push({ ...part, url: url.url, expirationDate: url.expirationDate });
      }
      return {
        status: row.status,
        completedDate: iso(row.readyAt),
        packageExpirationDate: iso(row.expiresAt),
        package: { ...pkg, parts },
      };
    },

    async presignedExportPart(reference: string, part: string, se: string, sig: string) {
      await keyStore.checkPresigned('export', reference, part, se, sig);
      const row = await repo.findExport(reference);
      if (!row?.content || part !== '1') throw badRequest(KSEF_CODES.inputValidation, 'Część eksportu nie istnieje.');
      return { bytes: Buffer.from(row.content), hash: sha256b64(row.content) };
    },
  };
}
