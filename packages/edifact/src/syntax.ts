/**
 * Level 1 rules for the service segments of ISO 9735 (annex B of syntax 1-3, part 1 clause 10 / annex of syntax 4):
 * mandatory elements and components, too many of them, and the representation of their values.
 * Written here from the standard (not copied from any directory file).
 */
import { SYNTAX_IDENTIFIERS } from './charsets.ts';
import type { FindingCode } from './codes.ts';
import type { Segment } from './model.ts';

/** A data element of a service segment: simple when `components` is absent. */
type ServiceComponent = { id: string; mandatory: boolean; format: string };
type ServiceElement = { id: string; mandatory: boolean; format?: string; components?: ServiceComponent[] };

const m = (id: string, format: string): ServiceComponent => ({ id, mandatory: true, format });
const c = (id: string, format: string): ServiceComponent => ({ id, mandatory: false, format });
const simple = (id: string, mandatory: boolean, format: string): ServiceElement => ({ id, mandatory, format });
const composite = (id: string, mandatory: boolean, components: ServiceComponent[]): ServiceElement => ({
  id,
  mandatory,
  components,
});

const S001 = composite('S001', true, [m('0001', 'a4'), m('0002', 'an1'), c('0080', 'an..6'), c('0133', 'an..3')]);
const S002 = composite('S002', true, [
  m('0004', 'an..35'),
  c('0007', 'an..4'),
  c('0008', 'an..35'),
  c('0042', 'an..35'),
]);
const S003 = composite('S003', true, [
  m('0010', 'an..35'),
  c('0007', 'an..4'),
  c('0014', 'an..35'),
  c('0046', 'an..35'),
]);
/** Date of preparation (S004 0017): YYMMDD in syntax versions 1 to 3, CCYYMMDD from version 4 on (ISO 9735-1). */
const dateOf = (v: number): string => (v >= 1 && v <= 3 ? 'n6' : v === 4 ? 'n8' : 'n..8');
const S004 = (v: number, mandatory: boolean): ServiceElement =>
  composite('S004', mandatory, [m('0017', dateOf(v)), m('0019', 'n4')]);

/** Service segment layouts; the syntax 4 layout is a superset of 1-3 where they differ only by added elements. */
const SERVICE_SEGMENTS: Record<string, (version: number) => ServiceElement[]> = {
  UNB: (v) => [
    S001,
    S002,
    S003,
    S004(v, true),
    simple('0020', true, 'an..14'),
    composite('S005', false, [m('0022', 'an..14'), c('0025', 'an2')]),
    simple('0026', false, 'an..14'),
    simple('0029', false, 'a1'),
    simple('0031', false, 'n1'),
    simple('0032', false, 'an..35'),
    simple('0035', false, 'n1'),
  ],
  UNZ: () => [simple('0036', true, 'n..6'), simple('0020', true, 'an..14')],
  // Syntax 4 made the UNG identification elements conditional (part 1, UNG).
  UNG: (v) => [
    simple('0038', v < 4, 'an..6'),
    composite('S006', v < 4, [m('0040', 'an..35'), c('0007', 'an..4')]),
    composite('S007', v < 4, [m('0044', 'an..35'), c('0007', 'an..4')]),
    S004(v, v < 4),
    simple('0048', true, 'an..14'),
    simple('0051', v < 4, 'an..3'),
    composite('S008', v < 4, [m('0052', 'an..3'), c('0054', 'an..3'), c('0057', 'an..6')]),
    simple('0058', false, 'an..14'),
  ],
  UNE: () => [simple('0060', true, 'n..6'), simple('0048', true, 'an..14')],
  UNH: () => [
    simple('0062', true, 'an..14'),
    composite('S009', true, [
      m('0065', 'an..6'),
      m('0052', 'an..3'),
      m('0054', 'an..3'),
      m('0051', 'an..3'),
      c('0057', 'an..6'),
      c('0110', 'an..6'),
      c('0113', 'an..6'),
    ]),
    simple('0068', false, 'an..35'),
    composite('S010', false, [m('0070', 'n..2'), c('0073', 'a1')]),
    composite('S016', false, [m('0115', 'an..14'), c('0116', 'an..3'), c('0118', 'an..3'), c('0051', 'an..3')]),
    composite('S017', false, [m('0121', 'an..14'), c('0122', 'an..3'), c('0124', 'an..3'), c('0051', 'an..3')]),
    composite('S018', false, [m('0127', 'an..14'), c('0128', 'an..3'), c('0130', 'an..3'), c('0051', 'an..3')]),
  ],
  UNT: () => [simple('0074', true, 'n..10'), simple('0062', true, 'an..14')],
  UNO: () => [
    simple('0800', true, 'an..35'),
    composite('S020', true, [m('0802', 'an..35'), c('0804', 'an..35')]),
    composite('S021', true, [m('0805', 'an..3'), c('0809', 'an..256'), c('0808', 'an..3')]),
    composite('S022', true, [m('0810', 'n..18'), c('0814', 'n..3'), c('0070', 'n..2'), c('0073', 'a1')]),
    composite('S302', false, [m('0300', 'an..35'), c('0303', 'an..35'), c('0051', 'an..3'), c('0304', 'an..35')]),
    composite('S301', false, [m('0320', 'n..6'), c('0323', 'a1'), c('0325', 'a1')]),
    composite('S300', false, [c('0338', 'n..8'), c('0314', 'an..15'), c('0336', 'n4')]),
    simple('0035', false, 'n1'),
  ],
  UNP: () => [simple('0810', true, 'n..18'), simple('0800', true, 'an..35')],
};

