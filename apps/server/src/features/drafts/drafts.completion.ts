import type { DraftForm } from '@portal/contracts';
import type { CanonicalDocument, Line } from '@portal/documents';
import { thousandths, thousandthsText as text } from '../../lib/thousandths.ts';

/**
 * How much of an order its answers cover (issue 12, part 2): the quantities despatched or invoiced by the drafts sent
 * in answer to it, per order line, against the quantities ordered. Quantities are compared as exact thousandths
 * (the forms allow three decimals), never as binary floats.
 */
/** An order line's key: its line number, else its GTIN. */
const keyOfOrderLine = (line: Line, index: number) => line.lineNumber ?? line.gtin ?? String(index + 1);
const keyOfAnswer = (line: DraftForm['lines'][number]) => line.orderLineNumber || line.gtin;

/** What each line of the order asked (qualifier 21), by key. */
export function orderedQuantities(order: CanonicalDocument): Map<string, bigint> {
  const out = new Map<string, bigint>();
  order.lines.forEach((line, i) => {
    const quantity = line.quantities.find((q) => q.qualifier === '21') ?? line.quantities[0];
    out.set(keyOfOrderLine(line, i), thousandths(quantity?.value));
  });
  return out;
}

/** The quantities the answers cover, by the order's line keys. */
export function answeredQuantities(answers: readonly DraftForm[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const form of answers) {
    for (const line of form.lines) {
      const key = keyOfAnswer(line);
      if (key) out.set(key, (out.get(key) ?? 0n) + thousandths(line.quantity));
    }
  }
  return out;
}

/** What is still open of each line of a new answer: ordered less answered, never below zero. */
export function openQuantity(ordered: Map<string, bigint>, answered: Map<string, bigint>, key: string): string | null {
  const asked = ordered.get(key);
  if (asked === undefined) return null;
  const open = asked - (answered.get(key) ?? 0n);
  return text(open > 0n ? open : 0n);
}

/**
 * The order's additional status from its answers: Completed when the despatches or the invoices cover every line,
 * Partially Completed when some quantity was answered, null when nothing was.
 */
export function completionOf(
  order: CanonicalDocument,
  answersByKind: readonly (readonly DraftForm[])[],
): 'completed' | 'partially_completed' | null {
  const ordered = orderedQuantities(order);
  let any = false;
  for (const answers of answersByKind) {
    if (answers.length === 0) continue;
    const answered = answeredQuantities(answers);
    if ([...answered.values()].some((q) => q > 0n)) any = true;
    if (ordered.size > 0 && [...ordered].every(([key, asked]) => (answered.get(key) ?? 0n) >= asked)) {
      return 'completed';
    }
  }
  return any ? 'partially_completed' : null;
}
