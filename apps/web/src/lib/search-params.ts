import { z } from 'zod';

/**
 * Pieces of the lists' search parameters: the filters live in the address, so a filtered list can be shared and
 * survives a reload. Anything unreadable is dropped instead of failing the page.
 */

/** A free-text filter. */
export const searchText = z.string().trim().max(200).optional().catch(undefined);

/** The parsed search without its empty values, so the address carries no `?search=`. */
export const withoutEmpty = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;
