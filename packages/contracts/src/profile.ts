import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { icdSchemeName, isValidEdrpou, isValidNip, isValidVatId } from './identifiers.ts';
import { isValidGln, NameSchema, PasswordSchema, text } from './rules.ts';

/**
 * The profile page's calls (description, sections 3, 5, 7, 8 and 9): user data, password change, additional user
 * settings and the company profile.
 */

// ---------------------------------------------------------------------------------------------------------------
// User data (profile-settings panel)

/** Digits, spaces and the usual separators, optionally with a leading `+`. */
export const TELEPHONE_PATTERN = /^\+?[0-9][0-9 ()./-]{2,39}$/;

export const UpdateUserDataRequestSchema = z.object({
  firstName: NameSchema,
  lastName: NameSchema,
  /** Empty or null clears the number. */
  telephone: text()
    .trim()
    .max(40, 'tooLong')
    .refine((v) => v === '' || TELEPHONE_PATTERN.test(v), 'telephone')
    .nullable()
    .optional(),
});
export type UpdateUserDataRequest = z.infer<typeof UpdateUserDataRequestSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Password (password panel)

/** The description's result messages of `POST /users/changePassword` (section 8). */
export const CHANGE_PASSWORD_MESSAGES = [
  'Operation successful',
  'CURRENT_PASSWORD_INCORRECT',
  'GENERAL_ERROR',
] as const;
export type ChangePasswordMessage = (typeof CHANGE_PASSWORD_MESSAGES)[number];

/** Wrong current passwords a user may enter within the window before the endpoint answers 429. */
export const PASSWORD_CHANGE_FAILURES_PER_USER = 5;
export const PASSWORD_CHANGE_FAILURE_WINDOW_SECONDS = 15 * 60;

export const ChangePasswordRequestSchema = z.object({
  currentPassword: text({ error: 'required' }).min(1, 'required').max(PASSWORD_MAX_LENGTH, 'tooLong'),
  newPassword: PasswordSchema,
  /**
   * The caller's own refresh token, optional: a successful change ends every other session of the user and keeps
   * the one this token belongs to. Without it every session ends and the caller signs in again.
   */
  refreshToken: text().max(512, 'tooLong').optional(),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

/** The form's schema: the request plus "must differ from the current password" (section 5) on `newPassword`. */
export const ChangePasswordFormSchema = ChangePasswordRequestSchema.refine((v) => v.newPassword !== v.currentPassword, {
  path: ['newPassword'],
  message: 'passwordSameAsCurrent',
});

export const ChangePasswordResponseSchema = z.object({
  success: z.boolean(),
  message: z.enum(CHANGE_PASSWORD_MESSAGES),
});
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;

/** The 400 body of a failed change: the description's `{ success, message }` beside the API's error body. */
export const ChangePasswordFailureSchema = z.object({
  success: z.literal(false).optional(),
  message: z.enum(CHANGE_PASSWORD_MESSAGES).optional(),
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ field: z.string(), code: z.string() })).optional(),
  }),
  requestId: z.string(),
});

// ---------------------------------------------------------------------------------------------------------------
// Additional settings (section 9)

/** Encodings offered for saved files; `{token}` is kept literally as the description lists it. */
export const FILE_ENCODINGS = [
  'utf-8',
  'unicode',
  'ascii',
  '{token}',
  'iso-8859-1',
  'iso-8859-2',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-9',
  'ibm852',
] as const;
export type FileEncoding = (typeof FILE_ENCODINGS)[number];

/** Polish VAT calculation: from the invoice summary, or from the lines. */
export const VAT_ALGORITHMS = ['invoice-summary', 'lines'] as const;
export type VatAlgorithm = (typeof VAT_ALGORITHMS)[number];

export const FILE_NAMING_FORMATS = [
  'DocType_PartnerName_DocNumber',
  'DocType_PartnerName_DocNumber_DeliveryPoint',
  'DocType_DocNumber',
  'PartnerName_DocType_DocDate_DocNumber',
] as const;
export type FileNamingFormat = (typeof FILE_NAMING_FORMATS)[number];

