/**
 * The simulator's check of one received invoice, on the CPU pool (its time limit applies): the FA(3) XSD
 * (libxml2 in WebAssembly, about 100 ms an invoice) and then the fields the simulator keeps, read by `parseFa3`.
 * A user's mistake is a value (`valid: false` with the reasons), as every task of the pool reports it.
 */
import { Fa3ParseError, parseFa3, validateFa3 } from '@portal/ksef';

export type CheckInvoiceTask = { xml: string };

/** What the simulator keeps of an accepted invoice (InvoiceMetadata's sources). */
export type InvoiceFields = {
  sellerNip: string;
  sellerName: string;
  buyer: { type: 'Nip' | 'VatUe' | 'Other' | 'None'; value?: string; name?: string };
  invoiceType: string;
  invoiceNumber: string;
  issueDate: string;
  currency: string;
  netAmount: number;
  vatAmount: number;
  grossAmount: number;
  isSelfInvoicing: boolean;
};

export type CheckInvoiceResult = { valid: true; fields: InvoiceFields } | { valid: false; errors: string[] };

const NET_FIELDS = [
  'P_13_1',
  'P_13_2',
  'P_13_3',
  'P_13_4',
  'P_13_5',
  'P_13_6_1',
  'P_13_6_2',
  'P_13_6_3',
  'P_13_7',
  'P_13_8',
  'P_13_9',
  'P_13_10',
  'P_13_11',
] as const;
const VAT_FIELDS = ['P_14_1', 'P_14_2', 'P_14_3', 'P_14_4', 'P_14_5'] as const;

const sum = (values: (string | undefined)[]): number =>
  Math.round(values.reduce((total, v) => total + (v ? Number(v) : 0), 0) * 100) / 100;

export async function checkInvoiceTask({ xml }: CheckInvoiceTask): Promise<CheckInvoiceResult> {
  const xsd = await validateFa3(xml);
  if (!xsd.valid) {
    return {
      valid: false,
      errors: xsd.errors.slice(0, 20).map((e) => (e.line ? `Linia ${e.line}: ${e.message}` : e.message)),
    };
  }
  try {
    const invoice = parseFa3(xml);
    const id = invoice.buyer.id;
    const buyer: InvoiceFields['buyer'] =
      id.type === 'nip'
        ? { type: 'Nip', value: id.nip }
        : id.type === 'eu'
          ? { type: 'VatUe', value: `${id.countryCode}${id.vatNumber}` }
          : id.type === 'other' || id.type === 'internal'
            ? { type: 'Other', value: id.id }
            : { type: 'None' };
    if (invoice.buyer.name) buyer.name = invoice.buyer.name;
    const summary = invoice.summary ?? {};
    return {
      valid: true,
      fields: {
        sellerNip: invoice.seller.nip,
        sellerName: invoice.seller.name,
        buyer,
        invoiceType: invoice.kind,
        invoiceNumber: invoice.number,
        issueDate: invoice.issueDate,
        currency: invoice.currency,
        netAmount: sum(NET_FIELDS.map((f) => summary[f])),
        vatAmount: sum(VAT_FIELDS.map((f) => summary[f])),
        grossAmount: sum([summary.P_15]),
        isSelfInvoicing: invoice.annotations.selfBilling === '1',
      },
    };
  } catch (error) {
    if (error instanceof Fa3ParseError) return { valid: false, errors: [error.message] };
    throw error;
  }
}
