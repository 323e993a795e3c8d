/**
 * A note as the portal writes it: Demo Supplier (consignor) to Demo Retailer (consignee), carried by Demo Transport
 * (EDRPOU 32855961), with identifiers whose check digits hold. The tests' own data: nothing from ../shared.
 */
import { ETTN_BUSINESS_PROCESS, ETTN_GENERIC_GUIDELINE, type EttnNote, type TradeParty } from '../src/model.ts';

const address = (city: string): TradeParty['address'] => ({
  postcode: '01001',
  street: 'вул. Хрещатик, 22',
  city,
  countryId: 'UA',
});

export const demoNote = (): EttnNote => ({
  kind: 'ettn',
  header: {
    transactionId: '0',
    businessProcess: ETTN_BUSINESS_PROCESS,
    guideline: ETTN_GENERIC_GUIDELINE,
    number: 'TTN-2026-0001',
    issueDateTime: '2026-11-27T10:15:00+02:00',
    issuePlaceName: 'Склад Demo Supplier',
    issuePlaceAddress: 'Київ, вул. Хрещатик, 22',
    notes: [{ code: '5', agency: 'transportation_max_temperature', content: 'CZ' }],
  },
  consignment: {
    grossWeight: '1250.5',
    grossWeightUnit: 'KGM',
    amount: '48000.00',
    currency: 'UAH',
    itemQuantity: '12',
    consignor: {
      id: '14360570',
      idScheme: 'ЄДРПОУ',
      name: 'Demo Supplier & Co <TOB>',
      roleCode: 'CZ',
      address: address('Київ'),
      registrations: [{ id: '9864065741329', typeCode: 'TRADEPARTY_GLN' }],
    },
    consignee: {
      id: '00032129',
      idScheme: 'ЄДРПОУ',
      name: 'Demo Retailer',
      roleCode: 'CN',
      address: address('Львів'),
      registrations: [{ id: '9864065737957', typeCode: 'TRADEPARTY_GLN' }],
    },
    carrier: {
      id: '32855961',
      idScheme: 'ЄДРПОУ',
      name: 'Demo Transport',
      roleCode: 'CA',
      personName: 'Іван Водій',
      phone: '380441234567',
      address: address('Київ'),
      taxId: '3184710691',
      registrations: [{ id: 'ВХС123456' }, { id: '9864065745709', typeCode: 'TRADEPARTY_GLN' }],
    },
    notified: [
      {
        id: '12345678',
        idScheme: 'ЄДРПОУ',
        name: 'Demo Customer',
        roleCode: 'OB',
        address: address('Київ'),
        registrations: [],
      },
    ],
    loading: {
      id: 'UA80000000000875983',
      idScheme: 'КАТОТТГ',
      name: 'Склад відправника',
      typeCode: '10',
      description: 'Україна, м. Київ, вул. Хрещатик, 22',
      latitude: '50.4501',
      longitude: '30.5234',
      gln: '9864065741015',
    },
    unloading: {
      id: 'UA46060250010015970',
      idScheme: 'КАТОТТГ',
      name: 'Магазин одержувача',
      typeCode: '5',
      description: 'Україна, м. Львів, пл. Ринок, 1',
      gln: '9864065741022',
    },
    referencedDocuments: [],
    delivery: { certifyingParties: [], notes: [] },
    items: [
      {
        sequence: '1',
        invoiceAmount: '48000.00',
        currency: 'UAH',
        grossWeight: '1250.5',
        weightUnit: 'KGM',
        uktzed: '0401201100',
        name: 'Молоко 2,5 %',
        packageQuantity: '12',
        packageType: 'палета',
      },
    ],
    equipment: [
      {
        id: 'АА1234ВВ',
        seals: ['SEAL-001'],
        notes: [
          { code: 'BRAND', content: 'Volvo' },
          { code: 'MODEL', content: 'FH' },
        ],
      },
      {
        id: 'АА5678ХХ',
        categoryCode: 'TE',
        characteristicCode: '17',
        seals: [],
        notes: [
          { code: 'BRAND', content: 'Schmitz' },
          { code: 'MODEL', content: 'S.KO' },
        ],
      },
    ],
    transportTypeDescription: 'міжміські перевезення',
    transportTypeCode: 'TRANSPORTATION_TYPE',
  },
  signatures: [],
});
