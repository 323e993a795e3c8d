import { describe, expect, it } from 'vitest';
import { parse } from '../src/parser.ts';
import type { Finding } from '../src/model.ts';

const ENV = (body: string, count = 1, ref = 'R1'): string =>
  `UNB+UNOC:3+SENDER+RECIPIENT+240101:1200+${ref}'${body}UNZ+${count}+${ref}'`;
const ORDERS = (ref = 'M1', count = 3): string =>
  `UNH+${ref}+ORDERS:D:96A:UN:EAN008'BGM+220+PO123+9'UNT+${count}+${ref}'`;

/** Latin-1 text to bytes (one byte per char), to write byte-level cases readably. */
const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

type Case = {
  name: string;
  input: string | Uint8Array;
  code: string;
  path?: string;
  severity?: Finding['severity'];
  strict?: boolean;
  offset?: number;
};

const cases: Case[] = [
  { name: 'UNH missing', input: ENV(`BGM+220+X'UNT+2+M1'`), code: 'EDI_MISSING_UNH', path: 'BGM[1]' },
  {
    name: 'UNT missing before UNZ',
    input: ENV(`UNH+M1+ORDERS:D:96A:UN'BGM+220+X'`),
    code: 'EDI_MISSING_UNT',
    path: 'UNT[1]',
  },
  { name: 'UNZ missing', input: `UNB+UNOC:3+S+R+240101:1200+R1'${ORDERS()}`, code: 'EDI_MISSING_UNZ', path: 'UNZ[1]' },
  { name: 'UNT count', input: ENV(ORDERS('M1', 4)), code: 'EDI_UNT_COUNT_MISMATCH', path: 'UNT[1]/0074' },
  {
    name: 'UNT reference',
    input: ENV(`UNH+M1+ORDERS:D:96A:UN'BGM+220+X'UNT+3+M2'`),
    code: 'EDI_UNT_REFERENCE_MISMATCH',
    path: 'UNT[1]/0062',
  },
  {
    name: 'UNE count',
    input: ENV(`UNG+ORDERS+S+R+240101:1200+G1+UN+D:96A'${ORDERS()}UNE+2+G1'`),
    code: 'EDI_UNE_COUNT_MISMATCH',
    path: 'UNE[1]/0060',
  },
  {
    name: 'UNE reference',
    input: ENV(`UNG+ORDERS+S+R+240101:1200+G1+UN+D:96A'${ORDERS()}UNE+1+G2'`),
    code: 'EDI_UNE_REFERENCE_MISMATCH',
    path: 'UNE[1]/0048',
  },
  { name: 'UNZ count', input: ENV(ORDERS(), 2), code: 'EDI_UNZ_COUNT_MISMATCH', path: 'UNZ[1]/0036' },
  {
    name: 'UNZ reference',
    input: `UNB+UNOC:3+S+R+240101:1200+R1'${ORDERS()}UNZ+1+R2'`,
    code: 'EDI_UNZ_REFERENCE_MISMATCH',
    path: 'UNZ[1]/0020',
  },
  { name: 'end of file inside a segment', input: ENV(ORDERS()).slice(0, -1), code: 'EDI_UNEXPECTED_END_OF_FILE' },
  { name: 'empty input', input: '', code: 'EDI_UNEXPECTED_END_OF_FILE', offset: 0 },
  { name: 'UNA only', input: "UNA:+.? '", code: 'EDI_UNEXPECTED_END_OF_FILE' },
  { name: 'junk before UNB', input: '####\n' + ENV(ORDERS()), code: 'EDI_UNEXPECTED_CHARACTER', offset: 0 },
  { name: 'empty segment', input: ENV(ORDERS() + "'"), code: 'EDI_UNEXPECTED_SEPARATOR' },
  {
    name: 'separator after tag',
    input: ENV(`UNH+M1+ORDERS:D:96A:UN'BGM:1+220'UNT+3+M1'`),
    code: 'EDI_UNEXPECTED_SEPARATOR',
  },
  {
    name: 'lower case under UNOA',
    input: ENV(`UNH+M1+ORDERS:D:96A:UN'FTX+AAA+++hello'UNT+3+M1'`).replace('UNOC', 'UNOA'),
    code: 'EDI_INVALID_CHARACTER',
    path: 'FTX[1]/4/1',
  },
  {
    name: 'UTF-8 under UNOC is Latin-1 text, C1 bytes are invalid',
    input: bytes(ENV(`UNH+M1+ORDERS:D:96A:UN'FTX+AAA+++\u00c2\u0085'UNT+3+M1'`)),
    code: 'EDI_INVALID_CHARACTER',
  },
  {
    name: 'invalid UTF-8 under UNOW',
    input: bytes(ENV(`UNH+M1+ORDERS:D:96A:UN'FTX+AAA+++\u00ff'UNT+3+M1'`).replace('UNOC:3', 'UNOW:4')),
    code: 'EDI_INVALID_CHARACTER',
  },
  {
    name: 'unknown syntax identifier',
    input: ENV(ORDERS()).replace('UNOC', 'XXXA'),
    code: 'EDI_UNSUPPORTED_SYNTAX',
    path: 'UNB[1]/S001/0001',
  },
  {
    name: 'unknown syntax version',
    input: ENV(ORDERS()).replace('UNOC:3', 'UNOC:7'),
    code: 'EDI_UNSUPPORTED_SYNTAX',
    path: 'UNB[1]/S001/0002',
  },
  {
    name: 'release before a plain character',
    input: ENV(`UNH+M1+ORDERS:D:96A:UN'FTX+AAA+++A?B'UNT+3+M1'`),
    code: 'EDI_INVALID_RELEASE',
  },
  { name: 'bad tag', input: ENV(`UNH+M1+ORDERS:D:96A:UN'BG+220'UNT+3+M1'`), code: 'EDI_INVALID_SEGMENT_TAG' },
  { name: 'UNA with equal separators', input: "UNA++.? '" + ENV(ORDERS()), code: 'EDI_INVALID_SERVICE_STRING' },
  { name: 'bare message', input: ORDERS(), code: 'EDI_MISSING_UNB', severity: 'warning' },
  { name: 'bare message, strict', input: ORDERS(), code: 'EDI_MISSING_UNB', severity: 'error', strict: true },
  {
    name: 'UNE without UNG',
    input: ENV(`${ORDERS()}UNE+1+G1'`),
    code: 'EDI_MISSING_UNG',
  },
  {
    name: 'UNG not closed',
    input: ENV(`UNG+ORDERS+S+R+240101:1200+G1+UN+D:96A'${ORDERS()}`),
    code: 'EDI_MISSING_UNE',
  },
  {
    name: 'UNO without UNP',
    input: `UNB+UNOC:4+S+R+20240101:1200+R1'UNO+P1+1+13+3'abcUNZ+1+R1'`,
    code: 'EDI_MISSING_UNP',
  },
  {
    name: 'groups and messages mixed',
    input: ENV(`${ORDERS()}UNG+ORDERS+S+R+240101:1200+G1+UN+D:96A'${ORDERS('M2')}UNE+1+G1'`, 2),
    code: 'EDI_MIXED_GROUPS_AND_MESSAGES',
  },
  { name: 'duplicate message reference', input: ENV(ORDERS() + ORDERS(), 2), code: 'EDI_DUPLICATE_MESSAGE_REFERENCE' },
  {
    name: 'duplicate group reference',
    input: ENV(
      `UNG+ORDERS+S+R+240101:1200+G1+UN+D:96A'${ORDERS()}UNE+1+G1'UNG+ORDERS+S+R+240101:1200+G1+UN+D:96A'${ORDERS('M2')}UNE+1+G1'`,
      2,
    ),
    code: 'EDI_DUPLICATE_GROUP_REFERENCE',
  },
  { name: 'byte-order mark', input: '\uFEFF' + ENV(ORDERS()), code: 'EDI_BYTE_ORDER_MARK', severity: 'warning' },
  {
    name: 'byte-order mark, strict',
    input: '\uFEFF' + ENV(ORDERS()),
    code: 'EDI_BYTE_ORDER_MARK',
    severity: 'error',
    strict: true,
  },
  {
    name: 'line breaks',
    input: ENV(ORDERS()).replaceAll("'", "'\r\n"),
    code: 'EDI_WHITESPACE_BETWEEN_SEGMENTS',
    severity: 'warning',
  },
  { name: 'UNZ without UNB', input: ORDERS() + `UNZ+1+R1'`, code: 'EDI_UNEXPECTED_SEGMENT', path: 'UNZ[1]' },
  {
    name: 'UNB element missing',
    input: ENV(ORDERS()).replace('+SENDER', '+'),
    code: 'EDI_MANDATORY_ELEMENT_MISSING',
    path: 'UNB[1]/S002',
  },
  {
    name: 'UNB component missing',
    input: ENV(ORDERS()).replace('UNOC:3', 'UNOC'),
    code: 'EDI_MANDATORY_COMPONENT_MISSING',
    path: 'UNB[1]/S001/0002',
  },
  {
    name: 'UNT count not numeric',
    input: ENV(ORDERS('M1', 3).replace('UNT+3', 'UNT+X')),
    code: 'EDI_INVALID_FORMAT',
    path: 'UNT[1]/0074',
  },
  {
    name: 'UNZ too many elements',
    input: ENV(ORDERS()).replace("UNZ+1+R1'", "UNZ+1+R1+X'"),
    code: 'EDI_TOO_MANY_ELEMENTS',
  },
  {
    name: 'UNT too many components',
    input: ENV(ORDERS().replace('UNT+3+M1', 'UNT+3:1+M1')),
    code: 'EDI_TOO_MANY_COMPONENTS',
  },
];

