import { FEATURE_PERMISSIONS, type CompanyUser, type FeaturePermission } from '@portal/contracts';
import type { StoredSession } from '../../../app/session/session.ts';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { makeAccessToken } from '../../../test/tokens.ts';

export const ALL_PERMISSIONS: FeaturePermission[] = [...FEATURE_PERMISSIONS];

export function signedIn(): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ exp }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

export const GROUP_ADMINS = { id: '11111111-1111-4111-8111-111111111111', name: 'Administrators' };
export const GROUP_INBOX = { id: '22222222-2222-4222-8222-222222222222', name: 'Inbox readers' };

export function companyUser(overrides: Partial<CompanyUser> = {}): CompanyUser {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    email: 'uma@demo.example.com',
    firstName: 'Uma',
    lastName: 'User',
    telephone: null,
    language: 'en',
    status: 'active',
    groups: [GROUP_ADMINS],
    lastLoginAt: '2026-01-05T10:00:00.000Z',
    createdAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export function groupRow(group: { id: string; name: string }, permissions: FeaturePermission[], memberCount = 1) {
  return { ...group, permissions, memberCount, createdAt: '2026-01-01T10:00:00.000Z' };
}

/** Answers of the user-management API for a user holding `permissions`. */
export function userManagementRoutes(permissions: FeaturePermission[]): Record<string, MockHandler | MockReply> {
  return {
    'GET /api/users/permissions': { body: { permissions, toggles: [] } },
    'GET /api/groups': {
      body: {
        items: [groupRow(GROUP_ADMINS, ALL_PERMISSIONS, 2), groupRow(GROUP_INBOX, ['INBOX_READ'], 1)],
        nextCursor: null,
        total: 2,
      },
    },
    'GET /api/company-users': { body: { items: [companyUser()], nextCursor: null, total: 1 } },
    'GET /api/restrictions': { body: { items: [], nextCursor: null, total: 0 } },
  };
}
