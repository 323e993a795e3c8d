/**
 * The specification level skips the segment-table walk for a message whose tag sequence it has walked before
 * without finding anything (MessageShape). This checks that it finds exactly what a first walk finds, on real
 * D96A / D01B messages and random mutations of their values and structure.
 */
import { describe, expect, it } from 'vitest';
import type { Directory } from '../../src/directory/types.ts';
import { validateSpecification } from '../../src/spec/specification.ts';
import { getTestDirectory } from '../directory/helpers.ts';
import { checkSamplesAndMutations, messagesOf } from './mutations.ts';

describe('specification level on known message shapes', () => {
  it('finds the same as a first walk', { timeout: 60_000 }, async () => {
    // `warm` keeps its compiled tables (and shapes) across checks; a copy of a directory has fresh ones.
    const warm: Record<string, Directory> = {
      D96A: await getTestDirectory('D96A'),
      D01B: await getTestDirectory('D01B'),
    };
    const options = { decimal: '.', syntaxVersion: 3 };
    let found = 0;
    const check = (input: Uint8Array): void => {
      for (const message of messagesOf(input)) {
        const directory = warm[message.directory.toUpperCase()];
        const fresh = directory ? { ...directory } : undefined;
        const expected = validateSpecification(message, fresh, options);
        found += expected.length;
        // Twice: the first may record the shape, the second uses it.
        expect(validateSpecification(message, directory, options)).toEqual(expected);
        expect(validateSpecification(message, directory, options)).toEqual(expected);
      }
    };
    checkSamplesAndMutations(check);
    expect(found).toBeGreaterThan(100);
  });
});
