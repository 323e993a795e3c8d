/**
 * The invoice as FA(3) holds it (schema `schemat_FA(3)_v1-0E.xsd`, namespace http://crd.gov.pl/wzor/2025/06/25/13775/),
 * in English names with the FA(3) element named in each comment. Money, quantities and prices are decimal strings
 * exactly as written (`-162.60`), never binary floats. Flags that FA(3) writes as `1` (yes) / `2` (no) are
 * `'1' | '2'` here, so a parsed invoice writes back the same values.
 *
 * Not modelled yet (skipped by the parser, never written; {@link findUnmodelled} lists them for a given XML):
 * WarunkiTransakcji/Transport and /PodmiotPosredniczacy, KursUmowny/WalutaUmowna, PodmiotUpowazniony, Zalacznik
 * (attachments, batch sessions only).
 */
import { z } from 'zod';

/** Decimal string: optional minus, digits, optional fraction. */
export const Fa3DecimalSchema = z.string().regex(/^-?\d+(\.\d+)?$/);
/** `YYYY-MM-DD`. */
export const Fa3DateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** FA(3) yes/no: `1` yes, `2` no. */
export const YesNoSchema = z.enum(['1', '2']);

/** RodzajFaktury. */
export const INVOICE_KINDS = ['VAT', 'KOR', 'ZAL', 'ROZ', 'UPR', 'KOR_ZAL', 'KOR_ROZ'] as const;
export const InvoiceKindSchema = z.enum(INVOICE_KINDS);
export type InvoiceKind = z.infer<typeof InvoiceKindSchema>;

/** TStawkaPodatku: the VAT rates FA(3) allows in P_12 (and P_12Z). */
export const VAT_RATES = [
  '23',
  '22',
  '8',
  '7',
  '5',
  '4',
  '3',
  '0 KR',
  '0 WDT',
  '0 EX',
  'zw',
  'oo',
  'np I',
  'np II',
] as const;
export const VatRateSchema = z.enum(VAT_RATES);
export type VatRate = z.infer<typeof VatRateSchema>;

/** TAdres: country code and up to two free lines (FA(3) has no structured address). */
export const AddressSchema = z.object({
  /** KodKraju (ISO 3166 alpha-2). */
  countryCode: z.string().regex(/^[A-Z]{2}$/),
  /** AdresL1. */
  line1: z.string().min(1).max(512),
  /** AdresL2. */
  line2: z.string().min(1).max(512).optional(),
  /** GLN. */
  gln: z.string().optional(),
});
export type Address = z.infer<typeof AddressSchema>;

/** DaneKontaktowe (up to 3). */
export const ContactSchema = z.object({ email: z.string().optional(), phone: z.string().optional() });
export type Contact = z.infer<typeof ContactSchema>;

/** The identification of a buyer or third party (TPodmiot2 / TPodmiot3 choice). */
export const PartyIdSchema = z.discriminatedUnion('type', [
  /** NIP. */
  z.object({ type: z.literal('nip'), nip: z.string().regex(/^\d{10}$/) }),
  /** KodUE + NrVatUE: an EU VAT number. */
  z.object({ type: z.literal('eu'), countryCode: z.string(), vatNumber: z.string() }),
  /** KodKraju? + NrID: another tax identifier. */
  z.object({ type: z.literal('other'), countryCode: z.string().optional(), id: z.string() }),
  /** IDWew: internal identifier (Podmiot3 only). */
  z.object({ type: z.literal('internal'), id: z.string() }),
  /** BrakID: no identifier (a consumer). */
  z.object({ type: z.literal('none') }),
]);
export type PartyId = z.infer<typeof PartyIdSchema>;

/** Podmiot1: the seller. */
export const SellerSchema = z.object({
  /** PrefiksPodatnika (always PL when present). */
  vatPrefix: z.literal('PL').optional(),
  /** NrEORI. */
  eori: z.string().optional(),
  /** DaneIdentyfikacyjne/NIP. */
  nip: z.string().regex(/^\d{10}$/),
  /** DaneIdentyfikacyjne/Nazwa. */
  name: z.string().min(1).max(512),
  address: AddressSchema,
  /** AdresKoresp. */
  correspondenceAddress: AddressSchema.optional(),
  contacts: z.array(ContactSchema).max(3).default([]),
  /** StatusInfoPodatnika (1 liquidation, 2 restructuring, 3 bankruptcy, 4 inheritance). */
  status: z.enum(['1', '2', '3', '4']).optional(),
});
export type Seller = z.infer<typeof SellerSchema>;

