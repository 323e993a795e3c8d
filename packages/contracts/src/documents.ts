import { z } from 'zod';

/**
 * Documents (the documents issue builds on this): the business document types and the directions of the exchange.
 * Restrictions name them today; the document access scope and the documents themselves use the same codes.
 */

/** EDIFACT message types by their UNH name; KSeF invoices and e-TTN by their own. */
export const DOCUMENT_TYPE_CODES = [
  'ORDERS',
  'ORDRSP',
  'DESADV',
  'INVOIC',
  'RECADV',
  'PRICAT',
  'APERAK',
  'KSEF_INVOICE',
  'ETTN',
] as const;
export type DocumentTypeCode = (typeof DOCUMENT_TYPE_CODES)[number];
export const DocumentTypeCodeSchema = z.enum(DOCUMENT_TYPE_CODES, { error: 'oneOf' });

/** `in`: received by the company (its inbox); `out`: sent by it (its outbox). */
export const DOCUMENT_DIRECTIONS = ['in', 'out'] as const;
export type DocumentDirection = (typeof DOCUMENT_DIRECTIONS)[number];
