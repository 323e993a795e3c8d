/**
 * The FA(3) writer: a {@link KsefInvoice} to the XML KSeF accepts (UTF-8, no BOM, no processing instruction other
 * than the XML declaration). fast-xml-parser's XMLBuilder writes and escapes; element order follows the XSD
 * sequences, so every object below lists its children in schema order.
 */
import { XMLBuilder } from 'fast-xml-parser';
import {
  KsefInvoiceSchema,
  type Address,
  type BankAccount,
  type Contact,
  type KsefInvoice,
  type KsefInvoiceInput,
  type Line,
  type OrderLine,
  type PartyId,
  NEW_TRANSPORT_FIELDS,
} from './model.ts';
import { computeSummary, orderSummary } from './summary.ts';

/** FA(3)'s target namespace. */
export const FA3_NAMESPACE = 'http://crd.gov.pl/wzor/2025/06/25/13775/';
/** The base types' namespace (etd:). */
export const ETD_NAMESPACE = 'http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/';
/** The form code KSeF expects with `/sessions/online` for FA(3). */
export const FA3_FORM_CODE = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' } as const;

/** A child value: text, a nested element, a list of either, or nothing (left out). */
type Child = string | XmlElement | readonly (string | XmlElement)[] | undefined;
type XmlElement = { [name: string]: Child };

/** An element with its children in the order given, dropping absent ones and empty lists. */
const el = (children: [string, Child][]): XmlElement => {
  const out: XmlElement = {};
  for (const [name, value] of children) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[name] = value;
  }
  return out;
};

const flag = (value: boolean | undefined): string | undefined => (value ? '1' : undefined);

const address = (a: Address | undefined): XmlElement | undefined =>
  a &&
  el([
    ['KodKraju', a.countryCode],
    ['AdresL1', a.line1],
    ['AdresL2', a.line2],
    ['GLN', a.gln],
  ]);

const contacts = (list: readonly Contact[]): XmlElement[] =>
  list.map((c) =>
    el([
      ['Email', c.email],
      ['Telefon', c.phone],
    ]),
  );

const partyId = (id: PartyId, name: string | undefined): XmlElement => {
  const ident: [string, Child][] =
    id.type === 'nip'
      ? [['NIP', id.nip]]
      : id.type === 'eu'
        ? [
            ['KodUE', id.countryCode],
            ['NrVatUE', id.vatNumber],
          ]
        : id.type === 'other'
          ? [
              ['KodKraju', id.countryCode],
              ['NrID', id.id],
            ]
          : id.type === 'internal'
            ? [['IDWew', id.id]]
            : [['BrakID', '1']];
  return el([...ident, ['Nazwa', name]]);
};

const bankAccount = (a: BankAccount): XmlElement =>
  el([
    ['NrRB', a.number],
    ['SWIFT', a.swift],
    ['RachunekWlasnyBanku', a.ownBankAccount],
    ['NazwaBanku', a.bankName],
    ['OpisRachunku', a.description],
  ]);

const line = (l: Line, i: number): XmlElement =>
  el([
    ['NrWierszaFa', l.lineNumber ?? String(i + 1)],
    ['UU_ID', l.uuid],
    ['P_6A', l.saleDate],
    ['P_7', l.name],
    ['Indeks', l.itemIndex],
    ['GTIN', l.gtin],
    ['PKWiU', l.pkwiu],
    ['CN', l.cn],
    ['PKOB', l.pkob],
    ['P_8A', l.unit],
    ['P_8B', l.quantity],
    ['P_9A', l.netUnitPrice],
    ['P_9B', l.grossUnitPrice],
    ['P_10', l.discount],
    ['P_11', l.netValue],
    ['P_11A', l.grossValue],
    ['P_11Vat', l.vatValue],
    ['P_12', l.vatRate],
    ['P_12_XII', l.ossRate],
    ['P_12_Zal_15', flag(l.annex15)],
    ['KwotaAkcyzy', l.exciseAmount],
    ['GTU', l.gtu],
    ['Procedura', l.procedure],
    ['KursWaluty', l.exchangeRate],
    ['StanPrzed', flag(l.before)],
  ]);