export const UserSettingsSchema = z.object({
  fileEncoding: z.enum(FILE_ENCODINGS, { error: 'oneOf' }),
  vatAlgorithm: z.enum(VAT_ALGORITHMS, { error: 'oneOf' }),
  fileNamingFormat: z.enum(FILE_NAMING_FORMATS, { error: 'oneOf' }),
});
export type UserSettings = z.infer<typeof UserSettingsSchema>;

export const DEFAULT_USER_SETTINGS: UserSettings = {
  fileEncoding: 'utf-8',
  vatAlgorithm: 'invoice-summary',
  fileNamingFormat: 'DocType_PartnerName_DocNumber',
};

// ---------------------------------------------------------------------------------------------------------------
// Company profile (company-settings panel)

/** ISO 3166-1 alpha-2 country codes. */
// prettier-ignore
export const COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BV', 'BW', 'BY', 'BZ',
  'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ',
  'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ',
  'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET',
  'FI', 'FJ', 'FK', 'FM', 'FO', 'FR',
  'GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY',
  'HK', 'HM', 'HN', 'HR', 'HT', 'HU',
  'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT',
  'JE', 'JM', 'JO', 'JP',
  'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ',
  'LA', 'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY',
  'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK', 'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ',
  'NA', 'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ',
  'OM',
  'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY',
  'QA',
  'RE', 'RO', 'RS', 'RU', 'RW',
  'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS', 'ST', 'SV', 'SX', 'SY', 'SZ',
  'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ',
  'UA', 'UG', 'UM', 'US', 'UY', 'UZ',
  'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU',
  'WF', 'WS',
  'YE', 'YT',
  'ZA', 'ZM', 'ZW',
] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];
const COUNTRIES = new Set<string>(COUNTRY_CODES);

/** An ISO 3166 alpha-2 code of the country list. */
export const isCountryCode = (code: string): boolean => COUNTRIES.has(code);

/** Italian tax systems (regime fiscale) RF01 to RF19. */
// prettier-ignore
export const TAX_SYSTEMS = [
  'RF01', 'RF02', 'RF03', 'RF04', 'RF05', 'RF06', 'RF07', 'RF08', 'RF09', 'RF10',
  'RF11', 'RF12', 'RF13', 'RF14', 'RF15', 'RF16', 'RF17', 'RF18', 'RF19',
] as const;
export type TaxSystem = (typeof TAX_SYSTEMS)[number];

/** Taxpayer kinds: general principles, flat-rate tax, VAT. */
export const TAXPAYER_KINDS = ['general-principles', 'flat-rate-tax', 'vat'] as const;
export type TaxpayerKind = (typeof TAXPAYER_KINDS)[number];

/** Taxpayer types: J12 legal entity, F12 natural person. */
export const TAXPAYER_TYPES = ['J12', 'F12'] as const;
export type TaxpayerType = (typeof TAXPAYER_TYPES)[number];

/** Electronic address identifier scheme codes (EAS) lie between these, inclusive, as four digits. */
export const ELECTRONIC_ADDRESS_SCHEME_MIN = 2;
export const ELECTRONIC_ADDRESS_SCHEME_MAX = 204;

/** A scheme code of the ISO 6523 ICD list (0002 to 0204, without the codes the registry never assigned). */
export function isElectronicAddressScheme(code: string): boolean {
  if (!/^\d{4}$/.test(code)) return false;
  const n = Number(code);
  return n >= ELECTRONIC_ADDRESS_SCHEME_MIN && n <= ELECTRONIC_ADDRESS_SCHEME_MAX && icdSchemeName(code) !== undefined;
}

/** The ICD scheme of a GLN as an electronic address. */
export const GLN_SCHEME = '0088';

const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** True when an account number has the shape of an IBAN (country letters, two check digits, 11 to 30 more). */
export function looksLikeIban(account: string): boolean {
  return IBAN_SHAPE.test(account.replace(/\s+/g, '').toUpperCase());
}

