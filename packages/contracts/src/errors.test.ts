import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS, isErrorCode, type ErrorCode } from './errors.ts';

describe('ERROR_STATUS', () => {
  it('gives every code an error status, and names no code that does not exist', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
  });

  it('names codes <feature>.<situation> in lower snake case (the e-TTN codes by their number: ettn.7)', () => {
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*\.([a-z]+(_[a-z]+)*|(?<=ettn\.)\d+)$/);
  });

  it('tells codes from other strings', () => {
    expect(isErrorCode('groups.name_taken')).toBe(true);
    expect(isErrorCode('resource.conflict')).toBe(false);
  });

  it('refuses a status map that misses a code (type level)', () => {
    // @ts-expect-error -- a map that gives only some codes a status is not a Record<ErrorCode, number>
    const partial: Record<ErrorCode, number> = { 'auth.forbidden': 403 };
    expect(partial).toBeDefined();
  });
});
