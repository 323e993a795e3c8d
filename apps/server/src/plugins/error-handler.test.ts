import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandler } from './error-handler.ts';

describe('error handler', () => {
  it('answers a 429 that is not ours with the generic code, not the login one', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/busy', () => {
      throw Object.assign(new Error('Rate limit exceeded'), { statusCode: 429 });
    });
    const res = await app.inject({ url: '/busy' });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('request.too_many_requests');
    await app.close();
  });

  it('answers text the database cannot store with a 400, and other database errors with a 500', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    // As Drizzle throws them: its own error, the driver's error with the SQLSTATE in `cause`.
    const dbError = (code: string) => new Error('Failed query', { cause: Object.assign(new Error('db'), { code }) });
    app.get('/nul', () => {
      throw dbError('22021');
    });
    app.get('/jsonb-escape', () => {
      throw dbError('22P05');
    });
    app.get('/unique', () => {
      throw dbError('23505');
    });
    for (const url of ['/nul', '/jsonb-escape']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('request.malformed');
    }
    const res = await app.inject({ url: '/unique' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error).toEqual({ code: 'server.internal', message: 'Internal server error' });
    await app.close();
  });
});
