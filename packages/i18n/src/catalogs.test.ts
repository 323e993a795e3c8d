import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@portal/contracts';
import { readdirSync } from 'node:fs';
// @ts-expect-error plain ESM helper shared with the CLI check
import { checkCatalogs } from '../scripts/keys.mjs';

const dir = fileURLToPath(new URL('../locales', import.meta.url));

describe('catalogs', () => {
  it('has a folder for each of the 11 languages', () => {
    expect(readdirSync(dir).sort()).toEqual([...LANGUAGES].sort());
  });
  it('every language has exactly the keys of English, with its plural forms', () => {
    expect(checkCatalogs(dir)).toEqual([]);
  });
});
