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
});
