/**
 * The EDIFACT inputs of these tests: the edifact package's own fixtures (every `npm test`) and the third-party
 * sample corpus beside the clone (the conformance suite), read through that package's test helpers so both suites
 * see the same files.
 */
import { parse } from '@portal/edifact';
import { expect } from 'vitest';
import { CanonicalDocumentSchema, DocumentSummarySchema } from '../src/canonical.ts';
import { mapEdifactInterchanges, type MappedDocument } from '../src/edifact/map.ts';

export {
  hasSamples,
  listFixtures,
  listSamples,
  readFixture,
  readSample,
  samplesDir,
} from '../../edifact/test/helpers.ts';

/** Every message of an EDIFACT input, mapped. */
export const mapAll = (input: Uint8Array | string): MappedDocument[] =>
  mapEdifactInterchanges(parse(input).interchanges);

/**
 * The body and summary fit their schemas exactly: parsing them strictly gives them back unchanged, so the mapper
 * writes no field the schema does not name and no value of the wrong shape.
 */
export const expectValid = (mapped: MappedDocument, name: string): void => {
  expect(CanonicalDocumentSchema.strict().parse(mapped.document), name).toEqual(mapped.document);
  expect(DocumentSummarySchema.strict().parse(mapped.summary), name).toEqual(mapped.summary);
};
