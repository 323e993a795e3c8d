import type { TFunction } from 'i18next';
import type { EdifactFinding } from '@portal/contracts';
import { findTextWith } from '../../../i18n/dynamic-text.ts';

/** The parts of a finding's path: `SG2[1]/NAD[1]/C082/3039` → segment `NAD`, element `C082/3039`. */
export type PathParts = { segment: string; element: string };

// Segment tags are three letters; groups are `SG<n>` and data elements have four characters.
const SEGMENT_PART = /^([A-Z]{3})(\[\d+\])?$/;

/** Splits a path; the segment is its last segment-tag part, the element what follows it. */
export function splitPath(path: string): PathParts {
  const parts = path.split('/').filter(Boolean);
  let index = -1;
  for (let i = parts.length - 1; i >= 0; i--) {
    if (SEGMENT_PART.test(parts[i] ?? '')) {
      index = i;
      break;
    }
  }
  const segment = index >= 0 ? (SEGMENT_PART.exec(parts[index] ?? '')?.[1] ?? '') : '';
  return { segment, element: index >= 0 ? parts.slice(index + 1).join('/') : '' };
}

type Values = Record<string, string | number>;
type Message = { key: string; values: Values };

function text(value: string | number | undefined): string {
  return value === undefined ? '' : String(value);
}

/**
 * Which catalog text describes a finding, and with what values. One code can come from several levels with
 * different parameters (the syntax level's service segments count elements by position, the specification level
 * names them by directory id), so the values are normalised here and a few codes have variants.
 */
export function findingMessage(finding: EdifactFinding): Message {
  const params = finding.params ?? {};
  const { segment: pathSegment, element: pathElement } = splitPath(finding.path);
  const element =
    typeof params['element'] === 'string' && !pathElement ? params['element'] : pathElement || text(params['element']);
  // Occurrence findings name a segment or a group (`SG2`) in params; element findings carry it in the path only.
  const segment = typeof params['segment'] === 'string' ? params['segment'] : pathSegment;
  const values: Values = {
    segment,
    element,
    expected: finding.expected ?? '',
    actual: finding.actual ?? '',
    max: text(params['max'] ?? finding.expected),
    min: text(params['min']),
    count: text(params['count'] ?? finding.actual),
  };
  const code = finding.code;
  const key = (variant?: string) => `findings.${code}${variant ? `_${variant}` : ''}`;
  const isMap = finding.level === 'map';
  switch (code) {
    case 'EDI_MISSING_UNT':
    case 'EDI_MISSING_UNE':
    case 'EDI_MISSING_UNZ':
      return { key: key(finding.actual ? undefined : 'end'), values };
    case 'EDI_UNEXPECTED_END_OF_FILE':
      if (finding.expected === 'UNB') return { key: key('empty'), values };
      if (finding.expected && segment) return { key: key('terminator'), values };
      return { key: key(segment ? 'inSegment' : undefined), values };
    case 'EDI_UNEXPECTED_SEPARATOR':
      return { key: key(segment ? undefined : 'empty'), values };
    case 'EDI_INVALID_CHARACTER':
      return { key: key(params['encoding'] ? 'encoding' : undefined), values };
    case 'EDI_UNSUPPORTED_SYNTAX':
      return { key: key(pathElement.endsWith('0002') ? 'version' : undefined), values };
    case 'EDI_INTERNAL_ERROR':
      return { key: key(), values: { ...values, plugin: text(params['plugin']), error: text(params['error']) } };
    case 'EDI_UNSUPPORTED_MESSAGE': {
      const type = text(params['type']);
      if (!type) return { key: key('unknown'), values };
      const directory = `${text(params['version'])}${text(params['release'])}`;
      const more = { ...values, type, directory, agency: text(params['agency']) };
      return { key: key(params['reason'] === 'type' ? 'type' : undefined), values: more };
    }
    case 'EDI_UNEXPECTED_SEGMENT':
      return {
        key: key(finding.level === 'syntax' && finding.expected ? 'syntax' : undefined),
        values: { ...values, actual: finding.actual ?? segment },
      };
    case 'EDI_MANDATORY_SEGMENT_MISSING': {
      const isGroup = params['group'] === 1 || (finding.expected ?? '').includes('(');
      return {
        key: key(isMap ? (isGroup ? 'mapGroup' : 'map') : isGroup ? 'group' : undefined),
        values: { ...values, expected: finding.expected ?? segment },
      };
    }
    case 'EDI_INVALID_FORMAT': {
      const problem = params['problem'];
      const variant =
        problem === 'too-long'
          ? 'tooLong'
          : problem === 'too-short'
            ? 'tooShort'
            : problem === 'not-numeric'
              ? 'notNumeric'
              : problem === 'not-alphabetic'
                ? 'notAlphabetic'
                : undefined;
      return { key: key(variant), values };
    }
    case 'EDI_MANDATORY_ELEMENT_MISSING':
    case 'EDI_MANDATORY_COMPONENT_MISSING':
    case 'EDI_TOO_MANY_OCCURRENCES':
    case 'EDI_INVALID_CODE':
      return { key: key(isMap ? 'map' : undefined), values: { ...values, status: text(params['status']) } };
    case 'EDI_FORBIDDEN_SEGMENT':
      return { key: key(), values: { ...values, actual: finding.actual ?? segment } };
    default:
      return { key: key(), values };
  }
}

/**
 * What describeFinding needs of i18next (the `t` and `i18n.exists` of `useTranslation('edifact')`). `isolate` wraps
 * each value in a left-to-right isolate (EDIFACT is always LTR), so that `C002/1001` or `220, 221` keep their order
 * inside right-to-left text.
 */
export type Translator = { t: TFunction<'edifact'>; exists: (key: string) => boolean; isolate?: boolean };

function isolated(values: Values): Values {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' ? v : `\u2066${String(v)}\u2069`]));
}

/** The translated error message of a finding; a code the catalog does not know still gets a readable text. */
export function describeFinding({ t, exists, isolate = false }: Translator, finding: EdifactFinding): string {
  const message = findingMessage(finding);
  const key = message.key;
  const values = isolate ? isolated(message.values) : message.values;
  const translator = { t, exists };
  return (
    findTextWith(translator, key, values) ??
    findTextWith(translator, `findings.${finding.code}`, values) ??
    t('findings.unknown', { code: finding.code, path: finding.path })
  );
}
