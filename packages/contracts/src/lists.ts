import { z } from 'zod';
import { CursorSchema, text } from './rules.ts';

/**
 * Lists and resources, as every endpoint takes and answers them (admin, user management, jobs; documents next):
 * filters as query parameters, keyset pagination with an opaque cursor, `:id` a uuid. One schema each, so a list
 * cannot drift from the others in its limits or its error codes.
 */

/** Rows of a page when the request names no `limit`. */
export const LIST_LIMIT_DEFAULT = 50;
/** The most rows one page may ask for, in every list. */
export const LIST_LIMIT_MAX = 100;

/** The paging parameters every list takes. `cursor` is the `nextCursor` of the previous page, as is. */
export const ListQuerySchema = z.object({
  cursor: CursorSchema.optional(),
  limit: z.coerce
    .number({ error: 'integer' })
    .int('integer')
    .min(1, 'tooSmall')
    .max(LIST_LIMIT_MAX, 'tooBig')
    .default(LIST_LIMIT_DEFAULT),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** The free-text filter of a list (part of a name, an e-mail, an id; any case). */
export const ListSearchSchema = text().trim().max(200, 'tooLong').optional();

/** `includeTotal=true` adds `total` to the page: the rows matching the filters over all pages (costs a count). */
export const IncludeTotalSchema = z
  .enum(['true', 'false'], { error: 'boolean' })
  .optional()
  .transform((v) => v === 'true');

/** One page of a list; `nextCursor` is null on the last page; `total` only when asked for (`includeTotal`). */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable(),
    total: z.number().int().optional(),
  });
}
export type Page<T> = { items: T[]; nextCursor: string | null; total?: number };

/** `:id` of any resource. */
export const IdParamsSchema = z.object({ id: z.uuid({ error: 'uuid' }) });
export type IdParams = z.infer<typeof IdParamsSchema>;
