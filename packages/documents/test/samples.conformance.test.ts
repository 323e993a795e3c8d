/**
 * Conformance: every message of the third-party sample corpus (`../shared/samples/edifact`, 100-odd files from
 * other EDIFACT projects, never copied here: EANCOM and plain UN/EDIFACT, D93A to D14B, good and broken) maps
 * without throwing to a body and summary that fit their schemas. Skipped when the corpus is not there.
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENT_KINDS } from '../src/canonical.ts';
import { expectValid, hasSamples, listSamples, mapAll, readSample } from './helpers.ts';

describe.skipIf(!hasSamples)('the sample corpus', () => {
  it('maps every message of every sample to a valid body and summary', () => {
    let messages = 0;
    const kinds = new Set<string>();
    for (const name of listSamples()) {
      for (const mapped of mapAll(readSample(name))) {
        expectValid(mapped, name);
        kinds.add(mapped.summary.kind);
        messages++;
      }
    }
    expect(messages).toBeGreaterThan(150);
    // The corpus holds a message of every kind.
    expect([...kinds].sort()).toEqual([...DOCUMENT_KINDS].sort());
  });
});
