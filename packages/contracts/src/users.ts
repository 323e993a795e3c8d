import { z } from 'zod';
import { LanguageSchema } from './auth.ts';

export const UserDataSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  language: LanguageSchema,
  telephone: z.string().nullable(),
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  roles: z.array(z.string()),
});
export type UserData = z.infer<typeof UserDataSchema>;

export const SetLanguageRequestSchema = z.object({ language: LanguageSchema });

/**
 * The document list columns (description, section 3), in the description's order, and the six shown by default.
 * KSeF's reference number comes last, an optional column for received KSeF invoices.
 * A user's choice (which columns, in which order) is kept per list: `POST /users/getColumns`, `PUT /users/setColumns`.
 */
export const DOCUMENT_COLUMNS = [
  'DocumentNumber',
  'DocumentReferenceNumber',
  'DocumentType',
  'Direction',
  'PartnerName',
  'DeliveryPoint',
  'DeliveryPointIln',
  'ExpectedDeliveryDate',
  'DocumentBusinessDate',
  'WebDocumentTimeStamp',
  'Status',
  'ProcessingStatus',
  'BusinessStatus',
  'AdditionalStatus',
  'Standard',
  'Version',
  'TestOut',
  /** The KSeF reference number of a received KSeF invoice (issue 13; the description's KSeF labels). */
  'KsefNumber',
] as const;
export type DocumentColumn = (typeof DOCUMENT_COLUMNS)[number];
export const DEFAULT_DOCUMENT_COLUMNS: readonly DocumentColumn[] = [
  'DocumentNumber',
  'PartnerName',
  'DeliveryPointIln',
  'DocumentBusinessDate',
  'WebDocumentTimeStamp',
  'Status',
];
/** The lists whose columns a user chooses. */
export const COLUMN_LISTS = ['inbox', 'outbox'] as const;
export type ColumnList = (typeof COLUMN_LISTS)[number];

const ColumnListSchema = z.enum(COLUMN_LISTS, { error: 'oneOf' });
export const GetColumnsRequestSchema = z.object({ list: ColumnListSchema });
export const SetColumnsRequestSchema = z.object({
  list: ColumnListSchema,
  /** The visible columns in their order: at least one, each once. */
  columns: z
    .array(z.enum(DOCUMENT_COLUMNS, { error: 'oneOf' }))
    .min(1, 'required')
    .max(DOCUMENT_COLUMNS.length, 'tooBig')
    .refine((columns) => new Set(columns).size === columns.length, 'invalid'),
});
export type SetColumnsRequest = z.infer<typeof SetColumnsRequestSchema>;
/** The columns of a list; `saved` is false while the user has not chosen (the defaults). */
export const ColumnsResponseSchema = z.object({
  list: z.enum(COLUMN_LISTS),
  columns: z.array(z.enum(DOCUMENT_COLUMNS)),
  saved: z.boolean(),
});
export type ColumnsResponse = z.infer<typeof ColumnsResponseSchema>;