/** ISO 13616 check: move the first four characters to the end, letters to numbers, remainder mod 97 must be 1. */
export function isValidIban(account: string): boolean {
  const iban = account.replace(/\s+/g, '').toUpperCase();
  if (!IBAN_SHAPE.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const c of rearranged) {
    const value = c >= 'A' && c <= 'Z' ? String(c.charCodeAt(0) - 55) : c;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** An optional text field: absent, null or empty all mean "not set". */
const optionalText = (max: number) => text().trim().max(max, 'tooLong').nullable().optional();

/** The company profile as the form sends it. Every field but the name may be empty. */
export const CompanyProfileUpdateSchema = z
  .object({
    name: text({ error: 'required' }).trim().min(1, 'required').max(200, 'tooLong'),
    vatId: optionalText(32).refine((v) => !v || /^[A-Za-z0-9 .\-/]+$/.test(v), 'pattern'),
    taxId: optionalText(32).refine((v) => !v || /^[A-Za-z0-9 .\-/]+$/.test(v), 'pattern'),
    street: optionalText(200),
    postalCode: optionalText(20),
    city: optionalText(100),
    country: optionalText(2).refine((v) => !v || COUNTRIES.has(v), 'country'),
    bankAccount: optionalText(50).refine((v) => !v || !looksLikeIban(v) || isValidIban(v), 'iban'),
    electronicAddress: optionalText(200),
    electronicAddressScheme: optionalText(4).refine(
      (v) => !v || isElectronicAddressScheme(v),
      'electronicAddressScheme',
    ),
    signerPost: optionalText(100),
    signerName: optionalText(200),
    signerCode: optionalText(50),
    companyPrefix: optionalText(20),
    legalForm: optionalText(100),
    taxSystem: z.enum(TAX_SYSTEMS, { error: 'oneOf' }).nullable().optional(),
    taxpayerKind: z.enum(TAXPAYER_KINDS, { error: 'oneOf' }).nullable().optional(),
    taxpayerType: z.enum(TAXPAYER_TYPES, { error: 'oneOf' }).nullable().optional(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    // An electronic address means nothing without its scheme; a GLN address (0088) has its check digit.
    if (v.electronicAddress && !v.electronicAddressScheme) issue('electronicAddressScheme', 'required');
    if (v.electronicAddress && v.electronicAddressScheme === GLN_SCHEME && !isValidGln(v.electronicAddress)) {
      issue('electronicAddress', 'gln');
    }
    // The identifiers (issue 10): a VAT identifier with its country prefix; the tax ID of a Polish company is its
    // NIP, of a Ukrainian one its EDRPOU code, each with its check digit.
    if (v.vatId && !isValidVatId(v.vatId, (code) => COUNTRIES.has(code))) issue('vatId', 'vatId');
    if (v.taxId && v.country === 'PL' && !isValidNip(v.taxId)) issue('taxId', 'nip');
    if (v.taxId && v.country === 'UA' && !isValidEdrpou(v.taxId)) issue('taxId', 'edrpou');
  });
export type CompanyProfileUpdate = z.infer<typeof CompanyProfileUpdateSchema>;

export const CompanyProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  vatId: z.string().nullable(),
  taxId: z.string().nullable(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  bankAccount: z.string().nullable(),
  electronicAddress: z.string().nullable(),
  electronicAddressScheme: z.string().nullable(),
  signerPost: z.string().nullable(),
  signerName: z.string().nullable(),
  signerCode: z.string().nullable(),
  companyPrefix: z.string().nullable(),
  legalForm: z.string().nullable(),
  taxSystem: z.enum(TAX_SYSTEMS).nullable(),
  taxpayerKind: z.enum(TAXPAYER_KINDS).nullable(),
  taxpayerType: z.enum(TAXPAYER_TYPES).nullable(),
});
export type CompanyProfile = z.infer<typeof CompanyProfileSchema>;