const orderLine = (l: OrderLine, i: number): XmlElement =>
  el([
    ['NrWierszaZam', l.lineNumber ?? String(i + 1)],
    ['UU_IDZ', l.uuid],
    ['P_7Z', l.name],
    ['IndeksZ', l.itemIndex],
    ['GTINZ', l.gtin],
    ['PKWiUZ', l.pkwiu],
    ['CNZ', l.cn],
    ['PKOBZ', l.pkob],
    ['P_8AZ', l.unit],
    ['P_8BZ', l.quantity],
    ['P_9AZ', l.netUnitPrice],
    ['P_11NettoZ', l.netValue],
    ['P_11VatZ', l.vatValue],
    ['P_12Z', l.vatRate],
    ['P_12Z_XII', l.ossRate],
    ['P_12Z_Zal_15', flag(l.annex15)],
    ['GTUZ', l.gtu],
    ['ProceduraZ', l.procedure],
    ['KwotaAkcyzyZ', l.exciseAmount],
    ['StanPrzedZ', flag(l.before)],
  ]);

const newTransport = (t: KsefInvoice['annotations']['newTransport']): XmlElement =>
  t.type === 'none'
    ? el([['P_22N', '1']])
    : el([
        ['P_22', '1'],
        ['P_42_5', t.art42_5],
        ['NowySrodekTransportu', t.vehicles.map((v) => el(NEW_TRANSPORT_FIELDS.map((f) => [f, v[f]])))],
      ]);

const annotations = (a: KsefInvoice['annotations']): XmlElement => {
  const exemption =
    a.exemption.type === 'none'
      ? el([['P_19N', '1']])
      : el([
          ['P_19', '1'],
          [`P_19${a.exemption.type}`, a.exemption.basis],
        ]);
  const margin =
    a.margin === 'none'
      ? el([['P_PMarzyN', '1']])
      : el([
          ['P_PMarzy', '1'],
          [`P_PMarzy_${a.margin}`, '1'],
        ]);
  return el([
    ['P_16', a.cashAccounting],
    ['P_17', a.selfBilling],
    ['P_18', a.reverseCharge],
    ['P_18A', a.splitPayment],
    ['Zwolnienie', exemption],
    ['NoweSrodkiTransportu', newTransport(a.newTransport)],
    ['P_23', a.triangular],
    ['PMarzy', margin],
  ]);
};

const correction = (inv: KsefInvoice): [string, Child][] => {
  const c = inv.correction;
  if (!c) return [];
  return [
    ['PrzyczynaKorekty', c.reason],
    ['TypKorekty', c.type],
    [
      'DaneFaKorygowanej',
      c.corrected.map((d) =>
        el([
          ['DataWystFaKorygowanej', d.issueDate],
          ['NrFaKorygowanej', d.number],
          ...(d.ksefNumber
            ? ([
                ['NrKSeF', '1'],
                ['NrKSeFFaKorygowanej', d.ksefNumber],
              ] as [string, Child][])
            : ([['NrKSeFN', '1']] as [string, Child][])),
        ]),
      ),
    ],
    ['OkresFaKorygowanej', c.correctedPeriod],
    ['NrFaKorygowany', c.correctedNumber],
    [
      'Podmiot1K',
      c.sellerBefore &&
        el([
          ['PrefiksPodatnika', c.sellerBefore.vatPrefix],
          [
            'DaneIdentyfikacyjne',
            el([
              ['NIP', c.sellerBefore.nip],
              ['Nazwa', c.sellerBefore.name],
            ]),
          ],
          ['Adres', address(c.sellerBefore.address)],
        ]),
    ],
    [
      'Podmiot2K',
      c.buyersBefore.map((b) =>
        el([
          ['DaneIdentyfikacyjne', partyId(b.id, b.name)],
          ['Adres', address(b.address)],
          ['IDNabywcy', b.buyerId],
        ]),
      ),
    ],
    ['P_15ZK', c.advanceBefore],
    ['KursWalutyZK', c.advanceBefore === undefined ? undefined : c.exchangeRateBefore],
  ];
};

