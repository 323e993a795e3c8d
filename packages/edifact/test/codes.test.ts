import { describe, expect, it } from 'vitest';
import { FINDING_CODES, isFindingCode } from '../src/codes.ts';

describe('finding code catalogue', () => {
  it('holds every code of issue 3 with a severity and a level', () => {
    const required = `EDI_MISSING_UNH EDI_MISSING_UNT EDI_MISSING_UNZ EDI_UNT_COUNT_MISMATCH EDI_UNT_REFERENCE_MISMATCH
      EDI_UNE_COUNT_MISMATCH EDI_UNE_REFERENCE_MISMATCH EDI_UNZ_COUNT_MISMATCH EDI_UNZ_REFERENCE_MISMATCH
      EDI_UNEXPECTED_END_OF_FILE EDI_UNEXPECTED_CHARACTER EDI_UNEXPECTED_SEPARATOR EDI_INVALID_CHARACTER
      EDI_UNSUPPORTED_SYNTAX EDI_UNSUPPORTED_MESSAGE EDI_UNKNOWN_SEGMENT EDI_UNEXPECTED_SEGMENT
      EDI_MANDATORY_SEGMENT_MISSING EDI_FORBIDDEN_SEGMENT EDI_TOO_MANY_OCCURRENCES EDI_TOO_FEW_OCCURRENCES
      EDI_TOO_MANY_ELEMENTS EDI_TOO_MANY_COMPONENTS EDI_MANDATORY_ELEMENT_MISSING EDI_MANDATORY_COMPONENT_MISSING
      EDI_FORBIDDEN_ELEMENT EDI_FORBIDDEN_COMPONENT EDI_INVALID_FORMAT EDI_INVALID_CODE`.split(/\s+/);
    for (const code of required) {
      expect(isFindingCode(code), code).toBe(true);
    }
    for (const info of Object.values(FINDING_CODES)) {
      expect(['error', 'warning', 'info']).toContain(info.severity);
      expect(['syntax', 'specification', 'map']).toContain(info.level);
    }
  });
});
