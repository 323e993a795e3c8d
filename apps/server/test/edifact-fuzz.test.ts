/**
 * A fuzz suite over the API's EDIFACT endpoints (fast-check): the pathological shapes of issue 16 at random sizes
 * and random mutations of a real order. Every request is answered, within the pool's time limit, with a 200 whose
 * body is consistent, or a 400 naming the field; never a 500, never a stopped task; the server answers its health
 * check after each run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidateEdifactResponseSchema } from '@portal/contracts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const ORDER =
  "UNA:+.? 'UNB+UNOC:3+5412345000013:14+4012345500004:14+261116:1000+REF0001'UNH+1+ORDERS:D:96A:UN:EAN008'" +
  "BGM+220+PO12345+9'DTM+137:20261116:102'NAD+BY+5412345000013::9'NAD+SU+4012345500004::9'" +
  "LIN+1++4000862141404:EN'QTY+21:48'UNS+S'UNT+9+1'UNZ+1+REF0001'";

// Pieces an attacker repeats: segments out of place, bare separators, release characters, service segments.
const PIECES = [
  "SG25'",
  "AB'",
  "'",
  '+',
  ':',
  '?',
  '*',
  "LIN+1'",
  "UNH+1+ORDERS:D:96A:UN'",
  "UNT+3+1'",
  "UNB+UNOC:3+A+B+261116:1000+1'",
  "UNZ+1+1'",
  "UNA:+.? '",
  "BGM+220+1+9'",
  "QTY+21:48'",
  "DTM+137:2026031X:102'",
  "NAD+SU+4012345500004::9'",
  '\u0000',
  '\uD800',
  'é',
  '\n',
];

const repeated = fc
  .tuple(fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.integer({ min: 1, max: 8000 })), { maxLength: 6 }))
  .map(([parts]) => parts.map(([piece, n]) => piece.repeat(n)).join(''));

const mutated = fc
  .array(
    fc.tuple(
      fc.nat({ max: ORDER.length }),
      fc.nat({ max: 40 }),
      fc.constantFrom(...PIECES),
      fc.integer({ min: 1, max: 5000 }),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((edits) =>
    edits.reduce((text, [at, cut, piece, n]) => text.slice(0, at) + piece.repeat(n) + text.slice(at + cut), ORDER),
  );

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_SHIPPED_DIRECTORIES: 'true' } });
  token = (await login(t.app)).access_token;
});
afterAll(() => t.close());

const post = (url: string, content: string) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload: { content } });

const checkValidation = async (content: string) => {
  const res = await post('/api/validation/edifact', content);
  if (res.statusCode === 400) {
    expect(res.json().error.details[0].field).toBe('content');
    return;
  }
  expect(res.statusCode).toBe(200);
  const body = ValidateEdifactResponseSchema.parse(res.json());
  expect(body.summary.errors).toBeGreaterThanOrEqual(body.findings.filter((f) => f.severity === 'error').length);
  expect(body.ok).toBe(body.summary.errors === 0);
};

const checkContrl = async (content: string) => {
  const res = await post('/api/validation/edifact/contrl', content);
  if (res.statusCode === 400) return;
  expect(res.statusCode).toBe(200);
  expect(res.body).toMatch(/^(UNA|UNB)/);
};

describe('fuzzing the EDIFACT endpoints', () => {
  // Generous timeouts: 90 requests of up to a few hundred KB each, on a CI machine with two cores.
  it(
    'answers repeated pathological pieces with a consistent 200 or a 400, never a 500',
    { timeout: 120_000 },
    async () => {
      await fc.assert(fc.asyncProperty(repeated, checkValidation), { numRuns: 30 });
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    },
  );

  it('answers random mutations of a real order the same way', { timeout: 120_000 }, async () => {
    await fc.assert(fc.asyncProperty(mutated, checkValidation), { numRuns: 30 });
  });

  it('builds a CONTRL for each of them', { timeout: 120_000 }, async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(repeated, mutated), checkContrl), { numRuns: 30 });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
