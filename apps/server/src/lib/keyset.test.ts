import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../plugins/error-handler.ts';
import { AppError } from './app-error.ts';
import {
  anyText,
  decodeCursor,
  encodeCursor,
  serialId,
  shortText,
  takePage,
  timestampText,
  toPage,
  uuid,
  type KeyPart,
} from './keyset.ts';

const ID = '0b5e6a43-5f1d-4f64-9d3c-6f0b1b1c2d3e';
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The error decodeCursor throws, or undefined when it accepts the cursor. */
function refusal(cursor: string, parts: readonly KeyPart[]): AppError | undefined {
  try {
    decodeCursor(cursor, parts);
    return undefined;
  } catch (error) {
    return error as AppError;
  }
}

describe('keyset cursors', () => {
  it('round-trips a key, as opaque base64url', () => {
    const cursor = encodeCursor(['Zoë "Z"', ID]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, [anyText, uuid])).toEqual(['Zoë "Z"', ID]);
  });

  it('has no key without a cursor', () => {
    expect(decodeCursor(undefined, [anyText, uuid])).toBeUndefined();
  });

  it.each([
    ['not base64 JSON', 'garbage!'],
    ['not an array', cursorOf({ name: 'a', id: ID })],
    ['too few parts', cursorOf([ID])],
    ['too many parts', cursorOf(['a', ID, 'b'])],
    ['a part that is not a string', cursorOf([1, ID])],
    ['a part its check refuses', cursorOf(['a', 'not-a-uuid'])],
    ['an empty string', ''],
    ['a NUL in a part anyText would take', cursorOf(['a\u0000', ID])],
    ['a lone surrogate in a part', cursorOf(['\uD800', ID])],
  ])('refuses %s with a 400 on the field cursor', (_, cursor) => {
    const error = refusal(cursor, [anyText, uuid]);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'validation.failed',
      statusCode: 400,
      details: [{ field: 'cursor', code: 'cursor' }],
    });
  });

  it('checks each part', () => {
    expect(shortText('x'.repeat(300))).toBe(true);
    expect(shortText('x'.repeat(301))).toBe(false);
    expect(uuid(ID.toUpperCase())).toBe(true);
    expect(uuid(`${ID}x`)).toBe(false);
    expect(timestampText('2026-11-16 10:00:00.123456+00')).toBe(true);
    expect(timestampText('2026-11-16T10:00:00Z')).toBe(true);
    expect(timestampText('yesterday')).toBe(false);
    expect(timestampText('2024-02-29 23:59:59.999999+05:30')).toBe(true);
    // The shape of a timestamp is not enough: PostgreSQL refuses these, so they must not reach the SQL.
    expect(timestampText('2026-99-99 99:99:99')).toBe(false);
    expect(timestampText('2026-02-29 10:00:00+00')).toBe(false);
    expect(timestampText('2026-04-31 10:00:00+00')).toBe(false);
    expect(timestampText('2026-11-16 24:00:00+00')).toBe(false);
    expect(timestampText('2026-11-16 10:60:00+00')).toBe(false);
    expect(timestampText('2026-11-16 10:00:60+00')).toBe(false);
    expect(timestampText('2026-11-16 10:00:00+16')).toBe(false);
    expect(timestampText('0000-01-01 00:00:00+00')).toBe(false);
    expect(timestampText('0099-01-01 00:00:00+00')).toBe(true);
    expect(serialId('42')).toBe(true);
    expect(serialId('042')).toBe(false);
    expect(serialId('1'.repeat(17))).toBe(false);
  });

  it('answers a malformed cursor through the error handler as 400 with the field', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/list', (request) => ({ key: decodeCursor((request.query as { cursor?: string }).cursor, [uuid]) }));
    const res = await app.inject({ url: `/list?cursor=${cursorOf(['nope'])}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation.failed', details: [{ field: 'cursor' }] });
    expect((await app.inject({ url: `/list?cursor=${cursorOf([ID])}` })).json()).toEqual({ key: [ID] });
    await app.close();
  });
});

describe('keyset pages', () => {
  const rows = [1, 2, 3].map((n) => ({ n, id: `id-${n}` }));
  const keyOf = (r: { n: number; id: string }) => [String(r.n), r.id];

  it('keeps `limit` rows and points the cursor at the last one when a row more was fetched', () => {
    const page = takePage(rows, 2, keyOf);
    expect(page.rows).toEqual(rows.slice(0, 2));
    expect(decodeCursor(page.nextCursor!, [anyText, anyText])).toEqual(['2', 'id-2']);
  });

  it('has no next cursor on the last page', () => {
    expect(takePage(rows, 3, keyOf)).toEqual({ rows, nextCursor: null });
    expect(takePage([], 3, keyOf)).toEqual({ rows: [], nextCursor: null });
  });

  it('maps the rows to items', () => {
    const page = toPage(rows, 1, (r) => r.n * 10, keyOf);
    expect(page.items).toEqual([10]);
    expect(page.nextCursor).toBe(encodeCursor(['1', 'id-1']));
  });
});
