/**
 * The FA(3) parser for received invoices: XML to {@link KsefInvoice}. Input is untrusted, so before parsing it is
 * held to a size cap, refused with NUL bytes, a DOCTYPE or an entity declaration (no entity expansion can happen),
 * and checked to be well-formed. fast-xml-parser then reads it with namespace prefixes removed and every value kept
 * as a string; repeated elements are always lists. Elements the model does not hold are skipped (see model.ts).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  KsefInvoiceSchema,
  type Address,
  type Contact,
  type KsefInvoice,
  type PartyId,
  type Summary,
} from './model.ts';
import { NEW_TRANSPORT_FIELDS, SUMMARY_FIELDS } from './model.ts';

/** The largest invoice accepted (KSeF itself takes ≤ 1 MB, 3 MB with attachments). */
export const MAX_FA3_BYTES = 10 * 1024 * 1024;

export const FA3_PARSE_ERROR_CODES = [
  'ksef.fa3.too_large',
  'ksef.fa3.not_utf8',
  'ksef.fa3.nul_byte',
  'ksef.fa3.doctype',
  'ksef.fa3.not_well_formed',
  'ksef.fa3.not_fa3',
  'ksef.fa3.invalid',
] as const;
export type Fa3ParseErrorCode = (typeof FA3_PARSE_ERROR_CODES)[number];

/** Why an XML is not a readable FA(3) invoice; `code` is stable, `message` for logs. */
export class Fa3ParseError extends Error {
  constructor(
    readonly code: Fa3ParseErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'Fa3ParseError';
  }
}

const REPEATED = new Set([
  'NowySrodekTransportu',
  'DaneKontaktowe',
  'Podmiot3',
  'WZ',
  'DaneFaKorygowanej',
  'Podmiot2K',
  'ZaliczkaCzesciowa',
  'DodatkowyOpis',
  'FakturaZaliczkowa',
  'FaWiersz',
  'Obciazenia',
  'Odliczenia',
  'ZaplataCzesciowa',
  'TerminPlatnosci',
  'RachunekBankowy',
  'RachunekBankowyFaktora',
  'Umowy',
  'Zamowienia',
  'NrPartiiTowaru',
  'Transport',
  'ZamowienieWiersz',
  'Informacje',
  'Rejestry',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Entities are decoded below in one pass (the five predefined ones and character references), never expanded.
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => REPEATED.has(name),
});

type Node = Record<string, unknown>;

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;
/** A `&` that does not start one of those references: an undeclared entity or a bare ampersand. */
const STRAY_AMPERSAND = /&(?!(?:#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);)/;

const decode = (value: string): string =>
  value.replace(REFERENCE, (_, ref: string) => {
    if (!ref.startsWith('#')) return PREDEFINED[ref] ?? '';
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    if (code === 0 || code > 0x10ffff) throw new Fa3ParseError('ksef.fa3.not_well_formed', `bad character &${ref};`);
    return String.fromCodePoint(code);
  });

/** Decodes every string of the parsed tree, once. */
const decodeTree = (value: unknown): unknown => {
  if (typeof value === 'string') return decode(value);
  if (Array.isArray(value)) return value.map(decodeTree);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeTree(v)]));
  }
  return value;
};

const obj = (value: unknown): Node | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : undefined;
const list = (value: unknown): Node[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => obj(v) ?? {});
/** The text of a child: a plain value, or `#text` of an element with attributes. */
const text = (node: Node | undefined, name: string): string | undefined => {
  const value = node?.[name];
  if (typeof value === 'string') return value;
  const inner = obj(value)?.['#text'];
  return typeof inner === 'string' ? inner : undefined;
};
const texts = (node: Node | undefined, name: string): string[] => {
  const value = node?.[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is string => typeof v === 'string',
  );
};
const yes = (node: Node | undefined, name: string): boolean | undefined =>
  text(node, name) === '1' ? true : undefined;
/** Copies the named optional children into an object, dropping absent ones. */
const pick = <K extends string>(node: Node | undefined, fields: Record<K, string>): Partial<Record<K, string>> => {
  const out: Partial<Record<K, string>> = {};
  for (const [key, name] of Object.entries(fields) as [K, string][]) {
    const value = text(node, name);
    if (value !== undefined) out[key] = value;
  }
  return out;
};