/** A problem found in a service segment, positioned by element and component (1-based). */
export type ServiceIssue = {
  code: FindingCode;
  /** e.g. `S001/0002` or `0074`. */
  path: string;
  element: number;
  component?: number;
  expected?: string;
  actual?: string;
};

type CompiledRepresentation = { kind: 'a' | 'an' | 'n'; max: number; fixed: boolean } | null;
const representations = new Map<string, CompiledRepresentation>();

const compileRepresentation = (format: string): CompiledRepresentation => {
  let compiled = representations.get(format);
  if (compiled !== undefined) return compiled;
  const match = /^(a|an|n)(\.\.)?(\d+)$/.exec(format);
  compiled = match
    ? { kind: match[1] as 'a' | 'an' | 'n', max: Number(match[3]), fixed: match[2] === undefined }
    : null;
  if (representations.size < 1000) representations.set(format, compiled);
  return compiled;
};

/** Whether `value` matches an ISO 9735 representation such as `a4`, `an..14`, `n..6`. */
export const matchesFormat = (value: string, format: string): boolean => {
  const r = compileRepresentation(format);
  if (r === null) return true;
  if (value.length > r.max || (r.fixed && value.length !== r.max)) return false;
  if (r.kind === 'n') {
    if (value.length === 0) return false;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return false;
    }
    return true;
  }
  if (r.kind === 'a') {
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x30 && c <= 0x39) return false;
    }
  }
  return true;
};

/** Layouts per tag and syntax version, built once (they are constant). */
const layouts = new Map<string, (ServiceElement[] | undefined)[]>();
const layoutOf = (tag: string, syntaxVersion: number): ServiceElement[] | undefined => {
  // By tag, then version (no key string built per segment: UNH and UNT are checked for every message).
  let byVersion = layouts.get(tag);
  if (byVersion === undefined) {
    if (!Object.hasOwn(SERVICE_SEGMENTS, tag)) return undefined;
    byVersion = [];
    if (layouts.size < 100) layouts.set(tag, byVersion);
  }
  if (syntaxVersion >= 0 && syntaxVersion < 8) {
    const known = byVersion[syntaxVersion];
    if (known !== undefined) return known;
  }
  const make = SERVICE_SEGMENTS[tag];
  if (!make) return undefined;
  const layout = make(syntaxVersion);
  if (syntaxVersion >= 0 && syntaxVersion < 8) byVersion[syntaxVersion] = layout;
  return layout;
};

/** Checks a service segment against its layout; returns nothing for other tags. */
export const checkServiceSegment = (segment: Segment, syntaxVersion: number): ServiceIssue[] => {
  const layout = layoutOf(segment.tag, syntaxVersion);
  if (!layout) return [];
  const issues: ServiceIssue[] = [];
  const { elements } = segment;
  // Trailing empty elements are "omitted by truncation" (clause 7.3) and do not count as too many.
  let present = elements.length;
  while (present > 0) {
    const last = elements[present - 1];
    if (last && last.components.some((v) => v !== '')) break;
    present--;
  }
  if (present > layout.length) {
    const extra = elements[layout.length];
    issues.push({
      code: 'EDI_TOO_MANY_ELEMENTS',
      path: String(layout.length + 1),
      element: layout.length + 1,
      expected: String(layout.length),
      actual: String(present),
      ...(extra ? {} : {}),
    });
  }
  for (let e = 0; e < layout.length; e++) {
    const def = layout[e] as ServiceElement;
    const element = elements[e];
    const values = element?.components ?? [];
    const isEmpty = values.every((v) => v === '');
    if (isEmpty) {
      if (def.mandatory) issues.push({ code: 'EDI_MANDATORY_ELEMENT_MISSING', path: def.id, element: e + 1 });
      continue;
    }
    if (!def.components) {
      if (values.length > 1) {
        issues.push({
          code: 'EDI_TOO_MANY_COMPONENTS',
          path: def.id,
          element: e + 1,
          expected: '1',
          actual: String(values.length),
        });
      }
      const value = values[0] ?? '';
      if (def.format && !matchesFormat(value, def.format)) {
        issues.push({ code: 'EDI_INVALID_FORMAT', path: def.id, element: e + 1, expected: def.format, actual: value });
      }
      continue;
    }
    let used = values.length;
    while (used > 0 && values[used - 1] === '') used--;
    if (used > def.components.length) {
      issues.push({
        code: 'EDI_TOO_MANY_COMPONENTS',
        path: def.id,
        element: e + 1,
        component: def.components.length + 1,
        expected: String(def.components.length),
        actual: String(used),
      });
    }
    for (let k = 0; k < def.components.length; k++) {
      const comp = def.components[k] as ServiceComponent;
      const value = values[k] ?? '';
      if (value === '') {
        if (comp.mandatory) {
          issues.push({
            code: 'EDI_MANDATORY_COMPONENT_MISSING',
            path: `${def.id}/${comp.id}`,
            element: e + 1,
            component: k + 1,
          });
        }
        continue;
      }
      if (!matchesFormat(value, comp.format)) {
        issues.push({
          code: 'EDI_INVALID_FORMAT',
          path: `${def.id}/${comp.id}`,
          element: e + 1,
          component: k + 1,
          expected: comp.format,
          actual: value,
        });
      }
    }
  }
  return issues;
};

