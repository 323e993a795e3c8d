import type { DocumentChain } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { documentReaderOf } from '../../access/document-scope.ts';
import { notFound } from '../../lib/app-error.ts';
import { createDocumentChainRepository } from './document-chain.repository.ts';
import type { DocumentsCaller } from './documents.service.ts';

/** A chain holds at most this many documents, found within this many reference steps of the document. */
export const CHAIN_MAX_DOCUMENTS = 50;
const CHAIN_MAX_STEPS = 4;
/** The order of a chain's kinds, for documents of one instant. */
const STAGES = [
  'order',
  'order_response',
  'despatch_advice',
  'invoice',
  'credit_note',
  'receiving_advice',
  'application_error',
  'syntax_report',
];

/**
 * One document's chain (issue 12, part 4): the documents its references connect it with in the reader's company (an
 * order, its responses, despatch advices, invoices, receiving advices, acknowledgements), walked along the `reference`
 * links a few steps both ways, each with its statuses, in the order they reached the platform. Bounded: a chain never
 * costs more than CHAIN_MAX_STEPS queries of at most CHAIN_MAX_DOCUMENTS ids. The reader sees what its scope holds.
 */
export function createDocumentChainService(deps: { db: Db }) {
  const repo = createDocumentChainRepository(deps.db);
  return {
    async chain(caller: DocumentsCaller, id: string): Promise<DocumentChain> {
      const reader = await documentReaderOf(deps.db, caller);
      const [self] = await repo.visibleRows(reader, [id]);
      if (!self) throw notFound();
      const found = new Set([id]);
      let frontier = [id];
      for (let step = 0; step < CHAIN_MAX_STEPS && frontier.length && found.size < CHAIN_MAX_DOCUMENTS; step++) {
        const next: string[] = [];
        for (const link of await repo.referenceLinks(frontier)) {
          for (const other of [link.fromId, link.toId]) {
            if (!found.has(other) && found.size < CHAIN_MAX_DOCUMENTS) {
              found.add(other);
              next.push(other);
            }
          }
        }
        frontier = next;
      }
      const rows = await repo.visibleRows(reader, [...found]);
      // Documents stored in the same instant (one upload, a frozen clock) follow the chain's business order.
      const stage = (kind: string) => (STAGES.indexOf(kind) + STAGES.length + 1) % (STAGES.length + 1);
      rows.sort(
        (a, b) =>
          a.platformTimestamp.getTime() - b.platformTimestamp.getTime() ||
          stage(a.kind) - stage(b.kind) ||
          (a.number ?? '').localeCompare(b.number ?? '') ||
          a.id.localeCompare(b.id),
      );
      return {
        items: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          documentType: row.documentType,
          number: row.number,
          direction: row.direction as 'in' | 'out',
          status: row.status,
          businessStatus: row.businessStatus,
          additionalStatus: row.additionalStatus,
          businessDate: row.businessDate,
          timestamp: row.platformTimestamp.toISOString(),
        })),
      };
    },
  };
}
