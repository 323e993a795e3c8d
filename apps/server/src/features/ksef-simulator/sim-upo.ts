/**
 * UPOs (NOTES §6) in the form of `upo-v4-3.xsd`, per invoice and per session page. `NazwaPodmiotuPrzyjmujacego` is
 * fixed by the schema to "Ministerstwo Finansów", so the simulator names itself in a comment before the root and in
 * its signing certificate instead (TEST's own wording fails the schema, see PROVENANCE.md). The enveloped signature
 * is appended by the caller; the schema has no place for it, so a UPO is XSD-checked without its `ds:Signature`.
 */
import { createHash } from 'node:crypto';

export type UpoDocument = {
  sellerNip: string;
  ksefNumber: string;
  invoiceNumber: string;
  issueDate: string;
  receivedAt: Date;
  acquiredAt: Date;
  invoiceHash: string;
  invoicingMode: 'Online' | 'Offline';
};

export type UpoInput = {
  sessionReference: string;
  context: { type: string; value: string };
  /** `NumerReferencyjnyTokenaKSeF` for a token login, else the hash of the signed AuthTokenRequest. */
  tokenReference: string | null;
  authDocumentHash: string | null;
  documents: UpoDocument[];
  /** Present for a session UPO page. */
  page?: { number: number; pages: number; from: number; to: number; total: number };
};

const CONTEXT_ELEMENT: Record<string, string> = {
  Nip: 'Nip',
  InternalId: 'IdWewnetrzny',
  NipVatUe: 'IdZlozonyVatUE',
  PeppolId: 'IdDostawcyUslugPeppol',
};

const esc = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export function buildUpo(input: UpoInput): string {
  const contextName = CONTEXT_ELEMENT[input.context.type] ?? 'Nip';
  const auth = input.tokenReference
    ? `<NumerReferencyjnyTokenaKSeF>${esc(input.tokenReference)}</NumerReferencyjnyTokenaKSeF>`
    : `<SkrotDokumentuUwierzytelniajacego>${esc(input.authDocumentHash ?? '')}</SkrotDokumentuUwierzytelniajacego>`;
  const page = input.page
    ? `<OpisPotwierdzenia><Strona>${input.page.number}</Strona><LiczbaStron>${input.page.pages}</LiczbaStron>` +
      `<ZakresDokumentowOd>${input.page.from}</ZakresDokumentowOd><ZakresDokumentowDo>${input.page.to}</ZakresDokumentowDo>` +
      `<CalkowitaLiczbaDokumentow>${input.page.total}</CalkowitaLiczbaDokumentow></OpisPotwierdzenia>`
    : '';
  const documents = input.documents
    .map(
      (d) =>
        `<Dokument><NipSprzedawcy>${esc(d.sellerNip)}</NipSprzedawcy><NumerKSeFDokumentu>${esc(d.ksefNumber)}</NumerKSeFDokumentu>` +
        `<NumerFaktury>${esc(d.invoiceNumber)}</NumerFaktury><DataWystawieniaFaktury>${esc(d.issueDate)}</DataWystawieniaFaktury>` +
        `<DataPrzeslaniaDokumentu>${d.receivedAt.toISOString()}</DataPrzeslaniaDokumentu>` +
        `<DataNadaniaNumeruKSeF>${d.acquiredAt.toISOString()}</DataNadaniaNumeruKSeF>` +
        `<SkrotDokumentu>${esc(d.invoiceHash)}</SkrotDokumentu><TrybWysylki>${d.invoicingMode}</TrybWysylki></Dokument>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<!-- KSeF simulator of the Open EDI Portal: NOT an official receipt of the Ministry of Finance. -->\n' +
    '<Potwierdzenie xmlns="http://upo.schematy.mf.gov.pl/KSeF/v4-3">' +
    '<NazwaPodmiotuPrzyjmujacego>Ministerstwo Finansów</NazwaPodmiotuPrzyjmujacego>' +
    `<NumerReferencyjnySesji>${esc(input.sessionReference)}</NumerReferencyjnySesji>` +
    `<Uwierzytelnienie><IdKontekstu><${contextName}>${esc(input.context.value)}</${contextName}></IdKontekstu>${auth}</Uwierzytelnienie>` +
    page +
    '<NazwaStrukturyLogicznej>Schemat_FA(3)_v1-0E.xsd</NazwaStrukturyLogicznej><KodFormularza>FA (3)</KodFormularza>' +
    documents +
    '</Potwierdzenie>'
  );
}

/** UPO page references are derived from the session's, so they are stable without being stored. */
export const upoPageReference = (sessionReference: string, page: number) => {
  const hex = createHash('sha256').update(`${sessionReference}|${page}`).digest('hex').toUpperCase().slice(0, 20);
  const date = sessionReference.slice(0, 8);
  const body = `${date}-EU-${hex.slice(0, 10)}-${hex.slice(10)}`;
  return `${body}-${createHash('sha256').update(body).digest('hex').slice(0, 2).toUpperCase()}`;
};
