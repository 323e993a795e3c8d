import {
  ADDRESS_BOOK_FIELDS,
  ADDRESS_BOOK_IMPORT_MAX_ROWS,
  AddressBookEntryRequestSchema,
  type AddressBookEntryValues,
} from '@portal/contracts';
import { parseCsvImport, type ParsedCsvImport } from '../../lib/csv-import.ts';

export type ParsedImport = ParsedCsvImport<AddressBookEntryValues>;

/** Reads an address-book CSV: one entry per row; a GLN appears once in the file. */
export const parseAddressBookCsv = parseCsvImport({
  fields: ADDRESS_BOOK_FIELDS,
  requiredColumns: ['name', 'personType', 'country'],
  rowSchema: AddressBookEntryRequestSchema,
  maxRows: ADDRESS_BOOK_IMPORT_MAX_ROWS,
  unique: { field: 'gln', code: 'glnDuplicateInFile' },
});
