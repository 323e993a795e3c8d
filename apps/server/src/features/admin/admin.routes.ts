import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CompanyGlnParamsSchema,
  CompanyLocationPageSchema,
  CompanyLocationRequestSchema,
  CompanyLocationSchema,
  CompanyLocationsQuerySchema,
  AdminAuditPageSchema,
  AdminAuditQuerySchema,
  AdminCompaniesQuerySchema,
  AdminCompanyDetailSchema,
  AdminCompanyPageSchema,
  AdminCompanySchema,
  AdminEmailPageSchema,
  AdminEmailsQuerySchema,
  AdminUserPageSchema,
  type AdminUser,
  AdminUserSchema,
  AdminUsersQuerySchema,
  CompanyStatusRequestSchema,
  CompanyTogglesRequestSchema,
  CreateCompanyRequestSchema,
  CreateUserRequestSchema,
  IdParamsSchema,
  OverduePaymentRequestSchema,
  SetRolesRequestSchema,
  UpdateCompanyRequestSchema,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { principalOf, requireRole } from '../../plugins/auth.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { CompaniesService } from '../companies/companies.service.ts';
import type { GroupsService } from '../groups/groups.service.ts';
import type { MailService } from '../mail/mail.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { createAdminService, type AdminCaller } from './admin.service.ts';

const caller = (request: FastifyRequest): AdminCaller => {
  const p = principalOf(request);
  return { userId: p.userId, email: p.email, ip: request.ip };
};

