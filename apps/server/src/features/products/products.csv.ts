import { PRODUCT_FIELDS, PRODUCTS_IMPORT_MAX_ROWS, ProductRequestSchema, type ProductValues } from '@portal/contracts';
import { parseCsvImport, type ParsedCsvImport } from '../../lib/csv-import.ts';

export type ParsedProductsImport = ParsedCsvImport<ProductValues>;

/** Reads a products CSV: one product per row; a GTIN appears once in the file. */
export const parseProductsCsv = parseCsvImport({
  fields: PRODUCT_FIELDS,
  requiredColumns: ['description'],
  rowSchema: ProductRequestSchema,
  maxRows: PRODUCTS_IMPORT_MAX_ROWS,
  unique: { field: 'gtin', code: 'gtinDuplicateInFile' },
});
