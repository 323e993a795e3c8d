import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '@portal/contracts';
import { findText } from './dynamic-text.ts';

// The `@ts-expect-error` lines are the test: `npm run typecheck` fails if any of them compiles, that is, if a key the
// English catalogs do not have were accepted (i18next.d.ts types the keys from them).
describe('typed translation keys', () => {
  it('takes the keys of the English catalogs and refuses any other', () => {
    expect(i18next.t('common:close')).toBe('Close');
    expect(i18next.t('errors:groups.name_taken')).toBe('Your company already has a group with this name.');
    // @ts-expect-error -- no such key in English
    expect(i18next.t('a.missing.key')).toBe('a.missing.key');
    // @ts-expect-error -- no such key in the errors namespace
    expect(i18next.t('errors:groups.missing')).toBe('groups.missing');
    // @ts-expect-error -- no such namespace
    expect(i18next.t('nowhere:close')).toBe('close');
  });

  it('types the text of every error code, and refuses a code that is not one', () => {
    const code: ErrorCode = 'users.email_taken';
    expect(i18next.t(`errors:${code}`)).toBe('A user with this e-mail address already exists.');
    const other = 'users.missing' as string;
    // @ts-expect-error -- a code read from the wire is a plain string until isErrorCode says otherwise
    expect(i18next.t(`errors:${other}`)).toBe('users.missing');
  });

  it('checks a key built at run time against the catalogs instead', () => {
    expect(findText(`errors:http.${503}`)).toBe('Error 503');
    expect(findText(`errors:http.${418}`)).toBeUndefined();
  });
});
