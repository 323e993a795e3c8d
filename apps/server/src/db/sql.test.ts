import { describe, expect, it } from 'vitest';
import { escapeLike, isTransientConflict, isUniqueViolation, likePattern, searchWords } from './sql.ts';

describe('query pieces', () => {
  it('splits a search into at most ten lower-case words', () => {
    expect(searchWords('  Anna   KOWALSKA ')).toEqual(['anna', 'kowalska']);
    expect(searchWords(undefined)).toEqual([]);
    expect(searchWords(Array.from({ length: 12 }, (_, i) => `w${i}`).join(' '))).toHaveLength(10);
  });

  it("escapes LIKE's pattern characters", () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
    expect(likePattern('a_b')).toBe('%a\\_b%');
  });

  it('recognises a unique violation from either driver', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation({ cause: { code: '23505' } })).toBe(true);
    expect(isUniqueViolation({ code: '23503' })).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });

  it('recognises a deadlock or a serialization failure from either driver, and nothing else', () => {
    expect(isTransientConflict({ code: '40P01' })).toBe(true);
    expect(isTransientConflict({ cause: { code: '40001' } })).toBe(true);
    expect(isTransientConflict({ cause: { code: '23505' } })).toBe(false);
    expect(isTransientConflict(new Error('deadlock detected'))).toBe(false);
    expect(isTransientConflict(undefined)).toBe(false);
  });
});
