import { z } from 'zod';
import { isValidNip } from './identifiers.ts';
import { isCountryCode, isValidIban, TELEPHONE_PATTERN } from './profile.ts';
import { IncludeTotalSchema, ListQuerySchema, ListSearchSchema, pageSchema } from './lists.ts';
import { clearableText, isValidGln, text } from './rules.ts';

/**
 * The address book (issue 10, part 3): a company's own contacts for filling documents, with every field of the
 * description's address book entry (section 3).
 */

/** Person type: J legal person, F physical person. */
export const PERSON_TYPES = ['J', 'F'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];

/** Residence type: E foreigner, R resident, U resident in the EU. */
export const RESIDENCE_TYPES = ['E', 'R', 'U'] as const;
export type ResidenceType = (typeof RESIDENCE_TYPES)[number];

/** A CSV import holds at most this many bytes and rows (header excluded). */
export const ADDRESS_BOOK_IMPORT_MAX_BYTES = 1024 * 1024;
export const ADDRESS_BOOK_IMPORT_MAX_ROWS = 5000;

/** The entry as a form or a CSV row gives it; the fields of the description, in its order. */
export const AddressBookEntryRequestSchema = z
  .object({
    name: text({ error: 'required' }).trim().min(1, 'required').max(200, 'tooLong'),
    displayedName: clearableText(200),
    gln: clearableText(13).refine((v) => !v || isValidGln(v), 'gln'),
    personType: z.enum(PERSON_TYPES, { error: 'oneOf' }),
    taxId: clearableText(32).refine((v) => !v || /^[A-Za-z0-9 .\-/]+$/.test(v), 'pattern'),
    residenceType: z.enum(RESIDENCE_TYPES, { error: 'oneOf' }).nullable().optional().default(null),
    phone: clearableText(40).refine((v) => !v || TELEPHONE_PATTERN.test(v), 'telephone'),
    street: clearableText(200),
    postalCode: clearableText(20),
    city: clearableText(100),
    province: clearableText(100),
    accountNumber: clearableText(50).refine((v) => !v || isValidIban(v), 'iban'),
    country: text({ error: 'required' })
      .trim()
      .max(2, 'country')
      .toUpperCase()
      .refine((v) => isCountryCode(v), 'country'),
  })
  // A Polish tax identifier is a NIP: ten digits with its check digit.
  .superRefine((entry, ctx) => {
    if (entry.country === 'PL' && entry.taxId && !isValidNip(entry.taxId)) {
      ctx.addIssue({ code: 'custom', path: ['taxId'], message: 'nip' });
    }
  });
export type AddressBookEntryRequest = z.input<typeof AddressBookEntryRequestSchema>;
export type AddressBookEntryValues = z.output<typeof AddressBookEntryRequestSchema>;

/** The entry fields, in the order of the description, the form and the CSV columns. */
export const ADDRESS_BOOK_FIELDS = [
  'name',
  'displayedName',
  'gln',
  'personType',
  'taxId',
  'residenceType',
  'phone',
  'street',
  'postalCode',
  'city',
  'province',
  'accountNumber',
  'country',
] as const satisfies readonly (keyof AddressBookEntryValues)[];
export type AddressBookField = (typeof ADDRESS_BOOK_FIELDS)[number];

export const AddressBookEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  displayedName: z.string().nullable(),
  gln: z.string().nullable(),
  personType: z.enum(PERSON_TYPES),
  taxId: z.string().nullable(),
  residenceType: z.enum(RESIDENCE_TYPES).nullable(),
  phone: z.string().nullable(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  accountNumber: z.string().nullable(),
  country: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AddressBookEntry = z.infer<typeof AddressBookEntrySchema>;

export const ADDRESS_BOOK_SORTS = ['name', 'city', 'country', 'createdAt'] as const;
export type AddressBookSort = (typeof ADDRESS_BOOK_SORTS)[number];

export const AddressBookQuerySchema = ListQuerySchema.extend({
  search: ListSearchSchema,
  includeTotal: IncludeTotalSchema,
  sort: z.enum(ADDRESS_BOOK_SORTS, { error: 'oneOf' }).default('name'),
  order: z.enum(['asc', 'desc'], { error: 'oneOf' }).default('asc'),
  country: text()
    .trim()
    .max(2, 'country')
    .toUpperCase()
    .refine((v) => isCountryCode(v), 'country')
    .optional(),
  personType: z.enum(PERSON_TYPES, { error: 'oneOf' }).optional(),
});
export type AddressBookQuery = z.infer<typeof AddressBookQuerySchema>;

export const AddressBookPageSchema = pageSchema(AddressBookEntrySchema);
export type AddressBookPage = z.infer<typeof AddressBookPageSchema>;

export const AddressBookImportQuerySchema = z.object({
  /** `true` checks the file and answers the preview; nothing is saved. */
  dryRun: z
    .enum(['true', 'false'], { error: 'boolean' })
    .optional()
    .transform((v) => v === 'true'),
});

/** A problem of one row (line is the line of the file, the header being line 1) or of the file (line 0). */
export const ImportProblemSchema = z.object({
  line: z.number().int(),
  field: z.string(),
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ImportProblem = z.infer<typeof ImportProblemSchema>;

export const AddressBookImportRowSchema = z.object({
  line: z.number().int(),
  /** The row's values as read (text, before validation), by field. */
  values: z.record(z.string(), z.string()),
});

export const AddressBookImportResultSchema = z.object({
  dryRun: z.boolean(),
  /** Rows read (header excluded). */
  rows: z.number().int(),
  /** Rows saved: 0 on a dry run and whenever a problem was found (all or nothing). */
  created: z.number().int(),
  problems: z.array(ImportProblemSchema),
  /** The first rows as read, for the preview table (at most 200). */
  preview: z.array(AddressBookImportRowSchema),
});
export type AddressBookImportResult = z.infer<typeof AddressBookImportResultSchema>;
