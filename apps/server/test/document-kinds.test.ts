import { DOCUMENT_KIND_CODES } from '@portal/contracts';
import { DOCUMENT_KINDS } from '@portal/documents';
import { describe, expect, it } from 'vitest';

// The canonical body (packages/documents) and the list's filter (contracts) each hold the business kinds, as neither
// package may import the other; the server stores one and filters by the other, so they must be the same list.
describe('document kinds', () => {
  it('are the same in the canonical body and in the list contract', () => {
    expect([...DOCUMENT_KINDS]).toEqual([...DOCUMENT_KIND_CODES]);
  });
});
