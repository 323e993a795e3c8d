/**
 * e-TTN notes for the API tests: Demo Supplier (consignor, EDRPOU 14360570) to Demo Retailer (consignee, 00032129),
 * carried by Demo Transport (32855961), as the demo's aliases name them; identifiers whose check digits hold. Also the
 * test app with those three parties logged in, and the calls of its /api/ettns routes.
 */
import {
  createDemoCredential,
  DemoSigner,
  ETTN_BUSINESS_PROCESS,
  ETTN_GENERIC_GUIDELINE,
  noteDocument,
  signDocument,
  withSignatures,
  writeEttn,
  type EttnNote,
  type TradeParty,
} from '@portal/ettn';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

/** The users of the demo's three parties: Demo Supplier, Demo Retailer and Demo Transport. */
export const SUPPLIER = { login: 'user@demo.example.com', password: 'User#Demo2026' };
export const RETAILER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
export const CARRIER = { login: 'carrier@demo.example.com', password: 'Carrier#Demo2026' };
/** An id nothing has. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * A test app for e-TTN (access tokens valid for an hour: the tests move the clock), `env` added to its configuration,
 * with the access tokens of Demo Supplier, Demo Retailer and Demo Transport.
 */
export async function ettnApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; supplier: string; retailer: string; carrier: string }> {
  const t = await createTestApp({ accessTtlSeconds: 3600, env });
  try {
    const supplier = (await login(t.app, SUPPLIER)).access_token;
    const retailer = (await login(t.app, RETAILER)).access_token;
    const carrier = (await login(t.app, CARRIER)).access_token;
    return { t, supplier, retailer, carrier };
  } catch (error) {
    await t.close();
    throw error;
  }
}

export type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
/** The code of a refusal. */
export const code = (res: Res) => (res.json() as { error?: { code: string } }).error?.code;

/**
 * The calls of the /api/ettns routes on the app `app()` returns (read at each call: the file's beforeAll makes it):
 * `post` a JSON body, `get` a path after /api/ettns (`''`, `'?…'` or `'/…'`), and `form`, a multipart body as a browser
 * sends it: the fields and, when given, one `file` part (XML unless its type says otherwise).
 */
export function ettnCalls(app: () => TestApp) {
  const post = (url: string, token: string, payload: unknown) =>
    app().app.inject({ method: 'POST', url: `/api/ettns/${url}`, headers: bearer(token), payload: payload as object });
  const get = (path: string, token: string) =>
    app().app.inject({ method: 'GET', url: `/api/ettns${path}`, headers: bearer(token) });
  async function form(
    url: string,
    token: string,
    fields: Record<string, string>,
    file?: { name: string; content: string | Uint8Array; type?: string },
  ) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    if (file) {
      const content = typeof file.content === 'string' ? file.content : new Uint8Array(file.content);
      body.append('file', new Blob([content], { type: file.type ?? 'application/xml' }), file.name);
    }
    const request = new Request('http://x', { method: 'POST', body });
    return app().app.inject({
      method: 'POST',
      url: `/api/ettns/${url}`,
      headers: { 'content-type': request.headers.get('content-type')!, ...bearer(token) },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }
  return { post, get, form };
}

const address = (city: string): TradeParty['address'] => ({
  postcode: '01001',
  street: 'вул. Хрещатик, 22',
  city,
  countryId: 'UA',
});

export const demoNote = (
  overrides: { number?: string; consignee?: string; carrier?: string; items?: number } = {},
): EttnNote => ({
  kind: 'ettn',
  header: {
    transactionId: '0',
    businessProcess: ETTN_BUSINESS_PROCESS,
    guideline: ETTN_GENERIC_GUIDELINE,
    number: overrides.number ?? 'TTN-2026-0001',
    issueDateTime: '2026-11-16T10:15:00+02:00',
    issuePlaceName: 'Склад Demo Supplier',
    issuePlaceAddress: 'Київ, вул. Хрещатик, 22',
    notes: [],
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
      name: 'Demo Supplier',
      roleCode: 'CZ',
      address: address('Київ'),
      registrations: [{ id: '9864065741329', typeCode: 'TRADEPARTY_GLN' }],
    },
    consignee: {
      id: overrides.consignee ?? '00032129',
      idScheme: 'ЄДРПОУ',
      name: 'Demo Retailer',
      roleCode: 'CN',
      address: address('Львів'),
      registrations: [{ id: '9864065737957', typeCode: 'TRADEPARTY_GLN' }],
    },
    carrier: {
      id: overrides.carrier ?? '32855961',
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
    items: Array.from({ length: overrides.items ?? 1 }, (_, i) => ({
      sequence: String(i + 1),
      invoiceAmount: '48000.00',
      currency: 'UAH',
      grossWeight: '1250.5',
      weightUnit: 'KGM',
      uktzed: '0401201100',
      name: 'Молоко 2,5 %',
      packageQuantity: '12',
      packageType: 'палета',
    })),
    equipment: [
      {
        id: 'АА1234ВВ',
        seals: ['SEAL-001'],
        notes: [
          { code: 'BRAND', content: 'Volvo' },
          { code: 'MODEL', content: 'FH' },
        ],
      },
    ],
    transportTypeDescription: 'міжміські перевезення',
    transportTypeCode: 'TRANSPORTATION_TYPE',
  },
  signatures: [],
});

export const noteXml = (note: EttnNote = demoNote()): string => writeEttn(noteDocument(note));

/** The note signed by a consignor's own demo credential, valid at `at` (the test clock). */
export async function signedNoteXml(note: EttnNote, at: Date): Promise<string> {
  const credential = await createDemoCredential(
    { name: 'Outside Signer', organization: 'Demo Supplier' },
    { notBefore: new Date(at.getTime() - 86_400_000) },
  );
  const document = noteDocument(note);
  const entry = await signDocument(new DemoSigner(credential), document, {
    role: 'CZ',
    signingTime: at,
    name: 'Outside Signer',
  });
  return writeEttn(withSignatures(document, [entry]));
}