const address = (node: Node | undefined): Address | undefined =>
  node && {
    countryCode: text(node, 'KodKraju') ?? '',
    line1: text(node, 'AdresL1') ?? '',
    ...pick(node, { line2: 'AdresL2', gln: 'GLN' }),
  };

const contacts = (node: Node | undefined): Contact[] =>
  list(node?.DaneKontaktowe).map((c) => pick(c, { email: 'Email', phone: 'Telefon' }));

const partyId = (node: Node | undefined): PartyId => {
  if (text(node, 'NIP')) return { type: 'nip', nip: text(node, 'NIP') ?? '' };
  if (text(node, 'NrVatUE'))
    return { type: 'eu', countryCode: text(node, 'KodUE') ?? '', vatNumber: text(node, 'NrVatUE') ?? '' };
  if (text(node, 'NrID') !== undefined)
    return { type: 'other', id: text(node, 'NrID') ?? '', ...pick(node, { countryCode: 'KodKraju' }) };
  if (text(node, 'IDWew')) return { type: 'internal', id: text(node, 'IDWew') ?? '' };
  return { type: 'none' };
};

const LINE_FIELDS = {
  lineNumber: 'NrWierszaFa',
  uuid: 'UU_ID',
  saleDate: 'P_6A',
  name: 'P_7',
  itemIndex: 'Indeks',
  gtin: 'GTIN',
  pkwiu: 'PKWiU',
  cn: 'CN',
  pkob: 'PKOB',
  unit: 'P_8A',
  quantity: 'P_8B',
  netUnitPrice: 'P_9A',
  grossUnitPrice: 'P_9B',
  discount: 'P_10',
  netValue: 'P_11',
  grossValue: 'P_11A',
  vatValue: 'P_11Vat',
  vatRate: 'P_12',
  ossRate: 'P_12_XII',
  exciseAmount: 'KwotaAkcyzy',
  gtu: 'GTU',
  procedure: 'Procedura',
  exchangeRate: 'KursWaluty',
} as const;

const ORDER_LINE_FIELDS = {
  lineNumber: 'NrWierszaZam',
  uuid: 'UU_IDZ',
  name: 'P_7Z',
  itemIndex: 'IndeksZ',
  gtin: 'GTINZ',
  pkwiu: 'PKWiUZ',
  cn: 'CNZ',
  pkob: 'PKOBZ',
  unit: 'P_8AZ',
  quantity: 'P_8BZ',
  netUnitPrice: 'P_9AZ',
  netValue: 'P_11NettoZ',
  vatValue: 'P_11VatZ',
  vatRate: 'P_12Z',
  ossRate: 'P_12Z_XII',
  gtu: 'GTUZ',
  procedure: 'ProceduraZ',
  exciseAmount: 'KwotaAkcyzyZ',
} as const;

const bankAccounts = (value: unknown) =>
  list(value).map((a) => ({
    number: text(a, 'NrRB') ?? '',
    ...pick(a, {
      swift: 'SWIFT',
      ownBankAccount: 'RachunekWlasnyBanku',
      bankName: 'NazwaBanku',
      description: 'OpisRachunku',
    }),
  }));

/** Refuses what must never reach the XML parser. */
function screen(xml: string | Uint8Array): string {
  const size = typeof xml === 'string' ? Buffer.byteLength(xml, 'utf8') : xml.length;
  if (size > MAX_FA3_BYTES) throw new Fa3ParseError('ksef.fa3.too_large', `larger than ${MAX_FA3_BYTES} bytes`);
  let source: string;
  try {
    // A BOM is dropped (KSeF refuses one on sending; a received file may still carry it).
    source =
      typeof xml === 'string' ? xml.replace(/^\uFEFF/, '') : new TextDecoder('utf-8', { fatal: true }).decode(xml);
  } catch {
    throw new Fa3ParseError('ksef.fa3.not_utf8', 'the document is not UTF-8');
  }
  if (source.includes('\u0000')) throw new Fa3ParseError('ksef.fa3.nul_byte', 'NUL byte in the document');
  if (/<!DOCTYPE|<!ENTITY/i.test(source)) {
    throw new Fa3ParseError('ksef.fa3.doctype', 'DOCTYPE and entity declarations are not accepted');
  }
  if (STRAY_AMPERSAND.test(source)) {
    throw new Fa3ParseError('ksef.fa3.not_well_formed', 'an undeclared entity or a bare "&"');
  }
  const wellFormed = XMLValidator.validate(source);
  if (wellFormed !== true) {
    throw new Fa3ParseError(
      'ksef.fa3.not_well_formed',
      `${wellFormed.err.msg} (line ${wellFormed.err.line}, column ${wellFormed.err.col})`,
    );
  }
  return source;
}

