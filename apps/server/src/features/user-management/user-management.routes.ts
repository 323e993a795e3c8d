import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import type { MailService } from '../mail/mail.service.ts';
import { companyUsersRoutes } from './company-users.routes.ts';
import { createCompanyUsersService } from './company-users.service.ts';
import { groupsRoutes } from './groups.routes.ts';
import { createGroupsService } from './groups.service.ts';
import { createUserManagementRepository } from './user-management.repository.ts';

/** User management of a company: its users and invitations (`/company-users`) and its groups (`/groups`). */
export function userManagementRoutes(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  mail: MailService;
  authRepo: AuthRepository;
  publicUrl: string;
}): FastifyPluginAsyncZod {
  const repo = createUserManagementRepository(deps.db);
  const users = createCompanyUsersService({ ...deps, repo });
  const groups = createGroupsService({ db: deps.db, repo, audit: deps.audit, clock: deps.clock });
  return async (app) => {
    await app.register(companyUsersRoutes(users));
    await app.register(groupsRoutes(groups));
  };
}