/** The admin area's API: companies, users across companies, the e-mail and audit logs. Admins only. */
export function adminRoutes(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  auth: AuthService;
  companies: CompaniesService;
  users: UsersService;
  groups: GroupsService;
  mail: MailService;
}): FastifyPluginAsyncZod {
  const service = createAdminService(deps);
  return async (app) => {
    // Before body validation, so a non-admin learns nothing about the input rules.
    app.addHook('onRequest', requireRole('admin'));
    const companies = ['admin', 'admin-companies'];
    const users = ['admin', 'admin-users'];
    const logs = ['admin', 'admin-logs'];

    // Companies ---------------------------------------------------------------------------------------------------

    app.get('/admin/companies', {
      schema: {
        tags: companies,
        summary: 'Companies by name, with search',
        querystring: AdminCompaniesQuerySchema,
        response: { 200: AdminCompanyPageSchema },
      },
      handler: (request) => service.listCompanies(request.query),
    });

    app.get('/admin/companies/:id', {
      schema: {
        tags: companies,
        summary: 'One company with its groups',
        params: IdParamsSchema,
        response: { 200: AdminCompanyDetailSchema },
      },
      handler: (request) => service.getCompany(request.params.id),
    });

    app.post('/admin/companies', {
      schema: {
        tags: companies,
        summary: 'Create a company (with an "Administrators" group holding every permission but e-TTN)',
        body: CreateCompanyRequestSchema,
        response: { 200: AdminCompanyDetailSchema },
      },
      handler: (request) => service.createCompany(caller(request), request.body),
    });

    app.patch('/admin/companies/:id', {
      schema: {
        tags: companies,
        summary: "Change a company's name, VAT id, tax id or country",
        params: IdParamsSchema,
        body: UpdateCompanyRequestSchema,
        response: { 200: AdminCompanySchema },
      },
      handler: (request) => service.updateCompany(caller(request), request.params.id, request.body),
    });

    app.put('/admin/companies/:id/status', {
      schema: {
        tags: companies,
        summary: "Set a company's login status and restriction (takes effect at once)",
        params: IdParamsSchema,
        body: CompanyStatusRequestSchema,
        response: { 200: AdminCompanySchema },
      },
      handler: (request) => service.setCompanyStatus(caller(request), request.params.id, request.body),
    });

    app.put('/admin/companies/:id/toggles', {
      schema: {
        tags: companies,
        summary: "Replace a company's feature toggles",
        params: IdParamsSchema,
        body: CompanyTogglesRequestSchema,
        response: { 200: AdminCompanySchema },
      },
      handler: (request) => service.setCompanyToggles(caller(request), request.params.id, request.body.toggles),
    });

    app.put('/admin/companies/:id/overdue-payment', {
      schema: {
        tags: companies,
        summary: 'Mark a company as having an overdue payment (shows the payment reminder)',
        params: IdParamsSchema,
        body: OverduePaymentRequestSchema,
        response: { 200: AdminCompanySchema },
      },
      handler: (request) => service.setOverduePayment(caller(request), request.params.id, request.body.overduePayment),
    });

    // GLNs and delivery points of a company ------------------------------------------------------------------------

    app.get('/admin/companies/:id/locations', {
      schema: {
        tags: companies,
        summary: "A company's GLNs and delivery points: company GLNs first, then by GLN",
        params: IdParamsSchema,
        querystring: CompanyLocationsQuerySchema,
        response: { 200: CompanyLocationPageSchema },
      },
      handler: (request) => service.listLocations(request.params.id, request.query),
    });

    app.post('/admin/companies/:id/locations', {
      schema: {
        tags: companies,
        summary: 'Add a GLN or delivery point to a company (a GLN belongs to at most one company)',
        params: IdParamsSchema,
        body: CompanyLocationRequestSchema,
        response: { 201: CompanyLocationSchema },
      },
      handler: async (request, reply) =>
        reply.code(201).send(await service.addLocation(caller(request), request.params.id, request.body)),
    });

    app.put('/admin/companies/:id/locations/:gln', {
      schema: {
        tags: companies,
        summary: "Replace one of a company's GLNs or delivery points",
        params: CompanyGlnParamsSchema,
        body: CompanyLocationRequestSchema,
        response: { 200: CompanyLocationSchema },
      },
      handler: (request) =>
        service.updateLocation(caller(request), request.params.id, request.params.gln, request.body),
    });

    app.delete('/admin/companies/:id/locations/:gln', {
      schema: {
        tags: companies,
        summary: "Delete one of a company's GLNs or delivery points",
        params: CompanyGlnParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
      handler: async (request, reply) => {
        await service.removeLocation(caller(request), request.params.id, request.params.gln);
        return reply.code(204).send(null);
      },
    });

    // Users -------------------------------------------------------------------------------------------------------

    app.get('/admin/users', {
      schema: {
        tags: users,
        summary: 'Users of every company by e-mail, with search and company filter',
        querystring: AdminUsersQuerySchema,
        response: { 200: AdminUserPageSchema },
      },
      handler: (request) => service.listUsers(request.query),
    });

    app.get('/admin/users/:id', {
      schema: { tags: users, summary: 'One user', params: IdParamsSchema, response: { 200: AdminUserSchema } },
      handler: (request) => service.getUser(request.params.id),
    });

    app.post('/admin/users', {
      schema: {
        tags: users,
        summary: 'Create a user, optionally e-mailing an invitation link',
        body: CreateUserRequestSchema,
        response: { 200: AdminUserSchema },
      },
      handler: (request) => service.createUser(caller(request), request.body),
    });

    /** An action on one user, answered with the user as they are afterwards. */
    const userAction = (
      action: string,
      summary: string,
      run: (caller: AdminCaller, id: string) => Promise<AdminUser>,
    ) =>
      app.post(`/admin/users/:id/${action}`, {
        schema: { tags: users, summary, params: IdParamsSchema, response: { 200: AdminUserSchema } },
        handler: (request) => run(caller(request), request.params.id),
      });

    userAction('verify', "Mark a user's e-mail address as verified", service.verifyUser);
    userAction('disable', 'Disable a user and end their sessions (not oneself)', service.disableUser);
    userAction('enable', 'Enable a disabled user', service.enableUser);
    userAction('send-reset', 'E-mail the user a password reset link', service.sendReset);

    app.put('/admin/users/:id/roles', {
      schema: {
        tags: users,
        summary: "Replace a user's roles (an admin cannot drop their own admin role)",
        params: IdParamsSchema,
        body: SetRolesRequestSchema,
        response: { 200: AdminUserSchema },
      },
      handler: (request) => service.setRoles(caller(request), request.params.id, request.body.roles),
    });

    // Logs --------------------------------------------------------------------------------------------------------

    app.get('/admin/emails', {
      schema: {
        tags: logs,
        summary: 'Every e-mail the portal sent or stored, newest first, with bodies',
        querystring: AdminEmailsQuerySchema,
        response: { 200: AdminEmailPageSchema },
      },
      handler: (request) => service.listEmails(request.query),
    });

    app.get('/admin/audit', {
      schema: {
        tags: logs,
        summary: 'The audit log, newest first',
        querystring: AdminAuditQuerySchema,
        response: { 200: AdminAuditPageSchema },
      },
      handler: (request) => service.listAudit(request.query),
    });
  };
}