const payment = (p: KsefInvoice['payment']): XmlElement | undefined => {
  if (!p) return undefined;
  return el([
    ['Zaplacono', p.paidOn ? '1' : undefined],
    ['DataZaplaty', p.paidOn],
    ['ZnacznikZaplatyCzesciowej', p.paidOn ? undefined : p.partial?.flag],
    [
      'ZaplataCzesciowa',
      p.paidOn
        ? undefined
        : p.partial?.payments.map((z) =>
            el([
              ['KwotaZaplatyCzesciowej', z.amount],
              ['DataZaplatyCzesciowej', z.date],
              ['FormaPlatnosci', z.form],
              ['PlatnoscInna', z.form ? undefined : z.other ? '1' : undefined],
              ['OpisPlatnosci', z.form ? undefined : z.other],
            ]),
          ),
    ],
    [
      'TerminPlatnosci',
      p.dueDates.map((d) =>
        el([
          ['Termin', d.date],
          [
            'TerminOpis',
            d.period &&
              el([
                ['Ilosc', d.period.count],
                ['Jednostka', d.period.unit],
                ['ZdarzeniePoczatkowe', d.period.event],
              ]),
          ],
        ]),
      ),
    ],
    ['FormaPlatnosci', p.form],
    ['PlatnoscInna', p.form ? undefined : p.otherForm ? '1' : undefined],
    ['OpisPlatnosci', p.form ? undefined : p.otherForm],
    ['RachunekBankowy', p.bankAccounts.map(bankAccount)],
    ['RachunekBankowyFaktora', p.factorBankAccounts.map(bankAccount)],
    [
      'Skonto',
      p.discount &&
        el([
          ['WarunkiSkonta', p.discount.terms],
          ['WysokoscSkonta', p.discount.amount],
        ]),
    ],
    ['LinkDoPlatnosci', p.link],
    ['IPKSeF', p.paymentId],
  ]);
};

const fa = (inv: KsefInvoice): XmlElement => {
  const summary = orderSummary(inv.summary ?? computeSummary(inv.lines));
  const s = inv.settlement;
  const t = inv.terms;
  return el([
    ['KodWaluty', inv.currency],
    ['P_1', inv.issueDate],
    ['P_1M', inv.issuePlace],
    ['P_2', inv.number],
    ['WZ', inv.deliveryNotes],
    ['P_6', inv.salePeriod ? undefined : inv.saleDate],
    [
      'OkresFa',
      inv.salePeriod &&
        el([
          ['P_6_Od', inv.salePeriod.from],
          ['P_6_Do', inv.salePeriod.to],
        ]),
    ],
    ...Object.entries(summary),
    ['KursWalutyZ', inv.exchangeRate],
    ['Adnotacje', annotations(inv.annotations)],
    ['RodzajFaktury', inv.kind],
    ...correction(inv),
    [
      'ZaliczkaCzesciowa',
      inv.partialAdvances.map((z) =>
        el([
          ['P_6Z', z.date],
          ['P_15Z', z.amount],
          ['KursWalutyZW', z.exchangeRate],
        ]),
      ),
    ],
    ['FP', flag(inv.forReceipt)],
    ['TP', flag(inv.relatedParties)],
    [
      'DodatkowyOpis',
      inv.additionalInfo.map((d) =>
        el([
          ['NrWiersza', d.lineNumber],
          ['Klucz', d.key],
          ['Wartosc', d.value],
        ]),
      ),
    ],
    [
      'FakturaZaliczkowa',
      inv.advanceInvoices.map((a) =>
        'ksefNumber' in a
          ? el([['NrKSeFFaZaliczkowej', a.ksefNumber]])
          : el([
              ['NrKSeFZN', '1'],
              ['NrFaZaliczkowej', a.number],
            ]),
      ),
    ],
    ['ZwrotAkcyzy', flag(inv.exciseRefund)],
    ['FaWiersz', inv.lines.map(line)],
    [
      'Rozliczenie',
      s &&
        el([
          [
            'Obciazenia',
            s.charges.map((c) =>
              el([
                ['Kwota', c.amount],
                ['Powod', c.reason],
              ]),
            ),
          ],
          ['SumaObciazen', s.chargesTotal],
          [
            'Odliczenia',
            s.deductions.map((c) =>
              el([
                ['Kwota', c.amount],
                ['Powod', c.reason],
              ]),
            ),
          ],
          ['SumaOdliczen', s.deductionsTotal],
          ['DoZaplaty', s.toPay],
          ['DoRozliczenia', s.toPay === undefined ? s.toSettle : undefined],
        ]),
    ],
    ['Platnosc', payment(inv.payment)],
    [
      'WarunkiTransakcji',
      t &&
        el([
          [
            'Umowy',
            t.contracts.map((c) =>
              el([
                ['DataUmowy', c.date],
                ['NrUmowy', c.number],
              ]),
            ),
          ],
          [
            'Zamowienia',
            t.orders.map((c) =>
              el([
                ['DataZamowienia', c.date],
                ['NrZamowienia', c.number],
              ]),
            ),
          ],
          ['NrPartiiTowaru', t.batchNumbers],
          ['WarunkiDostawy', t.deliveryTerms],
        ]),
    ],
    [
      'Zamowienie',
      inv.order &&
        el([
          ['WartoscZamowienia', inv.order.value],
          ['ZamowienieWiersz', inv.order.lines.map(orderLine)],
        ]),
    ],
  ]);
};

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: false,
  processEntities: true,
});

