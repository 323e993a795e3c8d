import type { AdminCompanyDetail, AdminUser } from '@portal/contracts';
import type { StoredSession } from '../../app/session/session.ts';
import { makeAccessToken } from '../../test/tokens.ts';

/** Fixtures of the admin component tests. */
export const COMPANY_ID = '0b7e2a52-6f44-4c1e-9a51-2f0d3c4b5a61';

export function adminSession(): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return {
    accessToken: makeAccessToken({ sub: 'admin-1', email: 'admin@demo.example.com', roles: ['admin'], exp }),
    refreshToken: 'refresh-admin',
    refreshExpiresAt: exp + 1500,
  };
}

export function company(overrides: Partial<AdminCompanyDetail> = {}): AdminCompanyDetail {
  return {
    id: COMPANY_ID,
    name: 'Demo Retailer',
    vatId: 'DE811907980',
    taxId: null,
    country: 'DE',
    loginStatus: 'OK',
    restrictionWaitTime: null,
    restrictionWorkingTime: null,
    restrictionWorkingStart: null,
    restrictionMessage: null,
    toggles: ['ENRICHMENT'],
    overduePayment: false,
    userCount: 2,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    groups: [],
    ...overrides,
  };
}

export function adminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: '5d1f7a0e-3c2b-4e8f-9a6d-1b2c3d4e5f60',
    email: 'user@demo.example.com',
    firstName: 'Uma',
    lastName: 'User',
    language: 'en',
    roles: [],
    companyId: COMPANY_ID,
    companyName: 'Demo Retailer',
    emailVerifiedAt: '2026-01-05T10:00:00.000Z',
    disabledAt: null,
    hasPassword: true,
    createdAt: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}
