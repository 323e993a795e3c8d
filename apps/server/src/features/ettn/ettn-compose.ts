/**
 * The create form of the screens and the note the portal writes from it (plain data, no I/O): the form's answers
 * become a v3 note (transaction 0, the company as consignor), and a despatch advice of the documents feature fills
 * the form. The note is checked and written by the CPU task like any other (`ettn.tasks.ts`, build `compose`).
 */
import type { CanonicalDocument, Party } from '@portal/documents';
import type { EttnComposeDraft, EttnComposeForm, EttnComposeParty } from '@portal/contracts';
import {
  ETTN_BUSINESS_PROCESS,
  ETTN_GENERIC_GUIDELINE,
  isValidEdrpou,
  isValidGln,
  type Address,
  type EttnNote,
  type TradeParty,
} from '@portal/ettn';
import { thousandths, thousandthsText } from '../../lib/thousandths.ts';

/**
 * The consignor as the portal knows the caller's company: its registered alias, its name and its own GLN. The GLN is
 * mandatory (the table's TRADEPARTY_GLN of the party sending transaction 0): the service refuses before composing
 * when the company has none, rather than naming it by a made-up one.
 */
export type ComposeConsignor = { edrpou: string; name: string; gln: string };

/** A one-line address "postcode, city, street" (the form's) as the note's structured address in Ukraine. */
export const addressOf = (line: string): Address => {
  const parts = line
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const postcode = parts[0] !== undefined && /^\d{5}$/.test(parts[0]) ? parts.shift() : undefined;
  const city = parts.shift() ?? line.trim();
  // A line without a street names the place once; the table wants both, so the city stands for the street.
  const street = parts.length ? parts.join(', ') : city;
  return { ...(postcode ? { postcode } : {}), street, city, countryId: 'UA' };
};

const party = (p: EttnComposeParty, roleCode: string, extra: Partial<TradeParty> = {}): TradeParty => ({
  id: p.edrpou,
  idScheme: 'ЄДРПОУ',
  name: p.name,
  roleCode,
  address: addressOf(p.address),
  registrations: [],
  ...extra,
});

/** The note (transaction 0, unsigned) the create form describes, with the caller's company as consignor. */
export const composeNote = (form: EttnComposeForm, consignor: ComposeConsignor): EttnNote => {
  const consignorParty: TradeParty = {
    id: consignor.edrpou,
    idScheme: 'ЄДРПОУ',
    name: consignor.name,
    roleCode: 'CZ',
    registrations: [{ id: consignor.gln, typeCode: 'TRADEPARTY_GLN' }],
  };
  const sum = (values: (string | undefined)[]) =>
    thousandthsText(values.reduce((n, v) => n + thousandths(v ?? '0'), 0n));
  const location = (address: string, katottg: string, typeCode: string, name: string, locationGln: string) => ({
    id: katottg,
    idScheme: 'КАТОТТГ',
    name,
    typeCode,
    description: address,
    gln: locationGln,
  });
  return {
    kind: 'ettn',
    header: {
      transactionId: '0',
      businessProcess: ETTN_BUSINESS_PROCESS,
      guideline: ETTN_GENERIC_GUIDELINE,
      number: form.number,
      // The form asks for a day; the table wants a moment: the start of that day in Kyiv's winter offset.
      issueDateTime: `${form.issueDate}T00:00:00+02:00`,
      issuePlaceName: consignor.name,
      issuePlaceAddress: form.loadingAddress,
      notes: [],
    },
    consignment: {
      grossWeight: sum(form.items.map((i) => i.grossWeightKg)),
      grossWeightUnit: 'KGM',
      amount: sum(form.items.map((i) => i.amount)),
      currency: 'UAH',
      itemQuantity: String(form.items.length),
      consignor: consignorParty,
      consignee: party(form.consignee, 'CN'),
      carrier: party(form.carrier, 'CA', {
        personName: form.driverName,
        taxId: form.driverRnokpp,
        // The licence is the registration without a TypeCode (table 3.6).
        registrations: [{ id: form.driverLicence }],
      }),
      // The customer of the carriage (OB, row 3.8) is mandatory. The form writes the note as the consignor, which
      // orders and pays for the carriage of its own cargo in the usual case (EDIN's sample names the consignor as OB
      // too): a real party of the note, not a stand-in. A note with another customer is uploaded as XML.
      notified: [{ ...consignorParty, roleCode: 'OB' }],
      // The loading place's GLN, when not stated, is the consignor's own (it loads at its premises, as in EDIN's
      // sample); the unloading place's is always stated.
      loading: location(
        form.loadingAddress,
        form.loadingKatottg,
        '10',
        consignor.name,
        form.loadingGln ?? consignor.gln,
      ),
      unloading: location(form.unloadingAddress, form.unloadingKatottg, '5', form.consignee.name, form.unloadingGln),
      referencedDocuments: [],
      delivery: { certifyingParties: [], notes: [] },
      items: form.items.map((item, i) => ({
        sequence: String(i + 1),
        invoiceAmount: item.amount ?? '0',
        currency: 'UAH',
        grossWeight: item.grossWeightKg,
        weightUnit: 'KGM',
        ...(item.uktzed ? { uktzed: item.uktzed } : {}),
        name: item.name,
        packageQuantity: item.quantity,
        ...(item.packageType ? { packageType: item.packageType } : {}),
      })),
      equipment: [
        {
          id: form.vehicle,
          seals: [],
          notes: [
            { code: 'BRAND', content: form.vehicleBrand },
            { code: 'MODEL', content: form.vehicleModel },
          ],
        },
      ],
      transportTypeCode: 'TRANSPORTATION_TYPE',
    },
    signatures: [],
  };
};

