import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CheckActionTokenRequestSchema,
  CheckActionTokenResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutRequestSchema,
  RefreshRequestSchema,
  RefreshResponseSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  SendResetPasswordEmailRequestSchema,
  SendVerifyEmailRequestSchema,
  SetPasswordRequestSchema,
  SetPasswordResponseSchema,
  SuccessResponseSchema,
} from '@portal/contracts';
import { AppError } from '../../lib/app-error.ts';
import { metaOf as meta } from '../../lib/request-meta.ts';
import type { AuthService } from './auth.service.ts';

const tags = ['account'];

/** The public account endpoints of the description's call table, plus the one-time link endpoints. */
export function authRoutes(service: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    const pub = { public: true };

    app.post('/users/login', {
      config: pub,
      schema: {
        tags,
        summary: 'Log in with e-mail and password',
        body: LoginRequestSchema,
        response: { 200: LoginResponseSchema },
      },
      handler: (request) => service.login(request.body, meta(request)),
    });

    app.post('/legacy/login', {
      config: pub,
      schema: {
        tags,
        summary: 'Log in with an account of the old EDI system',
        body: LoginRequestSchema,
        response: { 200: LoginResponseSchema },
      },
      handler: (request) => service.legacyLogin(request.body, meta(request)),
    });

    app.post('/users/refreshToken', {
      config: pub,
      schema: {
        tags,
        summary: 'Rotate the refresh token and get a new access token',
        body: RefreshRequestSchema,
        response: { 200: RefreshResponseSchema, 401: RefreshResponseSchema },
      },
      handler: async (request, reply) => {
        try {
          return { success: true, token: await service.refresh(request.body.refreshToken) };
        } catch (error) {
          // The description's refresh result carries the failure as a plain string.
          if (error instanceof AppError) return reply.status(401).send({ success: false, error: error.code });
          throw error;
        }
      },
    });

    app.post('/users/logout', {
      config: pub,
      schema: {
        tags,
        summary: 'End the session of a refresh token',
        body: LogoutRequestSchema,
        response: { 200: SuccessResponseSchema },
      },
      handler: async (request) => {
        await service.logout(request.body.refreshToken, meta(request));
        return { success: true };
      },
    });

    app.post('/users/register', {
      config: pub,
      schema: {
        tags,
        summary: 'Register a new account',
        body: RegisterRequestSchema,
        response: { 200: RegisterResponseSchema },
      },
      handler: async (request) => ({ success: true, ...(await service.register(request.body, meta(request))) }),
    });

    app.post('/users/sendVerifyEmail', {
      config: pub,
      schema: {
        tags,
        summary: 'Send the verification e-mail again',
        body: SendVerifyEmailRequestSchema,
        response: { 200: SuccessResponseSchema },
      },
      handler: async (request) => {
        await service.resendVerification(request.body.id, meta(request));
        return { success: true };
      },
    });

    app.get('/users/verifyEmail', {
      config: pub,
      schema: {
        tags,
        summary: 'The e-mailed verification link; redirects to the login page',
        querystring: z.object({ token: z.string().max(512).default('') }),
      },
      handler: async (request, reply) => {
        const result = request.query.token
          ? await service.verifyEmail(request.query.token)
          : { type: 'error', text: 'actionError' };
        return reply.redirect(`/login?msgType=${result.type}&msgText=${result.text}`, 302);
      },
    });

    app.get('/users/unlock', {
      config: pub,
      schema: {
        tags,
        summary: 'The e-mailed unlock link of an account locked by failed logins; redirects to the login page',
        querystring: z.object({ token: z.string().max(512).default('') }),
      },
      handler: async (request, reply) => {
        const result = request.query.token
          ? await service.unlock(request.query.token, meta(request))
          : { type: 'error', text: 'actionError' };
        return reply.redirect(`/login?msgType=${result.type}&msgText=${result.text}`, 302);
      },
    });

    app.post('/users/sendResetPasswordEmail', {
      config: pub,
      schema: {
        tags,
        summary: 'E-mail a password reset link (always answers the same)',
        body: SendResetPasswordEmailRequestSchema,
        response: { 200: SuccessResponseSchema },
      },
      handler: async (request) => {
        await service.requestPasswordReset(request.body.email, meta(request));
        return { success: true };
      },
    });

    app.post('/users/checkActionToken', {
      config: pub,
      schema: {
        tags,
        summary: 'Tell whether a reset or invitation link is still valid',
        body: CheckActionTokenRequestSchema,
        response: { 200: CheckActionTokenResponseSchema },
      },
      handler: (request) => service.checkActionToken(request.body.token),
    });

    app.post('/users/setPassword', {
      config: pub,
      schema: {
        tags,
        summary: 'Set a password from a reset or invitation link',
        body: SetPasswordRequestSchema,
        response: { 200: SetPasswordResponseSchema },
      },
      handler: async (request) => ({
        success: true,
        ...(await service.setPassword(request.body.token, request.body.password, meta(request))),
      }),
    });
  };
}
