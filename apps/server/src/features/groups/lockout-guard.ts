import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { lockCompany } from '../companies/companies.service.ts';
import type { UsersService } from '../users/users.service.ts';

/**
 * Runs a change of a company's users or groups in one transaction, serialised per company, and refuses it (409,
 * rolled back) when it would leave the company with nobody who can still manage users and groups, so a company
 * cannot lock itself out. A company that already has nobody is not blocked from other changes.
 */
export async function guardedChange<T>(
  db: Db,
  users: Pick<UsersService, 'countManagers'>,
  companyId: string,
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await lockCompany(companyId, tx);
    const before = await users.countManagers(companyId, tx);
    const result = await change(tx);
    if (before > 0 && (await users.countManagers(companyId, tx)) === 0) {
      throw new AppError('user_management.would_lock_out', {
        message: 'The change would leave the company without a user holding USERS_MODIFY and GROUPS_MODIFY',
      });
    }
    return result;
  });
}
