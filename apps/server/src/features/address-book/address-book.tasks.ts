import { parseAddressBookCsv, type ParsedImport } from './address-book.csv.ts';

/** The address-book CSV, read and checked on a CPU-pool thread. */
export type ParseCsvTask = { bytes: Uint8Array };

export async function parseCsvTask(input: ParseCsvTask): Promise<ParsedImport> {
  return parseAddressBookCsv(input.bytes);
}