describe('level 1 finding codes', () => {
  it.each(cases)('$name -> $code', ({ input, code, path, severity, strict, offset }) => {
    const { findings } = parse(input, { strict: strict === true });
    const found = findings.filter((f) => f.code === code);
    expect(found.length, JSON.stringify(findings)).toBeGreaterThan(0);
    const f = found[0] as Finding;
    expect(f.level).toBe('syntax');
    if (path !== undefined) expect(f.path).toBe(path);
    if (severity !== undefined) expect(f.severity).toBe(severity);
    if (offset !== undefined) expect(f.offset).toBe(offset);
  });

  it('a well-formed interchange has no finding', () => {
    const { findings, interchanges } = parse(ENV(ORDERS()));
    expect(findings).toEqual([]);
    expect(interchanges).toHaveLength(1);
    const message = interchanges[0]?.messages[0];
    expect(message).toMatchObject({
      type: 'ORDERS',
      directory: 'D96A',
      association: 'EAN008',
      documentNumber: 'PO123',
    });
  });

  it('message findings carry the message fields', () => {
    const { findings } = parse(ENV(ORDERS('M1', 9)));
    expect(findings[0]).toMatchObject({
      code: 'EDI_UNT_COUNT_MISMATCH',
      messageType: 'ORDERS',
      version: 'D96A',
      documentNumber: 'PO123',
      messageReference: 'M1',
      expected: '3',
      actual: '9',
      line: 1,
    });
  });
});