/**
 * The FA(3) XML of an invoice. The input is checked against {@link KsefInvoiceSchema} (a ZodError when it does not
 * fit); the summary is computed from the lines when not given. `now` is DataWytworzeniaFa when the invoice has no
 * `createdAt`.
 */
export function buildFa3(input: KsefInvoiceInput, now: Date = new Date()): string {
  const inv = KsefInvoiceSchema.parse(input);
  const seller = inv.seller;
  const buyer = inv.buyer;
  const faktura = el([
    ['@_xmlns', FA3_NAMESPACE],
    ['@_xmlns:etd', ETD_NAMESPACE],
    [
      'Naglowek',
      el([
        ['KodFormularza', { '#text': 'FA', '@_kodSystemowy': 'FA (3)', '@_wersjaSchemy': '1-0E' }],
        ['WariantFormularza', '3'],
        ['DataWytworzeniaFa', inv.createdAt ?? now.toISOString().replace(/\.\d{3}Z$/, 'Z')],
        ['SystemInfo', inv.systemInfo],
      ]),
    ],
    [
      'Podmiot1',
      el([
        ['PrefiksPodatnika', seller.vatPrefix],
        ['NrEORI', seller.eori],
        [
          'DaneIdentyfikacyjne',
          el([
            ['NIP', seller.nip],
            ['Nazwa', seller.name],
          ]),
        ],
        ['Adres', address(seller.address)],
        ['AdresKoresp', address(seller.correspondenceAddress)],
        ['DaneKontaktowe', contacts(seller.contacts)],
        ['StatusInfoPodatnika', seller.status],
      ]),
    ],
    [
      'Podmiot2',
      el([
        ['NrEORI', buyer.eori],
        ['DaneIdentyfikacyjne', partyId(buyer.id, buyer.name)],
        ['Adres', address(buyer.address)],
        ['AdresKoresp', address(buyer.correspondenceAddress)],
        ['DaneKontaktowe', contacts(buyer.contacts)],
        ['NrKlienta', buyer.customerNumber],
        ['IDNabywcy', buyer.buyerId],
        ['JST', buyer.jst],
        ['GV', buyer.gv],
      ]),
    ],
    [
      'Podmiot3',
      inv.thirdParties.map((p) =>
        el([
          ['IDNabywcy', p.buyerId],
          ['NrEORI', p.eori],
          ['DaneIdentyfikacyjne', partyId(p.id, p.name)],
          ['Adres', address(p.address)],
          ['AdresKoresp', address(p.correspondenceAddress)],
          ['DaneKontaktowe', contacts(p.contacts)],
          ['Rola', p.role],
          ['RolaInna', p.role ? undefined : '1'],
          ['OpisRoli', p.role ? undefined : (p.otherRole ?? 'inna')],
          ['Udzial', p.share],
          ['NrKlienta', p.customerNumber],
        ]),
      ),
    ],
    ['Fa', fa(inv)],
    [
      'Stopka',
      inv.footer &&
        el([
          ['Informacje', inv.footer.texts.map((text) => el([['StopkaFaktury', text]]))],
          [
            'Rejestry',
            inv.footer.registers.map((r) =>
              el([
                ['PelnaNazwa', r.fullName],
                ['KRS', r.krs],
                ['REGON', r.regon],
                ['BDO', r.bdo],
              ]),
            ),
          ],
        ]),
    ],
  ]);
  const body = builder.build({ Faktura: faktura }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}
