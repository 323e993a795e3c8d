/**
 * One invoice, online or from a batch: how it is decided and stored when it arrives, and how it is shown (its status
 * by stage, and its metadata as the receiving side and KOD I read it).
 */
import { randomBytes } from 'node:crypto';
import { makeKsefNumber } from '@portal/ksef';
import type { CpuPool } from '../../cpu/pool.ts';
import type { KsefSimStatus, SimInvoiceRow } from './ksef-simulator.repository.ts';
import type { InvoiceFields } from './ksef-simulator.tasks.ts';
import type { SimKeyStore } from './sim-key-store.ts';
import { referenceNumber } from './sim-keys.ts';
import { addMs, FA3, iso, status, type SimBase } from './sim-shared.ts';

const INVOICE_TYPES: Record<string, string> = {
  VAT: 'Vat',
  ZAL: 'Zal',
  KOR: 'Kor',
  ROZ: 'Roz',
  UPR: 'Upr',
  KOR_ZAL: 'KorZal',
  KOR_ROZ: 'KorRoz',
};

function invoiceStage(row: SimInvoiceRow, now: Date): KsefSimStatus & { extensions?: Record<string, string> } {
  if (now < row.processingAt) return status(100, 'Faktura przyjęta do dalszego przetwarzania');
  if (now < row.decidedAt) return status(150, 'Trwa przetwarzanie');
  return row.status;
}

/** An accepted invoice's metadata, as the metadata query and an export's `_metadata.json` give it. */
export function invoiceMetadata(row: SimInvoiceRow) {
  const m = (row.metadata ?? {}) as Partial<InvoiceFields>;
  return {
    ksefNumber: row.ksefNumber ?? '',
    invoiceNumber: row.invoiceNumber ?? '',
    issueDate: row.issueDate ?? '',
    invoicingDate: iso(row.receivedAt),
    acquisitionDate: iso(row.decidedAt),
    permanentStorageDate: iso(row.decidedAt),
    seller: { nip: row.sellerNip ?? '', ...(m.sellerName ? { name: m.sellerName } : {}) },
    buyer: {
      identifier: { type: m.buyer?.type ?? 'None', ...(m.buyer?.value ? { value: m.buyer.value } : {}) },
      ...(m.buyer?.name ? { name: m.buyer.name } : {}),
    },
    netAmount: m.netAmount ?? 0,
    grossAmount: m.grossAmount ?? 0,
    vatAmount: m.vatAmount ?? 0,
    currency: m.currency ?? 'PLN',
    invoicingMode: row.invoicingMode,
    invoiceType: INVOICE_TYPES[row.invoiceType ?? ''] ?? 'Vat',
    formCode: FA3,
    isSelfInvoicing: m.isSelfInvoicing ?? false,
    hasAttachment: false,
    invoiceHash: row.invoiceHash,
  };
}

