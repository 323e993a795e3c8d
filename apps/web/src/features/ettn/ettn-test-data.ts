import type { AliasRegistrationResponse, EttnListItem, EttnView } from '@portal/contracts';
import type { StoredSession } from '../../app/session/session.ts';
import type { MockHandler, MockReply } from '../../test/fetch-mock.ts';
import { makeAccessToken } from '../../test/tokens.ts';

export const NOTE_ID = '66666666-6666-4666-8666-666666666666';
export const NOTE_ID_2 = '77777777-7777-4777-8777-777777777777';

export function ettnSession(roles: string[] = ['ettn', 'ETTN_CA']): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ exp, roles }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

const party = (role: string, name: string, edrpou: string) => ({ role, name, edrpou, address: null, person: null });

export function ettnItem(overrides: Partial<EttnListItem> = {}): EttnListItem {
  return {
    id: NOTE_ID,
    number: 'TTN-0001',
    issueDate: '2026-11-20',
    status: 'PLANNED',
    consignor: party('CZ', 'Demo Supplier', '14360570'),
    consignee: party('CN', 'Demo Retailer', '00032129'),
    carrier: party('CA', 'Demo Transport', '32855961'),
    vehicle: 'AA1234BB',
    route: { from: 'Kyiv', to: 'Lviv' },
    currentStep: 'pickup_sign',
    mustAct: ['CA'],
    myRoles: ['CA'],
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function ettnView(overrides: Partial<EttnView> = {}): EttnView {
  return {
    processId: NOTE_ID,
    documentId: '88888888-8888-4888-8888-888888888888',
    isPending: false,
    kind: 'ettn',
    actType: null,
    number: 'TTN-0001',
    issueDateTime: '2026-11-20T08:00:00.000Z',
    status: 'PICKUP',
    processDocumentStatus: 'OK',
    version: 2,
    currentStep: 'arrival_sign',
    mustAct: ['CN'],
    myRoles: ['CA'],
    parties: [
      { ...party('CZ', 'Demo Supplier', '14360570'), address: 'Kyiv, Khreshchatyk 1', person: 'Olena Shevchenko' },
      party('CN', 'Demo Retailer', '00032129'),
      party('CA', 'Demo Transport', '32855961'),
    ],
    route: {
      loading: { name: 'Kyiv warehouse', description: null },
      unloading: { name: 'Lviv store', description: null },
    },
    items: [
      {
        sequence: '1',
        name: 'Sunflower oil',
        uktzed: '1512',
        grossWeight: '1200',
        weightUnit: 'kg',
        packageQuantity: '10',
        packageType: 'pallet',
        amount: '50000',
        currency: 'UAH',
      },
    ],
    vehicles: [{ id: 'AA1234BB', category: 'truck', seals: ['S-001', 'S-002'], brand: 'Volvo', model: 'FH' }],
    signatures: [
      {
        roleCode: 'CZ',
        signerName: 'Olena Shevchenko',
        signedAt: '2026-11-20T08:05:00.000Z',
        transactionNo: 1,
        verified: true,
        signerKind: 'user',
      },
      {
        roleCode: 'CA',
        signerName: 'Taras Carrier',
        signedAt: '2026-11-20T12:00:00.000Z',
        transactionNo: 2,
        verified: true,
        signerKind: 'user',
      },
    ],
    acts: [
      {
        documentId: '99999999-9999-4999-8999-999999999999',
        type: 'DisagreementAct',
        status: 'SIGNATURE_PENDING',
        route: ['CN', 'CA'],
        signedBy: ['CN'],
        nextSigner: 'CA',
        createdAt: '2026-11-20T13:00:00.000Z',
      },
    ],
    transactions: [],
    history: [
      {
        entityType: 'ettn',
        entityId: NOTE_ID,
        ettnId: NOTE_ID,
        entityStatus: 'PLANNED',
        timestamp: '2026-11-20T08:06:00.000Z',
        documentId: '88888888-8888-4888-8888-888888888888',
        actorIdentifier: '14360570',
      },
    ],
    supportingDocuments: [],
    ...overrides,
  };
}

/** The answers of an e-TTN user's pages: the permission, one page of notes, the view. */
export function ettnRoutes(
  routes: Record<string, MockHandler | MockReply> = {},
): Record<string, MockHandler | MockReply> {
  return {
    'GET /api/users/permissions': { body: { permissions: ['ETTN', 'INBOX_READ'], toggles: ['ETTN'] } },
    'GET /api/ettns': { body: { items: [ettnItem()], nextCursor: null } },
    'GET /api/ettns/pending': { body: { items: [], nextCursor: null } },
    'POST /api/ettns/documentView': { body: ettnView() },
    ...routes,
  };
}

export const refusal = (code: string, status = 409): MockReply => ({
  status,
  body: { error: { code, message: `refused ${code}` }, requestId: 'req-1' },
});

const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

/** The company's aliases and subscriptions: one active, one expiring in 10 days, one expired. */
export function aliasRegistration(): AliasRegistrationResponse {
  return {
    aliases: [
      {
        qualifier: 'EDRPOU',
        value: '32855961',
        registeredAt: inDays(-200),
        expiresAt: inDays(165),
        isRegistered: true,
      },
      { qualifier: 'EDRPOU', value: '14360570', registeredAt: inDays(-355), expiresAt: inDays(10), isRegistered: true },
      {
        qualifier: 'EDRPOU',
        value: '00032129',
        registeredAt: inDays(-400),
        expiresAt: inDays(-35),
        isRegistered: false,
      },
    ],
    subscriptions: [
      {
        id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
        aliasQualifier: 'EDRPOU',
        aliasValue: '14360570',
        startDate: inDays(-355),
        expiresAt: inDays(10),
        expired: false,
      },
    ],
    expiresSoon: inDays(10),
  };
}