/** Whether a syntax identifier (0001) is one of ISO 9735's. */
export const isKnownSyntaxIdentifier = (id: string): boolean => SYNTAX_IDENTIFIERS.includes(id);

/** Syntax versions 1 to 4 (0002). */
export const isKnownSyntaxVersion = (version: string): boolean => /^[1-4]$/.test(version);

/**
 * The names ISO 9735 gives the service segments and their data elements (syntax 4): in English and with the segments in
 * capitals, as the UNTDID directories name theirs.
 */
const SERVICE_NAMES: Record<string, string> = {
  UNB: 'INTERCHANGE HEADER',
  UNZ: 'INTERCHANGE TRAILER',
  UNG: 'FUNCTIONAL GROUP HEADER',
  UNE: 'FUNCTIONAL GROUP TRAILER',
  UNH: 'MESSAGE HEADER',
  UNT: 'MESSAGE TRAILER',
  S001: 'Syntax identifier',
  '0001': 'Syntax identifier',
  '0002': 'Syntax version number',
  '0080': 'Service code list directory version number',
  '0133': 'Character encoding, coded',
  S002: 'Interchange sender',
  '0004': 'Interchange sender identification',
  '0007': 'Identification code qualifier',
  '0008': 'Interchange sender internal identification',
  '0042': 'Interchange sender internal sub-identification',
  S003: 'Interchange recipient',
  '0010': 'Interchange recipient identification',
  '0014': 'Interchange recipient internal identification',
  '0046': 'Interchange recipient internal sub-identification',
  S004: 'Date and time of preparation',
  '0017': 'Date',
  '0019': 'Time',
  '0020': 'Interchange control reference',
  S005: 'Recipient reference/password details',
  '0022': 'Recipient reference/password',
  '0025': 'Recipient reference/password qualifier',
  '0026': 'Application reference',
  '0029': 'Processing priority code',
  '0031': 'Acknowledgement request',
  '0032': 'Interchange agreement identifier',
  '0035': 'Test indicator',
  '0036': 'Interchange control count',
  '0038': 'Message group identification',
  S006: 'Application sender identification',
  '0040': 'Application sender identification',
  S007: 'Application recipient identification',
  '0044': 'Application recipient identification',
  '0048': 'Group reference number',
  '0051': 'Controlling agency, coded',
  S008: 'Message version',
  '0052': 'Message version number',
  '0054': 'Message release number',
  '0057': 'Association assigned code',
  '0058': 'Application password',
  '0060': 'Group control count',
  '0062': 'Message reference number',
  S009: 'Message identifier',
  '0065': 'Message type',
  '0110': 'Code list directory version number',
  '0113': 'Message type sub-function identification',
  '0068': 'Common access reference',
  S010: 'Status of the transfer',
  '0070': 'Sequence of transfers',
  '0073': 'First and last transfer',
  S016: 'Message subset identification',
  '0115': 'Message subset identification',
  '0116': 'Message subset version number',
  '0118': 'Message subset release number',
  S017: 'Message implementation guideline identification',
  '0121': 'Message implementation guideline identification',
  '0122': 'Message implementation guideline version number',
  '0124': 'Message implementation guideline release number',
  S018: 'Scenario identification',
  '0127': 'Scenario identification',
  '0128': 'Scenario version number',
  '0130': 'Scenario release number',
  '0074': 'Number of segments in a message',
};

export type ServiceSegmentNames = {
  name: string;
  elements: { id: string; name: string; components?: { id: string; name: string }[] }[];
};

/**
 * The envelope's segments with their elements' names (UNB, UNG, UNH, UNT, UNE, UNZ; syntax 4), which no message
 * directory holds: what a document view shows for them as it shows a message's own segments.
 */
export function serviceSegmentNames(): Record<string, ServiceSegmentNames> {
  const named: Record<string, ServiceSegmentNames> = {};
  for (const tag of ['UNB', 'UNG', 'UNH', 'UNT', 'UNE', 'UNZ']) {
    named[tag] = {
      name: SERVICE_NAMES[tag] ?? tag,
      elements: SERVICE_SEGMENTS[tag]!(4).map((e) => ({
        id: e.id,
        name: SERVICE_NAMES[e.id] ?? '',
        ...(e.components
          ? { components: e.components.map((c) => ({ id: c.id, name: SERVICE_NAMES[c.id] ?? '' })) }
          : {}),
      })),
    };
  }
  return named;
}
