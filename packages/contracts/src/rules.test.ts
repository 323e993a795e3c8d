import { describe, expect, it } from 'vitest';
import { EmailSchema, GlnSchema, PasswordSchema, checkPassword, isStrongPassword, isValidGln } from './rules.ts';
import { PASSWORD_SPECIAL_CHARACTERS } from './constants.ts';
import { hasAllRoles, isToggledOn } from './permissions.ts';
import { RegisterRequestSchema } from './auth.ts';

describe('password rules (description, section 5)', () => {
  it.each([
    ['Abcdef1!', true],
    ['Abcde1!', false], // seven characters
    ['abcdef1!', false], // no upper-case letter
    ['ABCDEF1!', false], // no lower-case letter
    ['Abcdefg!', false], // no digit
    ['Abcdefg1', false], // no special character
    ['Abcdef1~', false], // ~ is not in the list
  ])('%s → %s', (pw, ok) => {
    expect(isStrongPassword(pw)).toBe(ok);
  });

  it('accepts every listed special character and reports each rule for the checklist', () => {
    for (const c of PASSWORD_SPECIAL_CHARACTERS) expect(checkPassword(`Abcdefg1${c}`).special).toBe(true);
    expect(checkPassword('a')).toEqual({ minLength: false, upper: false, lower: true, digit: false, special: false });
  });

  it('reports the passwordRules key for a weak password', () => {
    const r = PasswordSchema.safeParse('weak');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('passwordRules');
  });
});

describe('e-mail pattern: text, @, text, dot, text', () => {
  it.each([
    ['a@b.c', true],
    [' user@example.com ', true],
    ['a@b', false],
    ['@b.c', false],
    ['a b@c.d', false],
    ['', false],
  ])('%s → %s', (email, ok) => {
    expect(EmailSchema.safeParse(email).success).toBe(ok);
  });

  it('uses the keys of the validation namespace', () => {
    expect(EmailSchema.safeParse('').error?.issues[0]?.message).toBe('required');
    expect(EmailSchema.safeParse('nope').error?.issues[0]?.message).toBe('email');
  });
});

describe('registration payload', () => {
  it('requires every field and names each', () => {
    const r = RegisterRequestSchema.safeParse({});
    expect(r.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['email', 'firstName', 'lastName', 'password']);
  });
  it('reports a blank e-mail or password as required only, not also as malformed', () => {
    const r = RegisterRequestSchema.safeParse({ firstName: 'A', lastName: 'B', email: '   ', password: '' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['email', 'required'],
      ['password', 'required'],
    ]);
  });
  it('refuses an unknown locale', () => {
    const r = RegisterRequestSchema.safeParse({
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.cd',
      password: 'Abcdef1!',
      locale: 'xx',
    });
    expect(r.error?.issues[0]?.path).toEqual(['locale']);
  });
});

describe('GLN (GS1 check digit)', () => {
  it.each([
    ['5901234123457', true],
    ['4006381333931', true],
    ['5901234123450', false], // wrong check digit
    ['590123412345', false], // twelve digits
    ['590123412345X', false],
  ])('%s → %s', (gln, ok) => {
    expect(isValidGln(gln)).toBe(ok);
  });
  it('trims before checking and reports the code gln', () => {
    expect(GlnSchema.parse(' 5901234123457 ')).toBe('5901234123457');
    expect(GlnSchema.safeParse('5901234123450').error?.issues[0]?.message).toBe('gln');
  });
});

describe('roles and toggles', () => {
  it('a route demands all of its roles', () => {
    expect(hasAllRoles(['admin', 'ettn'], ['ettn'])).toBe(true);
    expect(hasAllRoles(['ettn'], ['ettn', 'admin'])).toBe(false);
  });
  it('an element shows when any of its toggles is on, and always when it names none', () => {
    expect(isToggledOn([], undefined)).toBe(true);
    expect(isToggledOn([], [])).toBe(true);
    expect(isToggledOn(['KSEF'], ['DEMO_KSEF', 'KSEF'])).toBe(true);
    expect(isToggledOn(['CHAT_AI'], ['KSEF'])).toBe(false);
  });
});
