import { FINDING_CODES, type FindingCode } from './codes.ts';
import type { Finding, Severity } from './model.ts';

/** Fields of a finding besides code, severity and level. */
export type FindingFields = Omit<Finding, 'code' | 'severity' | 'level'> & {
  severity?: Severity;
  level?: Finding['level'];
};

/**
 * Builds a finding with the catalogue's default severity and level for `code`; `fields` may override them.
 * Plugins can use it too, so that every level fills findings the same way.
 */
export const createFinding = (code: FindingCode, fields: FindingFields): Finding => {
  const info = FINDING_CODES[code];
  const finding: Finding = {
    code,
    severity: fields.severity ?? info.severity,
    level: fields.level ?? info.level,
    path: fields.path,
    line: fields.line,
    column: fields.column,
    offset: fields.offset,
  };
  if (fields.fieldName !== undefined) finding.fieldName = fields.fieldName;
  if (fields.messageType !== undefined) finding.messageType = fields.messageType;
  if (fields.version !== undefined) finding.version = fields.version;
  if (fields.documentNumber !== undefined) finding.documentNumber = fields.documentNumber;
  if (fields.messageReference !== undefined) finding.messageReference = fields.messageReference;
  if (fields.expected !== undefined) finding.expected = fields.expected;
  if (fields.actual !== undefined) finding.actual = fields.actual;
  if (fields.params !== undefined) finding.params = fields.params;
  return finding;
};

/** Orders findings by position, then by code, for stable output. */
export const compareFindings = (a: Finding, b: Finding): number =>
  a.offset - b.offset || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