export function createSimInvoices(deps: SimBase & { cpu: CpuPool; keyStore: SimKeyStore }) {
  const { repo, cpu, log, delay, keyStore } = deps;

  async function invoiceView(row: SimInvoiceRow, now: Date) {
    const stage = invoiceStage(row, now);
    const done = stage.code === 200;
    const meta = (row.metadata ?? {}) as { invoiceNumber?: string };
    const upo = done
      ? await keyStore.presign('upo-invoice', row.sessionReference, row.referenceNumber, now)
      : undefined;
    return {
      ordinalNumber: row.ordinalNumber,
      ...(now >= row.decidedAt && (row.invoiceNumber ?? meta.invoiceNumber)
        ? { invoiceNumber: row.invoiceNumber }
        : {}),
      ...(done && row.ksefNumber ? { ksefNumber: row.ksefNumber } : {}),
      referenceNumber: row.referenceNumber,
      invoiceHash: row.invoiceHash,
      ...(row.invoiceFileName ? { invoiceFileName: row.invoiceFileName } : {}),
      ...(done ? { acquisitionDate: iso(row.decidedAt), permanentStorageDate: iso(row.decidedAt) } : {}),
      invoicingDate: iso(row.receivedAt),
      ...(upo ? { upoDownloadUrl: upo.url, upoDownloadUrlExpirationDate: upo.expirationDate } : {}),
      invoicingMode: row.invoicingMode,
      status: stage,
    };
  }

  /**
   * Decides one received invoice (online or from a batch) and stores it with the times its stages become visible:
   * 435 not decrypted, 450 not UTF-8 or not FA(3)-valid (the XSD on the CPU pool), 410 another seller, 440 a
   * duplicate, else 200 with a KSeF number.
   */
  async function recordInvoice(input: {
    sessionRef: string;
    ordinal: number;
    contextValue: string;
    invoiceHash: string;
    invoicingMode: 'Online' | 'Offline';
    fileName: string | null;
    plain: Buffer | undefined;
    now: Date;
    /** Decided before reading: a file of a batch that is not taken at all. */
    refusal?: KsefSimStatus;
  }): Promise<{ referenceNumber: string }> {
    const { sessionRef, ordinal, plain, now } = input;
    const ref = referenceNumber('EE', now);
    const processingAt = addMs(now, delay);
    const decidedAt = addMs(now, 2 * delay);
    const base = {
      referenceNumber: ref,
      sessionReference: sessionRef,
      ordinalNumber: ordinal,
      invoiceHash: input.invoiceHash,
      invoiceFileName: input.fileName,
      invoicingMode: input.invoicingMode,
      receivedAt: now,
      processingAt,
      decidedAt,
    };
    const reject = async (
      st: KsefSimStatus & { extensions?: Record<string, string> },
      fields?: InvoiceFields,
      xml?: string,
    ) => {
      await repo.insertInvoice({
        ...base,
        status: st,
        accepted: false,
        ...(fields
          ? {
              sellerNip: fields.sellerNip,
              invoiceType: fields.invoiceType,
              invoiceNumber: fields.invoiceNumber,
              issueDate: fields.issueDate,
            }
          : {}),
        plainXml: xml ?? null,
      });
      log.info({ reference: ref, session: sessionRef, status: st.code }, 'KSeF simulator: invoice rejected');
      return { referenceNumber: ref };
    };
    if (input.refusal) return reject(input.refusal);
    if (!plain) return reject(status(435, 'Błąd odszyfrowania pliku'));
    let xml: string;
    try {
      if (plain[0] === 0xef && plain[1] === 0xbb && plain[2] === 0xbf) throw new Error('BOM');
      xml = new TextDecoder('utf-8', { fatal: true }).decode(plain);
    } catch {
      return reject(
        status(450, 'Błąd weryfikacji semantyki dokumentu faktury', ['Dokument musi być w UTF-8 bez BOM.']),
      );
    }
    const checked = await cpu.run({ name: 'ksefSimulator.checkInvoice', xml });
    if (!checked.valid) {
      return reject(status(450, 'Błąd weryfikacji semantyki dokumentu faktury', checked.errors), undefined, xml);
    }
    const fields = checked.fields;
    if (fields.issueDate > iso(decidedAt).slice(0, 10)) {
      return reject(
        status(450, 'Błąd weryfikacji semantyki dokumentu faktury', [
          `Data wystawienia (P_1) ${fields.issueDate} jest późniejsza niż data przyjęcia faktury.`,
        ]),
        fields,
        xml,
      );
    }
    if (fields.sellerNip !== input.contextValue.slice(0, 10)) {
      return reject(
        status(410, 'Nieprawidłowy zakres uprawnień', [
          `NIP sprzedawcy ${fields.sellerNip} różni się od kontekstu ${input.contextValue}.`,
        ]),
        fields,
        xml,
      );
    }
    const duplicate = async () => {
      const original = await repo.findAcceptedDuplicate(fields.sellerNip, fields.invoiceType, fields.invoiceNumber);
      if (!original) return undefined;
      return reject(
        {
          ...status(440, 'Duplikat faktury', [
            `Faktura o numerze ${fields.invoiceNumber} została już przyjęta z numerem KSeF ${original.ksefNumber ?? ''}.`,
          ]),
          extensions: {
            originalKsefNumber: original.ksefNumber ?? '',
            originalSessionReferenceNumber: original.sessionReference,
          },
        },
        fields,
        xml,
      );
    };
    const dup = await duplicate();
    if (dup) return dup;
    const ksefNumber = makeKsefNumber(fields.sellerNip, iso(decidedAt).slice(0, 10), randomBytes(6).toString('hex'));
    const inserted = await repo.insertInvoice({
      ...base,
      status: status(200, 'Sukces'),
      accepted: true,
      ksefNumber,
      sellerNip: fields.sellerNip,
      buyerNip: fields.buyer.type === 'Nip' ? (fields.buyer.value ?? null) : null,
      invoiceType: fields.invoiceType,
      invoiceNumber: fields.invoiceNumber,
      issueDate: fields.issueDate,
      metadata: { ...fields },
      plainXml: xml,
    });
    if (!inserted) {
      // Another request accepted the same (seller, type, number) between the check and the insert.
      const lost = await duplicate();
      if (lost) return lost;
      throw new Error('KSeF simulator: invoice insert conflicted without a duplicate');
    }
    log.info({ reference: ref, session: sessionRef, ksefNumber }, 'KSeF simulator: invoice accepted');
    return { referenceNumber: ref };
  }

  return { recordInvoice, invoiceView };
}

export type RecordInvoice = ReturnType<typeof createSimInvoices>['recordInvoice'];
export type InvoiceView = ReturnType<typeof createSimInvoices>['invoiceView'];