/** Podmiot2: the buyer. */
export const BuyerSchema = z.object({
  eori: z.string().optional(),
  id: PartyIdSchema,
  name: z.string().min(1).max(512).optional(),
  address: AddressSchema.optional(),
  correspondenceAddress: AddressSchema.optional(),
  contacts: z.array(ContactSchema).max(3).default([]),
  /** NrKlienta. */
  customerNumber: z.string().optional(),
  /** IDNabywcy: links the buyer to a Podmiot3 or a correction's Podmiot2K. */
  buyerId: z.string().optional(),
  /** JST: the buyer is a unit of local government (1) or not (2). */
  jst: YesNoSchema.default('2'),
  /** GV: the buyer is a member of a VAT group (1) or not (2). */
  gv: YesNoSchema.default('2'),
});
export type Buyer = z.infer<typeof BuyerSchema>;

/** Podmiot3: a third party (factor, recipient, payer, additional buyer…). */
export const ThirdPartySchema = z.object({
  buyerId: z.string().optional(),
  eori: z.string().optional(),
  id: PartyIdSchema,
  name: z.string().min(1).max(512).optional(),
  address: AddressSchema.optional(),
  correspondenceAddress: AddressSchema.optional(),
  contacts: z.array(ContactSchema).max(3).default([]),
  /** Rola (TRolaPodmiotu3: 1 factor, 2 recipient, 3 original entity, 4 additional buyer, 5 issuer, 6 payer…) or, when absent, `otherRole`. */
  role: z
    .string()
    .regex(/^([1-9]|1[01])$/)
    .optional(),
  /** OpisRoli with RolaInna = 1. */
  otherRole: z.string().optional(),
  /** Udzial (percent). */
  share: Fa3DecimalSchema.optional(),
  customerNumber: z.string().optional(),
});
export type ThirdParty = z.infer<typeof ThirdPartySchema>;

/** The P_13_x / P_14_x / P_15 summary of Fa, in the order FA(3) writes them. */
export const SUMMARY_FIELDS = [
  'P_13_1',
  'P_14_1',
  'P_14_1W',
  'P_13_2',
  'P_14_2',
  'P_14_2W',
  'P_13_3',
  'P_14_3',
  'P_14_3W',
  'P_13_4',
  'P_14_4',
  'P_14_4W',
  'P_13_5',
  'P_14_5',
  'P_13_6_1',
  'P_13_6_2',
  'P_13_6_3',
  'P_13_7',
  'P_13_8',
  'P_13_9',
  'P_13_10',
  'P_13_11',
  'P_15',
] as const;
export type SummaryField = (typeof SUMMARY_FIELDS)[number];
export const SummarySchema = z.object(
  Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, Fa3DecimalSchema.optional()])) as Record<
    SummaryField,
    z.ZodOptional<typeof Fa3DecimalSchema>
  >,
);
/** The summary; `P_15` (gross total) is always present in a written invoice. */
export type Summary = Partial<Record<SummaryField, string>>;

/** The fields of NowySrodekTransportu, in schema order. */
export const NEW_TRANSPORT_FIELDS = [
  'P_22A',
  'P_NrWierszaNST',
  'P_22BMK',
  'P_22BMD',
  'P_22BK',
  'P_22BNR',
  'P_22BRP',
  'P_22B',
  'P_22B1',
  'P_22B2',
  'P_22B3',
  'P_22B4',
  'P_22BT',
  'P_22C',
  'P_22C1',
  'P_22D',
  'P_22D1',
] as const;