// --- from a despatch advice -----------------------------------------------------------------------------------------

const DECIMAL = /^\d{1,12}(\.\d{1,3})?$/;
const decimalOf = (value: string | undefined) => (value !== undefined && DECIMAL.test(value) ? value : undefined);

const addressLineOf = (p: Party | undefined): string | undefined => {
  if (!p) return undefined;
  const line = [p.postalCode, p.city, p.street].filter(Boolean).join(', ') || (p.addressLines ?? []).join(', ');
  return line.trim().slice(0, 500) || undefined;
};

/** A party's EDRPOU, when it gives an 8-digit code whose check digit holds (its tax number or its identifier). */
const edrpouOf = (p: Party | undefined): string | undefined =>
  [p?.taxId, p?.id?.value].find((v): v is string => v !== undefined && isValidEdrpou(v.trim()))?.trim();

/** A party's GLN, when it is identified by one whose check digit holds. */
const glnOf = (p: Party | undefined): string | undefined => {
  const gln = p?.gln?.trim();
  return gln !== undefined && isValidGln(gln) ? gln : undefined;
};

const defined = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * The create form as far as a despatch advice (DESADV) fills it: its number and date, the lines (description,
 * despatched quantity, a weight in KGM when a line states one), the consignee from the buyer and the delivery point
 * (the delivery point's address where the goods go), the supplier's address as the loading place, and the places'
 * GLNs when the parties are identified by one. The КАТОТТГ codes, the driver and the truck are not in a DESADV.
 */
export const draftFromDespatchAdvice = (body: CanonicalDocument): EttnComposeDraft => {
  const role = (...roles: string[]) =>
    roles.map((r) => body.parties.find((p) => p.role === r)).find((p) => p !== undefined);
  const buyer = role('BY', 'UC', 'ST', 'DP');
  const delivery = role('DP', 'ST', 'UC', 'BY');
  const supplier = role('SF', 'SU');
  const date = body.header.dates.find((d) => d.qualifier === '137') ?? body.header.dates[0];
  const issueDate = date && /^\d{4}-\d{2}-\d{2}/.test(date.value) ? date.value.slice(0, 10) : undefined;
  const consignee = defined({
    edrpou: edrpouOf(buyer),
    name: (buyer?.name ?? delivery?.name)?.slice(0, 255),
    address: addressLineOf(delivery) ?? addressLineOf(buyer),
  });
  return defined({
    number: body.header.number?.slice(0, 50),
    issueDate,
    consignee: Object.keys(consignee).length ? consignee : undefined,
    loadingAddress: addressLineOf(supplier),
    loadingGln: glnOf(supplier),
    unloadingAddress: addressLineOf(delivery) ?? addressLineOf(buyer),
    unloadingGln: glnOf(delivery),
    items: body.lines
      .filter((l) => l.parentLineNumber === undefined)
      .slice(0, 200)
      .map((l) => {
        const quantity = l.quantities.find((q) => q.qualifier === '12') ?? l.quantities[0];
        const weight = l.quantities.find((q) => q.unit === 'KGM');
        return defined({
          name: (l.description ?? l.gtin ?? l.supplierArticleNumber ?? l.buyerArticleNumber)?.slice(0, 255),
          quantity: decimalOf(quantity?.value),
          grossWeightKg: decimalOf(weight?.value),
        });
      }),
  }) as EttnComposeDraft;
};
