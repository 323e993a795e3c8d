import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, NameSchema } from '@portal/contracts';
import { ApiError } from './api-error.ts';
import { errorCodeText, errorText, fieldErrorText, findErrorText, validationText } from './error-text.ts';

beforeAll(async () => {
  await i18next.loadNamespaces(['admin', 'user-management', 'profile']);
});

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const failure = (status: number, code: string, more: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ status, code, ...more });

describe('validationText', () => {
  it('words the code of a string with a NUL or a lone surrogate, from the shared schema or the server', async () => {
    const code = NameSchema.safeParse('Ann\u0000').error?.issues[0]?.message;
    expect(code).toBe('characters');
    expect(validationText(code)).toBe('This value contains characters that are not allowed');
    await i18next.changeLanguage('pl');
    expect(validationText(code)).toBe('Ta wartość zawiera niedozwolone znaki');
  });

  it('falls back to "invalid" for a code the catalog does not know', () => {
    expect(validationText('noSuchCode')).toBe('This value is invalid');
    expect(validationText('auth.forbidden')).toBe('This value is invalid');
  });
});

describe('fieldErrorText', () => {
  it("takes an area's own wording first, then the shared validation text", () => {
    expect(fieldErrorText('telephone', 'admin')).toBe('Enter a telephone number (digits, spaces, + ( ) . / -).');
    expect(fieldErrorText('nameTaken', 'user-management')).toBe('This name is already used in your company');
    expect(fieldErrorText('iban', 'profile')).toBe('This IBAN is not valid (check digits)');
    expect(fieldErrorText('telephone')).toBe('Enter a valid telephone number');
    expect(fieldErrorText('required', 'admin')).toBe('This field is required');
    expect(fieldErrorText(undefined, 'admin')).toBeUndefined();
  });
});

describe('errorText', () => {
  it('words every code of the contracts', () => {
    for (const code of ERROR_CODES) expect(errorCodeText(code), code).not.toMatch(/^errors:|^[a-z_]+\.[a-z_]+$/);
    expect(findErrorText('groups.name_taken')).toBe('Your company already has a group with this name.');
    expect(findErrorText('no.such_code')).toBeUndefined();
  });

  it("takes an area's own text for its codes, then the code's, then the area's generic failure", () => {
    const refused = failure(409, 'admin.impersonation_refused', { data: { reason: 'self' } });
    expect(errorText(refused, 'admin')).toBe(i18next.t('admin:users.impersonate.refused.self'));
    expect(errorText(failure(403, 'auth.account_blocked'), 'admin')).toBe(
      i18next.t('admin:users.impersonate.companyBlocked'),
    );
    expect(errorText(failure(403, 'auth.account_blocked'), 'profile')).toBe(errorCodeText('auth.account_blocked'));
    expect(errorText(failure(409, 'user_management.not_invited'), 'user-management')).toBe(
      'This user has already accepted the invitation.',
    );
    expect(errorText(failure(409, 'user_management.not_invited'), 'admin')).toBe(
      'This user has no pending invitation.',
    );
    expect(errorText(failure(409, 'users.disabled'), 'admin')).toBe('This user is disabled. Enable the account first.');
    expect(errorText(failure(400, 'validation.failed', { details: [{ field: 'x', code: 'y' }] }), 'admin')).toBe(
      'Some values were not accepted. Please check the form.',
    );
    expect(errorText(failure(418, 'no.such_code'), 'admin')).toBe('The operation failed. Please try again.');
    expect(errorText(new Error('boom'), 'user-management')).toBe('The change could not be saved. Please try again.');
    expect(errorText(new Error('boom'), 'profile')).toBe('Unknown error');
  });
});
