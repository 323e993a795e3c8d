import type { ErrorDetail } from '@portal/contracts';
import { notFound } from './app-error.ts';

/**
 * The company features (users, groups, restrictions) work inside the caller's company; a caller without one (a
 * platform admin) finds nothing there.
 */
export function companyOf(caller: { companyId: string | null }): string {
  if (!caller.companyId) throw notFound();
  return caller.companyId;
}

/** Field errors (`<field>.<index>`) for ids that are not of the caller's company: the same answer as unknown ids. */
export function unknownIds(field: string, ids: readonly string[], known: ReadonlySet<string>): ErrorDetail[] {
  return ids.flatMap((id, i) => (known.has(id) ? [] : [{ field: `${field}.${i}`, code: 'notFound' }]));
}

/** Values without repetitions, in first-seen order. */
export const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
