import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ChangePasswordFailureSchema,
  CompanyLocationPageSchema,
  CompanyLocationRequestSchema,
  CompanyLocationSchema,
  CompanyLocationsQuerySchema,
  GlnParamsSchema,
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  CompanyProfileSchema,
  CompanyProfileUpdateSchema,
  SuccessResponseSchema,
  UpdateUserDataRequestSchema,
  UserSettingsSchema,
  hasPermission,
  type FeaturePermission,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { forbidden } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { metaOf as meta } from '../../lib/request-meta.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { CompaniesService } from '../companies/companies.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { createProfileService } from './profile.service.ts';

/**
 * onRequest guard: the feature permission, or the admin role. Admins belong to no company and hold no feature
 * permissions, yet edit their own profile. Runs before body validation so a refused caller learns nothing more.
 */
function permissionOrAdmin(permission: FeaturePermission) {
  return async (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (!principal.roles.includes('admin') && !hasPermission(principal, permission)) throw forbidden();
  };
}

/** The profile page: user data, password, additional settings and the company profile of the caller's company. */
export function profileRoutes(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  auth: AuthService;
  users: UsersService;
  companies: CompaniesService;
}): FastifyPluginAsyncZod {
  const service = createProfileService(deps);
  return async (app) => {
    const tags = ['profile'];

    app.post('/users/updateUserData', {
      onRequest: permissionOrAdmin('USER_PROFILE_MODIFY'),
      schema: {
        tags,
        summary: "Change the caller's names and telephone",
        body: UpdateUserDataRequestSchema,
        response: { 200: SuccessResponseSchema },
      },
      handler: async (request) => {
        await service.updateUserData(principalOf(request), request.body);
        return { success: true };
      },
    });

    app.get('/users/settings', {
      onRequest: permissionOrAdmin('USER_PROFILE_READ'),
      schema: {
        tags,
        summary: "The caller's additional settings (file encoding, VAT algorithm, file naming)",
        response: { 200: UserSettingsSchema },
      },
      handler: (request) => service.getSettings(principalOf(request)),
    });

    app.put('/users/settings', {
      onRequest: permissionOrAdmin('USER_PROFILE_MODIFY'),
      schema: {
        tags,
        summary: "Replace the caller's additional settings",
        body: UserSettingsSchema,
        response: { 200: UserSettingsSchema },
      },
      handler: (request) => service.setSettings(principalOf(request), request.body),
    });

    // No feature permission: anyone signed in may change their own password (admins and read-only clerks too).
    app.post('/users/changePassword', {
      schema: {
        tags,
        summary: "Change the caller's password; ends the user's other sessions",
        body: ChangePasswordRequestSchema,
        response: { 200: ChangePasswordResponseSchema, 400: ChangePasswordFailureSchema },
      },
      handler: (request) => service.changePassword(principalOf(request), request.body, meta(request)),
    });

    app.get('/company/profile', {
      onRequest: permissionOrAdmin('COMPANY_PROFILE_READ'),
      schema: { tags: ['company'], summary: "The caller's company profile", response: { 200: CompanyProfileSchema } },
      handler: (request) => service.getCompanyProfile(principalOf(request)),
    });

    app.put('/company/profile', {
      onRequest: permissionOrAdmin('COMPANY_PROFILE_MODIFY'),
      schema: {
        tags: ['company'],
        summary: "Replace the caller's company profile",
        body: CompanyProfileUpdateSchema,
        response: { 200: CompanyProfileSchema },
      },
      handler: (request) => service.updateCompanyProfile(principalOf(request), request.body),
    });

    // GLNs and delivery points of the caller's company (issue 10, decision 0020).
    const locationTags = ['company'];

    app.get('/company/locations', {
      onRequest: permissionOrAdmin('COMPANY_PROFILE_READ'),
      schema: {
        tags: locationTags,
        summary: "The caller's company's GLNs and delivery points: company GLNs first, then by GLN",
        querystring: CompanyLocationsQuerySchema,
        response: { 200: CompanyLocationPageSchema },
      },
      handler: (request) => service.listLocations(principalOf(request), request.query),
    });

    app.post('/company/locations', {
      onRequest: permissionOrAdmin('COMPANY_PROFILE_MODIFY'),
      schema: {
        tags: locationTags,
        summary: 'Add a GLN or delivery point (a GLN belongs to at most one company: 409 companies.gln_taken)',
        body: CompanyLocationRequestSchema,
        response: { 201: CompanyLocationSchema },
      },
      handler: async (request, reply) =>
        reply.code(201).send(await service.addLocation(principalOf(request), request.body)),
    });

    app.put('/company/locations/:gln', {
      onRequest: permissionOrAdmin('COMPANY_PROFILE_MODIFY'),
      schema: {
        tags: locationTags,
        summary: 'Replace a GLN or delivery point, its GLN included',
        params: GlnParamsSchema,
        body: CompanyLocationRequestSchema,
        response: { 200: CompanyLocationSchema },
      },
      handler: (request) => service.updateLocation(principalOf(request), request.params.gln, request.body),
    });

    app.delete('/company/locations/:gln', {
      onRequest: permissionOrAdmin('COMPANY_PROFILE_MODIFY'),
      schema: {
        tags: locationTags,
        summary: 'Delete a GLN or delivery point',
        params: GlnParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
      handler: async (request, reply) => {
        await service.removeLocation(principalOf(request), request.params.gln);
        return reply.code(204).send(null);
      },
    });
  };
}
