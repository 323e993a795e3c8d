/** KSeF numbers: CRC-8 (poly 0x07, init 0, no reflection, no final XOR) over the first 32 characters. */
import { describe, expect, it } from 'vitest';
import { crc8, isValidKsefNumber, ksefNumberChecksum, makeKsefNumber } from '../src/ksef-number.ts';

/** From the TEST UPOs in ../shared/specs/ksef/upo/examples and the Ministry's guide (checked by hand before). */
const KNOWN = [
  '5265877635-20250916-010040741B3E-46',
  '5265877635-20250916-0100C002FF3E-D5',
  '5265877635-20250826-0100001AF629-AF',
];

describe('KSeF numbers', () => {
  it('computes CRC-8/SMBUS (check value of "123456789" is 0xF4)', () => {
    expect(crc8(new TextEncoder().encode('123456789'))).toBe(0xf4);
    expect(ksefNumberChecksum('123456789')).toBe('F4');
    expect(crc8(new Uint8Array())).toBe(0);
  });

  it.each(KNOWN)('accepts %s', (n) => {
    expect(isValidKsefNumber(n)).toBe(true);
  });

  it('refuses a wrong checksum, lower case, a wrong length or an impossible date', () => {
    expect(isValidKsefNumber('5265877635-20250916-010040741B3E-47')).toBe(false);
    expect(isValidKsefNumber('5265877635-20250916-010040741b3e-46')).toBe(false);
    expect(isValidKsefNumber('5265877635-20250916-010040741B3-46')).toBe(false);
    expect(
      isValidKsefNumber(
        `${makeKsefNumber('5265877635', '2025-02-28', '010040741B3E').slice(0, 11)}20250230-010040741B3E-00`,
      ),
    ).toBe(false);
    expect(isValidKsefNumber('')).toBe(false);
  });

  it('accepts the 36-character KSeF 1.0 layout with the same checksum', () => {
    const n = KNOWN[0]!;
    expect(isValidKsefNumber(`${n.slice(0, 26)}-${n.slice(26)}`)).toBe(true);
    expect(isValidKsefNumber(`${n.slice(0, 26)}-${n.slice(26, 33)}00`)).toBe(false);
  });

  it('makes numbers that validate', () => {
    expect(makeKsefNumber('9999999999', '2026-02-01', 'abcdef012345')).toBe('9999999999-20260201-ABCDEF012345-1D');
    expect(makeKsefNumber('1111111111', '20260315', '0123456789AB')).toBe('1111111111-20260315-0123456789AB-D1');
    for (const hex of ['000000000000', 'FFFFFFFFFFFF', '0123456789AB']) {
      expect(isValidKsefNumber(makeKsefNumber('5265877635', '2026-11-27', hex))).toBe(true);
    }
    expect(() => makeKsefNumber('123', '2026-11-27', '000000000000')).toThrow(RangeError);
    expect(() => makeKsefNumber('5265877635', '2026-11', '000000000000')).toThrow(RangeError);
    expect(() => makeKsefNumber('5265877635', '2026-11-27', 'XYZ')).toThrow(RangeError);
  });
});
