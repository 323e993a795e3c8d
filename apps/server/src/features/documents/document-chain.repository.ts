import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documentScope, type DocumentReader } from '../../access/document-scope.ts';
import { SCOPE } from './documents.repository.ts';
import { documentLinks, documents as doc } from './documents.table.ts';

export type ChainRow = {
  id: string;
  kind: string;
  documentType: string;
  number: string | null;
  direction: string;
  status: string;
  businessStatus: string | null;
  additionalStatus: string | null;
  businessDate: string | null;
  platformTimestamp: Date;
};

/** The reads of a document's chain: the reference links around a set of documents, and the rows a reader may see. */
export function createDocumentChainRepository(db: Db) {
  return {
    /** The `reference` links touching any of the ids (a document and those its references name, both ways). */
    async referenceLinks(ids: readonly string[]): Promise<{ fromId: string; toId: string }[]> {
      if (ids.length === 0) return [];
      return db
        .select({ fromId: documentLinks.fromId, toId: documentLinks.toId })
        .from(documentLinks)
        .where(
          and(
            eq(documentLinks.kind, 'reference'),
            or(inArray(documentLinks.fromId, [...ids]), inArray(documentLinks.toId, [...ids])),
          ),
        );
    },

    /** Of the ids, the rows the reader's scope holds (the access scope, decision 0010). */
    async visibleRows(reader: DocumentReader, ids: readonly string[]): Promise<ChainRow[]> {
      if (ids.length === 0) return [];
      return db
        .select({
          id: doc.id,
          kind: doc.kind,
          documentType: doc.documentType,
          number: doc.number,
          direction: doc.direction,
          status: doc.status,
          businessStatus: doc.businessStatus,
          additionalStatus: doc.additionalStatus,
          businessDate: doc.businessDate,
          platformTimestamp: doc.platformTimestamp,
        })
        .from(doc)
        .where(and(documentScope(reader, SCOPE), inArray(doc.id, [...ids])));
    },
  };
}
