import { FEATURE_PERMISSIONS, type FeaturePermission } from '@portal/contracts';
import type { StoredSession } from '../../../app/session/session.ts';
import type { MockReply } from '../../../test/fetch-mock.ts';
import { makeAccessToken, makeTokenSet } from '../../../test/tokens.ts';

export const ALL_FEATURE_PERMISSIONS_FOR_TEST: FeaturePermission[] = [...FEATURE_PERMISSIONS];

export function profileSession(roles: string[] = []): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ roles, exp }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

/** The API answers the profile page needs, for a user holding `permissions`. */
export function profileRoutes(permissions: FeaturePermission[]): Record<string, MockReply> {
  return {
    'GET /api/users/permissions': { body: { permissions, toggles: [] } },
    'GET /api/users/getUserData': {
      body: {
        id: 'user-1',
        email: 'user@demo.example.com',
        firstName: 'Uma',
        lastName: 'User',
        language: 'en',
        telephone: null,
        companyId: 'company-1',
        companyName: 'Demo Supplier',
        roles: [],
      },
    },
    'POST /api/users/updateUserData': { body: { success: true } },
    'POST /api/users/refreshToken': { body: { success: true, token: makeTokenSet({ given_name: 'Ann' }) } },
    'GET /api/users/settings': {
      body: { fileEncoding: 'utf-8', vatAlgorithm: 'invoice-summary', fileNamingFormat: 'DocType_DocNumber' },
    },
    'GET /api/company/profile': {
      body: {
        id: 'company-1',
        name: 'Demo Supplier',
        vatId: 'PL5250001009',
        taxId: null,
        street: null,
        postalCode: null,
        city: 'Warsaw',
        country: 'PL',
        bankAccount: null,
        electronicAddress: null,
        electronicAddressScheme: null,
        signerPost: null,
        signerName: null,
        signerCode: null,
        companyPrefix: null,
        legalForm: null,
        taxSystem: null,
        taxpayerKind: null,
        taxpayerType: null,
      },
    },
    'POST /api/users/setLanguage': { body: { success: true } },
    'GET /api/company/locations': {
      body: {
        items: [
          {
            gln: '5901234000017',
            kind: 'company',
            name: 'Demo Supplier',
            street: null,
            postalCode: null,
            city: null,
            country: null,
            code: null,
            createdAt: '2026-11-16T10:00:00.000Z',
          },
        ],
        nextCursor: null,
        total: 1,
      },
    },
    'GET /api/company/api-keys': { body: { items: [], nextCursor: null } },
  };
}
