import {
  FEATURE_PERMISSIONS,
  type DocumentCodes,
  type DocumentDetail,
  type DocumentListItem,
  type FeaturePermission,
} from '@portal/contracts';
import type { StoredSession } from '../../app/session/session.ts';
import { makeAccessToken } from '../../test/tokens.ts';

export function signedIn(): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ exp }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

export const DOC_ID = '44444444-4444-4444-8444-444444444444';

export function listItem(overrides: Partial<DocumentListItem> = {}): DocumentListItem {
  return {
    id: DOC_ID,
    direction: 'in',
    documentNumber: 'PO-1001',
    documentReferenceNumber: null,
    ksefNumber: null,
    documentKind: 'order',
    documentType: 'ORDERS',
    functionCode: '9',
    messageType: 'ORDERS',
    messageCategory: null,
    partnerId: null,
    partnerGln: '4012345000016',
    partnerName: 'Demo Retailer',
    deliveryPointName: null,
    deliveryPointGln: '4012345000023',
    expectedDeliveryDate: '2026-12-01',
    businessDate: '2026-11-20',
    timestamp: '2026-11-20T10:00:00.000Z',
    status: 'received',
    processingStatus: 'OK',
    businessStatus: null,
    additionalStatus: null,
    standard: 'edifact',
    version: 'D96A',
    test: false,
    ...overrides,
  };
}

export function detail(overrides: Partial<DocumentDetail> = {}): DocumentDetail {
  return {
    ...listItem({ status: 'read' }),
    buyerTaxId: null,
    sellerTaxId: null,
    interchangeId: '55555555-5555-4555-8555-555555555555',
    body: {
      kind: 'order',
      header: {
        number: 'PO-1001',
        documentNameCode: '220',
        functionCode: '9',
        dates: [{ qualifier: '137', type: 'date', value: '2026-11-20' }],
        texts: [],
      },
      references: [{ qualifier: 'CT', value: 'K-77' }],
      parties: [
        { role: 'BY', gln: '4012345000016', name: 'Demo Retailer' },
        { role: 'SU', gln: '5901234000017', name: 'Demo Supplier' },
      ],
      currency: 'EUR',
      paymentTerms: [],
      lines: [
        {
          lineNumber: '1',
          gtin: '4000862141404',
          description: 'Apple juice 1 l',
          quantities: [{ qualifier: '21', value: '10', unit: 'PCE' }],
          prices: [{ qualifier: 'AAA', value: '1.25' }],
          amounts: [{ qualifier: '203', value: '12.50' }],
        },
        {
          lineNumber: '2',
          gtin: '4000862141411',
          description: 'Orange juice 1 l',
          quantities: [{ qualifier: '21', value: '4', unit: 'PCE' }],
          prices: [{ qualifier: 'AAA', value: '1.40' }],
          amounts: [{ qualifier: '203', value: '5.60' }],
        },
      ],
      allowances: [],
      taxes: [],
      totals: [],
      packages: [],
      errors: [],
    },
    findings: [],
    history: [
      { field: 'status', from: null, to: 'received', userId: null, at: '2026-11-20T10:00:00.000Z', reason: 'routed' },
      {
        field: 'status',
        from: 'received',
        to: 'read',
        userId: 'u',
        at: '2026-11-20T11:00:00.000Z',
        reason: 'asked by the buyer',
      },
    ],
    links: [],
    ...overrides,
  };
}

export const ORIGINAL =
  "UNA:+.? 'UNB+UNOC:3+4012345000016:14+5901234000017:14+261120:1000+1'UNH+1+ORDERS:D:96A:UN:EAN008'BGM+220+PO-1001+9'UNT+3+1'UNZ+1+1'";

/** What `GET /api/documents/:id/codes` answers for the test order: D96A's names of its codes and segments. */
export const CODES: DocumentCodes = {
  directory: 'D96A',
  codeNames: {
    '1001': { '220': 'Order' },
    '1225': { '9': 'Original' },
    '2005': { '137': 'Document/message date/time' },
    '1153': { CT: 'Contract number' },
    '3035': { BY: 'Buyer', SU: 'Supplier' },
    '6411': { PCE: 'Piece' },
  },
  segments: {
    BGM: {
      name: 'BEGINNING OF MESSAGE',
      elements: [
        {
          id: 'C002',
          name: 'DOCUMENT/MESSAGE NAME',
          components: [
            { id: '1001', name: 'Document/message name, coded' },
            { id: '1131', name: 'Code list qualifier' },
          ],
        },
        { id: '1004', name: 'Document/message number' },
        { id: '1225', name: 'Message function, coded' },
      ],
    },
  },
};

/** The answers the documents screens need, with a column store that keeps what is saved. */
export function documentsRoutes(options: { permissions?: FeaturePermission[]; items?: DocumentListItem[] } = {}) {
  const saved: Record<string, string[]> = {};
  return {
    saved,
    routes: {
      'GET /api/users/permissions': {
        body: { permissions: options.permissions ?? [...FEATURE_PERMISSIONS], toggles: [] },
      },
      'GET /api/documents': { body: { items: options.items ?? [listItem()], nextCursor: null, total: 1 } },
      [`GET /api/documents/${DOC_ID}/codes`]: { body: CODES },
      // The order alone: no document refers to it yet.
      [`GET /api/documents/${DOC_ID}/chain`]: {
        body: {
          items: [
            {
              id: DOC_ID,
              kind: 'order',
              documentType: 'ORDERS',
              number: 'PO-1',
              direction: 'in',
              status: 'read',
              businessStatus: 'new_order',
              additionalStatus: null,
              businessDate: '2026-11-20',
              timestamp: '2026-11-20T10:00:00.000Z',
            },
          ],
        },
      },
      'POST /api/users/getColumns': ({ body }: { body: unknown }) => {
        const list = (body as { list: string }).list;
        const columns = saved[list];
        return {
          body: columns
            ? { list, columns, saved: true }
            : {
                list,
                columns: [
                  'DocumentNumber',
                  'PartnerName',
                  'DeliveryPointIln',
                  'DocumentBusinessDate',
                  'WebDocumentTimeStamp',
                  'Status',
                ],
                saved: false,
              },
        };
      },
      'PUT /api/users/setColumns': ({ body }: { body: unknown }) => {
        const { list, columns } = body as { list: string; columns: string[] };
        saved[list] = columns;
        return { body: { list, columns, saved: true } };
      },
      [`GET /api/documents/${DOC_ID}`]: { body: detail() },
    },
  };
}
