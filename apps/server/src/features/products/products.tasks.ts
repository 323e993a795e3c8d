import { parseProductsCsv, type ParsedProductsImport } from './products.csv.ts';

/** The products CSV, read and checked on a CPU-pool thread. */
export type ParseProductsCsvTask = { bytes: Uint8Array };

export async function parseCsvTask(input: ParseProductsCsvTask): Promise<ParsedProductsImport> {
  return parseProductsCsv(input.bytes);
}
