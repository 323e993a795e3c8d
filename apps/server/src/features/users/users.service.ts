import type { UserStatus } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { createUsersRepository } from './users.repository.ts';

export type {
  CompanyUserRow,
  NewUser,
  UserFilters,
  UserKey,
  UserPageRow,
  UserRow,
  UserWithCompanyName,
} from './users.repository.ts';

/** A user as user management lists it: disabled, invited (no password yet) or active. */
export function statusOf(row: { passwordHash: string | null; disabledAt: Date | null }): UserStatus {
  if (row.disabledAt) return 'disabled';
  return row.passwordHash ? 'active' : 'invited';
}

export type UsersService = ReturnType<typeof createUsersService>;

/**
 * The owner of the `users` table: every other feature reads and writes users through this service, passing its
 * transaction where it has one (decision 0013).
 */
export function createUsersService(deps: { db: Db }) {
  return createUsersRepository(deps.db);
}