describe('tokenizer details', () => {
  it('honours UNA service characters, the release character and repetitions', () => {
    const text =
      'UNA*@,! #UNB@UNOC*4@S@R@20240101*1200@R1#UNH@1@ORDERS*D*96A*UN#FTX@AAA@@@a!@b!*c!!d*e#UNT@3@1#UNZ@1@R1#';
    const { interchanges, findings } = parse(text);
    expect(findings).toEqual([]);
    const ftx = interchanges[0]?.messages[0]?.segments[1];
    expect(ftx?.elements[3]).toEqual({ components: ['a@b*c!d', 'e'] });
    expect(interchanges[0]?.delimiters).toMatchObject({
      component: '*',
      element: '@',
      decimal: ',',
      release: '!',
      repetition: ' ',
      segment: '#',
    });
  });

  it('uses the syntax 4 repetition separator', () => {
    const { interchanges } = parse(
      "UNA:+.?*'UNB+UNOW:4+S+R+20240101:1200+R1'UNH+1+ORDERS:D:96A:UN'FTX+AAA+++x*y'UNT+3+1'UNZ+1+R1'",
    );
    expect(interchanges[0]?.messages[0]?.segments[1]?.elements[3]).toEqual({ components: ['x'], repeats: [['y']] });
  });

  it('decodes UTF-8 under UNOW and Latin-1 under UNOC', () => {
    const utf8 = new TextEncoder().encode(
      "UNB+UNOW:4+S+R+20240101:1200+R1'UNH+1+ORDERS:D:96A:UN'FTX+AAA+++Zażółć'UNT+3+1'UNZ+1+R1'",
    );
    expect(parse(utf8).interchanges[0]?.messages[0]?.segments[1]?.elements[3]?.components[0]).toBe('Zażółć');
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode("UNB+UNOC:3+S+R+240101:1200+R1'UNH+1+ORDERS:D:96A:UN'FTX+AAA+++M"),
      0xfc,
      ...new TextEncoder().encode("ller'UNT+3+1'UNZ+1+R1'"),
    ]);
    const r = parse(latin1);
    expect(r.findings).toEqual([]);
    expect(r.interchanges[0]?.messages[0]?.segments[1]?.elements[3]?.components[0]).toBe('Müller');
  });

  it('keeps UNO/UNP package objects opaque, even when they hold separators', () => {
    const input = "UNB+UNOC:4+S+R+20240101:1200+R1'UNO+P1+1+13+6'a+b'c:UNP+6+P1'UNZ+1+R1'";
    const { interchanges, findings } = parse(input);
    expect(findings).toEqual([]);
    expect(new TextDecoder().decode(interchanges[0]?.packages[0]?.bytes)).toBe("a+b'c:");
  });

  it('reads level B IS separators when UNB uses them', () => {
    const input =
      'UNB\x1dUNOB\x1f3\x1dS\x1dR\x1d240101\x1f1200\x1dR1\x1cUNH\x1d1\x1dORDERS\x1fD\x1f96A\x1fUN\x1cUNT\x1d2\x1d1\x1cUNZ\x1d1\x1dR1\x1c';
    const { interchanges, findings } = parse(input);
    expect(findings).toEqual([]);
    expect(interchanges[0]?.messages[0]?.type).toBe('ORDERS');
  });
});
