import type { TFunction } from 'i18next';
import { DOCUMENT_TYPE_CODES } from '@portal/contracts';

/**
 * The label of a document type code (ORDERS → "Order (ORDERS)"), from the one list in the common namespace that the
 * partners, restrictions and documents screens share; a code a later standard brings, as it is.
 */
export function documentTypeLabel(t: TFunction<'common'>, code: string): string {
  const known = DOCUMENT_TYPE_CODES.find((c) => c === code);
  return known ? t(`documentTypes.${known}`) : code;
}
