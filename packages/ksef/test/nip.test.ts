import { describe, expect, it } from 'vitest';
import { isValidNip } from '../src/nip.ts';

describe('isValidNip', () => {
  it('accepts NIPs with a correct check digit', () => {
    // 5265877635: the Ministry's own NIP in the UPOs; 7251801126 and the samples' 9999999999 / 1111111111.
    for (const nip of ['5265877635', '7251801126', '9999999999', '1111111111', '725-180-11-26']) {
      expect(isValidNip(nip), nip).toBe(true);
    }
  });

  it('refuses a wrong check digit, a wrong length and letters', () => {
    for (const nip of ['5265877636', '526587763', '52658776350', 'PL52658776', '']) {
      expect(isValidNip(nip), nip).toBe(false);
    }
  });
});
