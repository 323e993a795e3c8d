import { describe, expect, it } from 'vitest';
import { escapeLike, isUniqueViolation, likePattern, searchWords } from './sql.ts';

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
});
