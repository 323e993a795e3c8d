import type { DocumentBusinessStatus } from '@portal/contracts';
import type { CanonicalDocument, Line } from '@portal/documents';
import { thousandths } from '../../lib/thousandths.ts';

/**
 * The business status the store derives from what the data says (decision 0025), nothing more: an order is a new
 * order when it arrives (a cancellation, BGM 1225 "1", a request of cancellation); a document whose reference names an
 * order (a `reference` link, decision 0022) moves that order on: an order response by its BGM 1225 (29 accepted
 * without amendment: confirmed; 4 change: modified and waiting for validation; 27 not accepted: order rejected), a
 * despatch advice: dispatched; a receiving advice: delivered; an invoice: invoiced, or partly invoiced while the invoices
 * of the order cover less than it asked ({@link invoicedCoverage}). An order never moves back (a late
 * order response does not undo its despatch). An application error (APERAK) received about a document of the
 * outbox answers it (decision 0034): 29 accepted without amendment: confirmed; 27 not accepted: anomaly reported. The
 * other statuses of the description wait for the messages and transports that carry them (IFTSTA, the French
 * platforms' statuses).
 */
export function initialBusinessStatus(
  kind: string,
  functionCode: string | null | undefined,
): DocumentBusinessStatus | null {
  if (kind !== 'order') return null;
  return functionCode === '1' ? 'cancellation_requested' : 'new_order';
}

/** What a document linked to an order says of that order, or null when it says nothing the store can tell. */
export function statusFromLinked(kind: string, functionCode: string | null | undefined): DocumentBusinessStatus | null {
  switch (kind) {
    case 'order_response':
      if (functionCode === '29') return 'confirmed';
      if (functionCode === '4') return 'modified_awaiting_validation';
      if (functionCode === '27') return 'rejected';
      return null;
    case 'despatch_advice':
      return 'dispatched';
    case 'receiving_advice':
      return 'delivered';
    case 'invoice':
      return 'invoiced';
    case 'application_error':
      if (functionCode === '29') return 'confirmed';
      if (functionCode === '27') return 'anomaly_reported';
      return null;
    default:
      return null;
  }
}

/** How far along an order's chain each derived status is. */
const STAGE: Partial<Record<string, number>> = {
  new_order: 0,
  cancellation_requested: 1,
  confirmed: 1,
  modified_awaiting_validation: 1,
  rejected: 1,
  anomaly_reported: 1,
  dispatched: 2,
  delivered: 3,
  partly_invoiced: 4,
  invoiced: 5,
};

/** Whether an order of status `current` takes `next`: the same stage or later, never back. */
export function advances(current: string | null, next: DocumentBusinessStatus): boolean {
  if (current === next) return false;
  return (STAGE[next] ?? 0) >= (current === null ? -1 : (STAGE[current] ?? -1));
}

/** The longest reason an answer's history row keeps of the APERAK's error texts. */
const ANSWER_REASON_MAX = 1000;

/** The reason an APERAK gives (its errors' texts, FTX AAO), for the history of the document it answers. */
export function answerReason(body: CanonicalDocument): string | null {
  const text = body.errors
    .map((e) => e.text?.trim())
    .filter(Boolean)
    .join('; ');
  return text ? text.slice(0, ANSWER_REASON_MAX) : null;
}

const quantityOf = (line: Line, qualifier: string) =>
  thousandths((line.quantities.find((q) => q.qualifier === qualifier) ?? line.quantities[0])?.value);

/**
 * Whether the invoices of an order cover it: `invoiced` when every line's ordered quantity (21) is invoiced (47) in
 * sum, else `partly_invoiced`. An invoice line counts for the order line its order reference names (RFF ON with a
 * line number), else for the order line of the same GTIN or article number; a line matching none counts for nothing.
 * An order without lines is invoiced by any invoice.
 */
export function invoicedCoverage(
  order: CanonicalDocument,
  invoices: readonly CanonicalDocument[],
): 'invoiced' | 'partly_invoiced' {
  const asked = new Map<number, bigint>();
  const byNumber = new Map<string, number>();
  const byItem = new Map<string, number>();
  order.lines.forEach((line, i) => {
    asked.set(i, quantityOf(line, '21'));
    if (line.lineNumber && !byNumber.has(line.lineNumber)) byNumber.set(line.lineNumber, i);
    for (const id of [line.gtin, line.buyerArticleNumber, line.supplierArticleNumber]) {
      if (id && !byItem.has(id)) byItem.set(id, i);
    }
  });
  const got = new Map<number, bigint>();
  for (const invoice of invoices) {
    for (const line of invoice.lines) {
      const orderLine = line.references?.find((r) => r.qualifier === 'ON' && r.lineNumber)?.lineNumber;
      const index =
        (orderLine === undefined ? undefined : byNumber.get(orderLine)) ??
        [line.gtin, line.buyerArticleNumber, line.supplierArticleNumber]
          .map((id) => (id ? byItem.get(id) : undefined))
          .find((i) => i !== undefined);
      if (index !== undefined) got.set(index, (got.get(index) ?? 0n) + quantityOf(line, '47'));
    }
  }
  for (const [index, quantity] of asked) if ((got.get(index) ?? 0n) < quantity) return 'partly_invoiced';
  return 'invoiced';
}