/** Adnotacje, with FA(3)'s "no" defaults. */
export const AnnotationsSchema = z.object({
  /** P_16: cash accounting method. */
  cashAccounting: YesNoSchema.default('2'),
  /** P_17: self-billing (the portal's SB message type). */
  selfBilling: YesNoSchema.default('2'),
  /** P_18: reverse charge. */
  reverseCharge: YesNoSchema.default('2'),
  /** P_18A: split payment mechanism. */
  splitPayment: YesNoSchema.default('2'),
  /** Zwolnienie: P_19N (none) or P_19 with the legal basis P_19A (act), P_19B (directive) or P_19C (other). */
  exemption: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('none') }),
      z.object({ type: z.enum(['A', 'B', 'C']), basis: z.string().min(1) }),
    ])
    .default({ type: 'none' }),
  /**
   * NoweSrodkiTransportu: P_22N (none), or P_22 = 1 with P_42_5 (1: the buyer's obligation under art. 42(5)) and the
   * vehicles. A vehicle keeps its FA(3) fields by name (P_22A date, P_NrWierszaNST line, P_22B… land, P_22C… water,
   * P_22D… air); the writer puts them in schema order.
   */
  newTransport: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('none') }),
      z.object({
        type: z.literal('supply'),
        art42_5: YesNoSchema,
        vehicles: z.array(z.partialRecord(z.enum(NEW_TRANSPORT_FIELDS), z.string())).min(1),
      }),
    ])
    .default({ type: 'none' }),
  /** P_23: simplified triangular procedure. */
  triangular: YesNoSchema.default('2'),
  /** PMarzy: P_PMarzyN (none) or the margin procedure (2 travel agencies, 3_1 used goods, 3_2 works of art, 3_3 antiques). */
  margin: z.enum(['none', '2', '3_1', '3_2', '3_3']).default('none'),
});
export type Annotations = z.infer<typeof AnnotationsSchema>;

/** The fields common to FaWiersz and ZamowienieWiersz (the latter's names end in Z). */
const lineFields = {
  /** UU_ID / UU_IDZ. */
  uuid: z.string().optional(),
  /** P_7 / P_7Z: the name of the goods or service. */
  name: z.string().max(512).optional(),
  /** Indeks / IndeksZ. */
  itemIndex: z.string().optional(),
  gtin: z.string().optional(),
  pkwiu: z.string().optional(),
  cn: z.string().optional(),
  pkob: z.string().optional(),
  /** P_8A / P_8AZ: unit of measure. */
  unit: z.string().optional(),
  /** P_8B / P_8BZ. */
  quantity: Fa3DecimalSchema.optional(),
  /** P_9A / P_9AZ: net unit price. */
  netUnitPrice: Fa3DecimalSchema.optional(),
  /** P_12 / P_12Z. */
  vatRate: VatRateSchema.optional(),
  /** P_12_XII / P_12Z_XII: the OSS rate (percent). */
  ossRate: Fa3DecimalSchema.optional(),
  /** P_12_Zal_15 / P_12Z_Zal_15: goods of annex 15. */
  annex15: z.boolean().optional(),
  /** GTU / GTUZ. */
  gtu: z.string().optional(),
  /** KwotaAkcyzy / KwotaAkcyzyZ. */
  exciseAmount: Fa3DecimalSchema.optional(),
  /** StanPrzed / StanPrzedZ: the line shows the state before the correction. */
  before: z.boolean().optional(),
};

/** FaWiersz. */
export const LineSchema = z.object({
  /** NrWierszaFa; defaults to the position (1, 2…) when written. */
  lineNumber: z.string().regex(/^\d+$/).optional(),
  ...lineFields,
  /** P_6A: the date of supply of this line. */
  saleDate: Fa3DateSchema.optional(),
  /** P_9B: gross unit price (invoices priced gross, art. 106e(7)). */
  grossUnitPrice: Fa3DecimalSchema.optional(),
  /** P_10: discounts. */
  discount: Fa3DecimalSchema.optional(),
  /** P_11: net value. */
  netValue: Fa3DecimalSchema.optional(),
  /** P_11A: gross value. */
  grossValue: Fa3DecimalSchema.optional(),
  /** P_11Vat. */
  vatValue: Fa3DecimalSchema.optional(),
  /** Procedura. */
  procedure: z.string().optional(),
  /** KursWaluty. */
  exchangeRate: Fa3DecimalSchema.optional(),
});
export type Line = z.infer<typeof LineSchema>;

