import { z } from 'zod';
import { PRODUCT_SORTS, type ProductSort } from '@portal/contracts';
import { searchText, withoutEmpty } from '../../lib/search-params.ts';
import type { ProductsFilter } from './api/products-queries.ts';

/** Typed search parameters of /products (see `lib/search-params.ts`); the default order (description, ascending) is left out. */
export const ProductsSearchSchema = z.object({
  search: searchText,
  sort: z.enum(PRODUCT_SORTS).optional().catch(undefined),
  order: z.enum(['asc', 'desc']).optional().catch(undefined),
});
export type ProductsSearch = { search?: string; sort?: ProductSort; order?: 'asc' | 'desc' };

// An explicit return type keeps the router's types from depending on inference through the route tree.
export const validateProductsSearch = (search: Record<string, unknown>): ProductsSearch =>
  withoutEmpty(ProductsSearchSchema.parse(search));

/** The list query's filter for a search from the address (the route's loader and the page ask for the same key). */
export const productsFilter = (search: ProductsSearch): ProductsFilter => ({
  search: search.search ?? '',
  sort: search.sort ?? 'description',
  order: search.order ?? 'asc',
});
