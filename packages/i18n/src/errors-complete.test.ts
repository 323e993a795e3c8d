import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@portal/contracts';

const en = JSON.parse(readFileSync(new URL('../locales/en/errors.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

function at(obj: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      obj,
    );
}

describe('errors catalog', () => {
  it.each([...ERROR_CODES])('English has a text for %s', (code) => {
    const text = at(en, code);
    expect(typeof text).toBe('string');
    expect((text as string).trim()).not.toBe('');
  });
});