/** ZamowienieWiersz: a line of the order (or contract) an advance invoice is for. */
export const OrderLineSchema = z.object({
  lineNumber: z.string().regex(/^\d+$/).optional(),
  ...lineFields,
  /** P_11NettoZ. */
  netValue: Fa3DecimalSchema.optional(),
  /** P_11VatZ. */
  vatValue: Fa3DecimalSchema.optional(),
  /** ProceduraZ. */
  procedure: z.string().optional(),
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

/** The correction block of KOR, KOR_ZAL and KOR_ROZ. */
export const CorrectionSchema = z.object({
  /** PrzyczynaKorekty. */
  reason: z.string().optional(),
  /** TypKorekty: 1 in the corrected invoice's period, 2 in the correction's, 3 other. */
  type: z.enum(['1', '2', '3']).optional(),
  /** DaneFaKorygowanej: the corrected invoices. */
  corrected: z
    .array(
      z.object({
        /** DataWystFaKorygowanej. */
        issueDate: Fa3DateSchema,
        /** NrFaKorygowanej. */
        number: z.string().min(1),
        /** NrKSeFFaKorygowanej (with NrKSeF = 1); absent = issued outside KSeF (NrKSeFN = 1). */
        ksefNumber: z.string().optional(),
      }),
    )
    .min(1),
  /** OkresFaKorygowanej: the period of a rebate correction. */
  correctedPeriod: z.string().optional(),
  /** NrFaKorygowany: the correct number when the number itself is corrected. */
  correctedNumber: z.string().optional(),
  /** Podmiot1K: the seller as the corrected invoice named it. */
  sellerBefore: z
    .object({ vatPrefix: z.string().optional(), nip: z.string(), name: z.string(), address: AddressSchema })
    .optional(),
  /** Podmiot2K: the buyers as the corrected invoice named them. */
  buyersBefore: z
    .array(
      z.object({
        id: PartyIdSchema,
        name: z.string().optional(),
        address: AddressSchema.optional(),
        buyerId: z.string().optional(),
      }),
    )
    .max(101)
    .default([]),
  /** P_15ZK: for KOR_ZAL, the advance received before the correction. */
  advanceBefore: Fa3DecimalSchema.optional(),
  /** KursWalutyZK. */
  exchangeRateBefore: Fa3DecimalSchema.optional(),
});
export type Correction = z.infer<typeof CorrectionSchema>;

/** FakturaZaliczkowa of a ROZ or KOR_ROZ: a KSeF number, or the number of an advance invoice issued outside KSeF. */
export const AdvanceInvoiceSchema = z.union([z.object({ ksefNumber: z.string() }), z.object({ number: z.string() })]);
export type AdvanceInvoice = z.infer<typeof AdvanceInvoiceSchema>;

/** TRachunekBankowy. */
export const BankAccountSchema = z.object({
  number: z.string().min(10).max(34),
  swift: z.string().optional(),
  /** RachunekWlasnyBanku (1, 2 or 3). */
  ownBankAccount: z.string().optional(),
  bankName: z.string().optional(),
  description: z.string().optional(),
});
export type BankAccount = z.infer<typeof BankAccountSchema>;

/** Platnosc. */
export const PaymentSchema = z.object({
  /** Zaplacono = 1 with DataZaplaty. */
  paidOn: Fa3DateSchema.optional(),
  /** ZnacznikZaplatyCzesciowej (1 partly paid, 2 paid in instalments) with ZaplataCzesciowa. */
  partial: z
    .object({
      flag: YesNoSchema,
      payments: z.array(
        z.object({
          amount: Fa3DecimalSchema,
          date: Fa3DateSchema,
          form: z.string().optional(),
          other: z.string().optional(),
        }),
      ),
    })
    .optional(),
  /** TerminPlatnosci: a date, or a period after an event. */
  dueDates: z
    .array(
      z.object({
        date: Fa3DateSchema.optional(),
        period: z.object({ count: z.string(), unit: z.string(), event: z.string() }).optional(),
      }),
    )
    .default([]),
  /** FormaPlatnosci (1 cash, 2 card, 3 voucher, 4 cheque, 5 credit, 6 transfer, 7 mobile). */
  form: z.enum(['1', '2', '3', '4', '5', '6', '7']).optional(),
  /** OpisPlatnosci with PlatnoscInna = 1. */
  otherForm: z.string().optional(),
  bankAccounts: z.array(BankAccountSchema).default([]),
  /** RachunekBankowyFaktora. */
  factorBankAccounts: z.array(BankAccountSchema).default([]),
  /** Skonto. */
  discount: z.object({ terms: z.string(), amount: z.string() }).optional(),
  /** LinkDoPlatnosci: a payment link carrying the IPKSeF parameter. */
  link: z.string().optional(),
  /** IPKSeF: the payment identifier. */
  paymentId: z.string().optional(),
});
export type Payment = z.infer<typeof PaymentSchema>;

/** Rozliczenie: charges and deductions after the total. */
export const SettlementSchema = z.object({
  charges: z.array(z.object({ amount: Fa3DecimalSchema, reason: z.string() })).default([]),
  chargesTotal: Fa3DecimalSchema.optional(),
  deductions: z.array(z.object({ amount: Fa3DecimalSchema, reason: z.string() })).default([]),
  deductionsTotal: Fa3DecimalSchema.optional(),
  toPay: Fa3DecimalSchema.optional(),
  toSettle: Fa3DecimalSchema.optional(),
});
export type Settlement = z.infer<typeof SettlementSchema>;

/** The invoice. */
export const KsefInvoiceSchema = z.object({
  /** Naglowek/SystemInfo. */
  systemInfo: z.string().optional(),
  /** Naglowek/DataWytworzeniaFa (ISO dateTime); the writer uses the current time when absent. */
  createdAt: z.string().optional(),
  seller: SellerSchema,
  buyer: BuyerSchema,
  thirdParties: z.array(ThirdPartySchema).max(100).default([]),
  kind: InvoiceKindSchema,
  /** KodWaluty. */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default('PLN'),
  /** P_1. */
  issueDate: Fa3DateSchema,
  /** P_1M. */
  issuePlace: z.string().optional(),
  /** P_2. */
  number: z.string().min(1).max(256),
  /** WZ: delivery notes. */
  deliveryNotes: z.array(z.string()).default([]),
  /** P_6: the date of supply, or OkresFa (P_6_Od / P_6_Do). */
  saleDate: Fa3DateSchema.optional(),
  salePeriod: z.object({ from: Fa3DateSchema, to: Fa3DateSchema }).optional(),
  /** P_13_x / P_14_x / P_15; computed from the lines by {@link computeSummary} when absent. */
  summary: SummarySchema.optional(),
  /** KursWalutyZ. */
  exchangeRate: Fa3DecimalSchema.optional(),
  annotations: AnnotationsSchema.default(AnnotationsSchema.parse({})),
  correction: CorrectionSchema.optional(),
  /** ZaliczkaCzesciowa: advances received, on a ZAL with several payments. */
  partialAdvances: z
    .array(z.object({ date: Fa3DateSchema, amount: Fa3DecimalSchema, exchangeRate: Fa3DecimalSchema.optional() }))
    .default([]),
  /** FP: an invoice for a receipt (paragon). */
  forReceipt: z.boolean().optional(),
  /** TP: related parties. */
  relatedParties: z.boolean().optional(),
  /** DodatkowyOpis. */
  additionalInfo: z
    .array(z.object({ lineNumber: z.string().optional(), key: z.string(), value: z.string() }))
    .default([]),
  /** ZwrotAkcyzy: a farmer's excise refund. */
  exciseRefund: z.boolean().optional(),
  /** FakturaZaliczkowa (ROZ, KOR_ROZ). */
  advanceInvoices: z.array(AdvanceInvoiceSchema).default([]),
  lines: z.array(LineSchema).default([]),
  settlement: SettlementSchema.optional(),
  payment: PaymentSchema.optional(),
  /** WarunkiTransakcji (contracts, orders, batch numbers, delivery terms; not the transport). */
  terms: z
    .object({
      contracts: z.array(z.object({ date: Fa3DateSchema.optional(), number: z.string().optional() })).default([]),
      orders: z.array(z.object({ date: Fa3DateSchema.optional(), number: z.string().optional() })).default([]),
      batchNumbers: z.array(z.string()).default([]),
      deliveryTerms: z.string().optional(),
    })
    .optional(),
  /** Zamowienie (ZAL, KOR_ZAL): the order's value and lines. */
  order: z.object({ value: Fa3DecimalSchema, lines: z.array(OrderLineSchema).min(1) }).optional(),
  /** Stopka. */
  footer: z
    .object({
      texts: z.array(z.string()).max(3).default([]),
      registers: z
        .array(
          z.object({
            fullName: z.string().optional(),
            krs: z.string().optional(),
            regon: z.string().optional(),
            bdo: z.string().optional(),
          }),
        )
        .default([]),
    })
    .optional(),
});
export type KsefInvoice = z.infer<typeof KsefInvoiceSchema>;
/** What a caller writes: defaults may be left out. */
export type KsefInvoiceInput = z.input<typeof KsefInvoiceSchema>;