/** The element tree of an FA(3) XML after the same screening as {@link parseFa3} (for {@link findUnmodelled}). */
export function parseTree(xml: string | Uint8Array): Record<string, unknown> {
  return obj(decodeTree(parser.parse(screen(xml)))) ?? {};
}

/**
 * Reads an FA(3) invoice. Throws {@link Fa3ParseError}: too large, not UTF-8, NUL bytes, a DOCTYPE, not well-formed, not an
 * FA(3) `Faktura`, or values the model refuses (`ksef.fa3.invalid`). Schema validity is checked separately
 * ({@link validateFa3}).
 */
export function parseFa3(xml: string | Uint8Array): KsefInvoice {
  const root = obj(decodeTree(parser.parse(screen(xml))));
  const faktura = obj(root?.Faktura);
  const header = obj(faktura?.Naglowek);
  const form = obj(header?.KodFormularza);
  if (!faktura || form?.['@_kodSystemowy'] !== 'FA (3)') {
    throw new Fa3ParseError('ksef.fa3.not_fa3', 'not an FA(3) invoice (Faktura with KodFormularza "FA (3)")');
  }
  const p1 = obj(faktura.Podmiot1);
  const p2 = obj(faktura.Podmiot2);
  const fa = obj(faktura.Fa);
  const adn = obj(fa?.Adnotacje);
  const exemption = obj(adn?.Zwolnienie);
  const margin = obj(adn?.PMarzy);
  const summary: Summary = {};
  for (const field of SUMMARY_FIELDS) {
    const value = text(fa, field);
    if (value !== undefined) summary[field] = value;
  }
  const corrected = list(fa?.DaneFaKorygowanej);
  const settlement = obj(fa?.Rozliczenie);
  const payment = obj(fa?.Platnosc);
  const terms = obj(fa?.WarunkiTransakcji);
  const order = obj(fa?.Zamowienie);
  const footer = obj(faktura.Stopka);
  const period = obj(fa?.OkresFa);
  const exemptionBasis = (['A', 'B', 'C'] as const).find((k) => text(exemption, `P_19${k}`) !== undefined);
  const marginKind = (['2', '3_1', '3_2', '3_3'] as const).find((k) => text(margin, `P_PMarzy_${k}`) === '1');

  const candidate = {
    ...pick(header, { systemInfo: 'SystemInfo', createdAt: 'DataWytworzeniaFa' }),
    seller: {
      ...pick(p1, { vatPrefix: 'PrefiksPodatnika', eori: 'NrEORI' }),
      nip: text(obj(p1?.DaneIdentyfikacyjne), 'NIP') ?? '',
      name: text(obj(p1?.DaneIdentyfikacyjne), 'Nazwa') ?? '',
      address: address(obj(p1?.Adres)),
      correspondenceAddress: address(obj(p1?.AdresKoresp)),
      contacts: contacts(p1),
      ...pick(p1, { status: 'StatusInfoPodatnika' }),
    },
    buyer: {
      ...pick(p2, { eori: 'NrEORI', customerNumber: 'NrKlienta', buyerId: 'IDNabywcy', jst: 'JST', gv: 'GV' }),
      id: partyId(obj(p2?.DaneIdentyfikacyjne)),
      ...pick(obj(p2?.DaneIdentyfikacyjne), { name: 'Nazwa' }),
      address: address(obj(p2?.Adres)),
      correspondenceAddress: address(obj(p2?.AdresKoresp)),
      contacts: contacts(p2),
    },
    thirdParties: list(faktura.Podmiot3).map((p) => ({
      ...pick(p, {
        buyerId: 'IDNabywcy',
        eori: 'NrEORI',
        role: 'Rola',
        otherRole: 'OpisRoli',
        share: 'Udzial',
        customerNumber: 'NrKlienta',
      }),
      id: partyId(obj(p.DaneIdentyfikacyjne)),
      ...pick(obj(p.DaneIdentyfikacyjne), { name: 'Nazwa' }),
      address: address(obj(p.Adres)),
      correspondenceAddress: address(obj(p.AdresKoresp)),
      contacts: contacts(p),
    })),
    kind: text(fa, 'RodzajFaktury'),
    currency: text(fa, 'KodWaluty'),
    issueDate: text(fa, 'P_1'),
    ...pick(fa, { issuePlace: 'P_1M', saleDate: 'P_6', exchangeRate: 'KursWalutyZ' }),
    number: text(fa, 'P_2'),
    deliveryNotes: texts(fa, 'WZ'),
    salePeriod: period && { from: text(period, 'P_6_Od'), to: text(period, 'P_6_Do') },
    summary,
    annotations: {
      ...pick(adn, {
        cashAccounting: 'P_16',
        selfBilling: 'P_17',
        reverseCharge: 'P_18',
        splitPayment: 'P_18A',
        triangular: 'P_23',
      }),
      exemption: exemptionBasis
        ? { type: exemptionBasis, basis: text(exemption, `P_19${exemptionBasis}`) }
        : { type: 'none' },
      margin: marginKind ?? 'none',
      newTransport:
        text(obj(adn?.NoweSrodkiTransportu), 'P_22') === '1'
          ? {
              type: 'supply',
              art42_5: text(obj(adn?.NoweSrodkiTransportu), 'P_42_5'),
              vehicles: list(obj(adn?.NoweSrodkiTransportu)?.NowySrodekTransportu).map((v) =>
                pick(v, Object.fromEntries(NEW_TRANSPORT_FIELDS.map((f) => [f, f])) as Record<string, string>),
              ),
            }
          : { type: 'none' },
    },
    correction:
      corrected.length > 0
        ? {
            ...pick(fa, {
              reason: 'PrzyczynaKorekty',
              type: 'TypKorekty',
              correctedPeriod: 'OkresFaKorygowanej',
              correctedNumber: 'NrFaKorygowany',
              advanceBefore: 'P_15ZK',
              exchangeRateBefore: 'KursWalutyZK',
            }),
            sellerBefore: obj(fa?.Podmiot1K) && {
              ...pick(obj(fa?.Podmiot1K), { vatPrefix: 'PrefiksPodatnika' }),
              nip: text(obj(obj(fa?.Podmiot1K)?.DaneIdentyfikacyjne), 'NIP'),
              name: text(obj(obj(fa?.Podmiot1K)?.DaneIdentyfikacyjne), 'Nazwa'),
              address: address(obj(obj(fa?.Podmiot1K)?.Adres)),
            },
            buyersBefore: list(fa?.Podmiot2K).map((b) => ({
              id: partyId(obj(b.DaneIdentyfikacyjne)),
              ...pick(obj(b.DaneIdentyfikacyjne), { name: 'Nazwa' }),
              address: address(obj(b.Adres)),
              ...pick(b, { buyerId: 'IDNabywcy' }),
            })),
            corrected: corrected.map((d) => ({
              issueDate: text(d, 'DataWystFaKorygowanej'),
              number: text(d, 'NrFaKorygowanej'),
              ...pick(d, { ksefNumber: 'NrKSeFFaKorygowanej' }),
            })),
          }
        : undefined,
    partialAdvances: list(fa?.ZaliczkaCzesciowa).map((z) => ({
      date: text(z, 'P_6Z'),
      amount: text(z, 'P_15Z'),
      ...pick(z, { exchangeRate: 'KursWalutyZW' }),
    })),
    forReceipt: yes(fa, 'FP'),
    relatedParties: yes(fa, 'TP'),
    exciseRefund: yes(fa, 'ZwrotAkcyzy'),
    additionalInfo: list(fa?.DodatkowyOpis).map((d) => ({
      ...pick(d, { lineNumber: 'NrWiersza' }),
      key: text(d, 'Klucz') ?? '',
      value: text(d, 'Wartosc') ?? '',
    })),
    advanceInvoices: list(fa?.FakturaZaliczkowa).map((a) =>
      text(a, 'NrKSeFFaZaliczkowej') !== undefined
        ? { ksefNumber: text(a, 'NrKSeFFaZaliczkowej') }
        : { number: text(a, 'NrFaZaliczkowej') },
    ),
    lines: list(fa?.FaWiersz).map((l) => ({
      ...pick(l, LINE_FIELDS),
      annex15: yes(l, 'P_12_Zal_15'),
      before: yes(l, 'StanPrzed'),
    })),
    settlement: settlement && {
      charges: list(settlement.Obciazenia).map((c) => ({ amount: text(c, 'Kwota'), reason: text(c, 'Powod') })),
      deductions: list(settlement.Odliczenia).map((c) => ({ amount: text(c, 'Kwota'), reason: text(c, 'Powod') })),
      ...pick(settlement, {
        chargesTotal: 'SumaObciazen',
        deductionsTotal: 'SumaOdliczen',
        toPay: 'DoZaplaty',
        toSettle: 'DoRozliczenia',
      }),
    },
    payment: payment && {
      ...(text(payment, 'Zaplacono') === '1' ? pick(payment, { paidOn: 'DataZaplaty' }) : {}),
      partial:
        text(payment, 'ZnacznikZaplatyCzesciowej') !== undefined
          ? {
              flag: text(payment, 'ZnacznikZaplatyCzesciowej'),
              payments: list(payment.ZaplataCzesciowa).map((z) => ({
                amount: text(z, 'KwotaZaplatyCzesciowej'),
                date: text(z, 'DataZaplatyCzesciowej'),
                ...pick(z, { form: 'FormaPlatnosci', other: 'OpisPlatnosci' }),
              })),
            }
          : undefined,
      dueDates: list(payment.TerminPlatnosci).map((t) => {
        const opis = obj(t.TerminOpis);
        return {
          ...pick(t, { date: 'Termin' }),
          ...(opis
            ? {
                period: {
                  count: text(opis, 'Ilosc') ?? '',
                  unit: text(opis, 'Jednostka') ?? '',
                  event: text(opis, 'ZdarzeniePoczatkowe') ?? '',
                },
              }
            : {}),
        };
      }),
      ...pick(payment, { form: 'FormaPlatnosci', otherForm: 'OpisPlatnosci' }),
      bankAccounts: bankAccounts(payment.RachunekBankowy),
      factorBankAccounts: bankAccounts(payment.RachunekBankowyFaktora),
      ...pick(payment, { link: 'LinkDoPlatnosci', paymentId: 'IPKSeF' }),
      discount: obj(payment.Skonto) && {
        terms: text(obj(payment.Skonto), 'WarunkiSkonta'),
        amount: text(obj(payment.Skonto), 'WysokoscSkonta'),
      },
    },
    terms: terms && {
      contracts: list(terms.Umowy).map((u) => pick(u, { date: 'DataUmowy', number: 'NrUmowy' })),
      orders: list(terms.Zamowienia).map((u) => pick(u, { date: 'DataZamowienia', number: 'NrZamowienia' })),
      batchNumbers: texts(terms, 'NrPartiiTowaru'),
      ...pick(terms, { deliveryTerms: 'WarunkiDostawy' }),
    },
    order: order && {
      value: text(order, 'WartoscZamowienia'),
      lines: list(order.ZamowienieWiersz).map((l) => ({
        ...pick(l, ORDER_LINE_FIELDS),
        annex15: yes(l, 'P_12Z_Zal_15'),
        before: yes(l, 'StanPrzedZ'),
      })),
    },
    footer: footer && {
      texts: list(footer.Informacje)
        .map((i) => text(i, 'StopkaFaktury'))
        .filter((t): t is string => t !== undefined),
      registers: list(footer.Rejestry).map((r) =>
        pick(r, { fullName: 'PelnaNazwa', krs: 'KRS', regon: 'REGON', bdo: 'BDO' }),
      ),
    },
  };
  const parsed = KsefInvoiceSchema.safeParse(stripUndefined(candidate));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Fa3ParseError('ksef.fa3.invalid', `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Drops `undefined` properties (deeply), so optional fields are absent rather than present-and-undefined. */
function stripUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(stripUndefined) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = stripUndefined(v);
    return out as T;
  }
  return value;
}
