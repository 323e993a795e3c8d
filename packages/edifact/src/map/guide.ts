/**
 * Message implementation guides: our own small declarative format (documented in docs/guides.md) that narrows a
 * directory message, e.g. EANCOM 97 ORDERS (EAN008) over UN D96A ORDERS. Guides are data: the shipped EANCOM
 * guides live in `packages/edifact/guides/`, and more (a retailer's own) can be loaded from any folder.
 */

/**
 * Statuses as GS1 publishes them for EANCOM: M mandatory and R required (must be sent), D dependent (sent when a
 * condition in the guide's notes holds: not checked), O optional, N not used (must not be sent).
 */
export type GuideStatus = 'M' | 'R' | 'D' | 'O' | 'N';

/** Rules for a data element (`1004`) or a component (`C002/1001`) of a segment. */
export type GuideElementRule = {
  status?: GuideStatus;
  /** The only values allowed (a restriction of the directory's code list). */
  codes?: string[];
};

/** Rules for a segment or a segment group of the message. */
export type GuideSegmentRule = {
  status?: GuideStatus;
  /** Minimum occurrences per instance of the enclosing group (default 1 when required, else 0). */
  min?: number;
  /** Maximum occurrences (at most the directory's). */
  max?: number;
  /**
   * Element rules keyed by element id, or composite id and component id (`C506/1153`). When an id occurs twice in
   * a segment, `#2` picks the second occurrence (`4183#2`).
   */
  elements?: Record<string, GuideElementRule>;
};

/** A guide: one message type in one directory, for one or more association codes (UNH S009 0057). */
export type Guide = {
  format: 'edifact-guide/1';
  /** Stable id, e.g. `EANCOM97-ORDERS`. */
  id: string;
  title?: string;
  /** UNH S009 0065, e.g. `ORDERS`. */
  message: string;
  /** Directory name, e.g. `D96A`. */
  directory: string;
  /** UNH S009 0051, default `UN`. */
  agency?: string;
  /** UNH S009 0057 values this guide applies to, e.g. `["EAN008"]`. */
  associations: string[];
  /** Where the statuses come from. */
  source?: string;
  /** When true, segments and groups the guide does not list are not used (N). */
  closed?: boolean;
  /**
   * Rules by node: a group by its name (`SG2`), a segment by its tag at message level (`BGM`) or by its group
   * and tag (`SG2/NAD`); `#2` picks the second segment with the same tag in the same group.
   */
  segments: Record<string, GuideSegmentRule>;
  /**
   * Qualified segments the message must hold, e.g. the supplier of an order:
   * `{ "segment": "SG2/NAD", "element": "3035", "codes": ["BY", "SU"] }` requires an NAD of SG2 with 3035 = BY and
   * one with 3035 = SU (each code at least once in the message).
   */
  requiredQualifiers?: GuideQualifierRule[];
  /**
   * Codes the guide allows that the directory's code list lacks, by data element (`{ "4233": ["33E"] }`): GS1's
   * own codes, including those of lists the guide leaves open. The specification level does not warn about them.
   */
  gs1Codes?: Record<string, string[]>;
};

/** A segment (keyed as in `segments`) whose element must take each of `codes` somewhere in the message. */
export type GuideQualifierRule = { segment: string; element: string; codes: string[]; note?: string };

const STATUSES: ReadonlySet<string> = new Set(['M', 'R', 'D', 'O', 'N']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks that `value` is a guide and returns it, or returns the problems found (a guide file written by hand
 * deserves a clear message, not a crash later).
 */
export const parseGuide = (value: unknown): { guide: Guide } | { problems: string[] } => {
  const problems: string[] = [];
  if (!isRecord(value)) return { problems: ['not an object'] };
  if (value.format !== 'edifact-guide/1') problems.push('format must be "edifact-guide/1"');
  for (const key of ['id', 'message', 'directory'] as const) {
    if (typeof value[key] !== 'string' || value[key] === '') problems.push(`${key} must be a non-empty string`);
  }
  if (!Array.isArray(value.associations) || !value.associations.every((a) => typeof a === 'string')) {
    problems.push('associations must be a list of strings');
  }
  if (!isRecord(value.segments)) problems.push('segments must be an object');
  else {
    for (const [key, rule] of Object.entries(value.segments)) {
      if (!isRecord(rule)) {
        problems.push(`segments.${key} must be an object`);
        continue;
      }
      if (rule.status !== undefined && !STATUSES.has(String(rule.status))) problems.push(`segments.${key}.status`);
      for (const bound of ['min', 'max'] as const) {
        const n = rule[bound];
        if (n !== undefined && (typeof n !== 'number' || !Number.isInteger(n) || n < 0)) {
          problems.push(`segments.${key}.${bound} must be a whole number`);
        }
      }
      if (rule.elements !== undefined) {
        if (!isRecord(rule.elements)) problems.push(`segments.${key}.elements must be an object`);
        else {
          for (const [id, element] of Object.entries(rule.elements)) {
            if (!isRecord(element)) problems.push(`segments.${key}.elements.${id} must be an object`);
            else {
              if (element.status !== undefined && !STATUSES.has(String(element.status))) {
                problems.push(`segments.${key}.elements.${id}.status`);
              }
              if (
                element.codes !== undefined &&
                (!Array.isArray(element.codes) || !element.codes.every((c) => typeof c === 'string'))
              ) {
                problems.push(`segments.${key}.elements.${id}.codes must be a list of strings`);
              }
            }
          }
        }
      }
    }
  }
  if (value.requiredQualifiers !== undefined) {
    const list = value.requiredQualifiers;
    if (
      !Array.isArray(list) ||
      !list.every(
        (q) =>
          isRecord(q) &&
          typeof q.segment === 'string' &&
          typeof q.element === 'string' &&
          Array.isArray(q.codes) &&
          q.codes.every((c) => typeof c === 'string'),
      )
    ) {
      problems.push('requiredQualifiers must be a list of { segment, element, codes }');
    }
  }
  return problems.length > 0 ? { problems } : { guide: value as Guide };
};

/** Guides by message type, directory and association code. */
export type GuideIndex = {
  find(type: string, directory: string, association: string | undefined, agency?: string): Guide | undefined;
  list(): readonly Guide[];
};

/** Indexes guides; a later guide for the same key replaces an earlier one (so a retailer's folder can override). */
export const indexGuides = (guides: readonly Guide[]): GuideIndex => {
  const byKey = new Map<string, Guide>();
  for (const guide of guides) {
    for (const association of guide.associations) {
      byKey.set(`${guide.message}|${guide.directory}|${guide.agency ?? 'UN'}|${association}`, guide);
    }
  }
  return {
    find: (type, directory, association, agency = 'UN') =>
      association ? byKey.get(`${type}|${directory}|${agency}|${association}`) : undefined,
    list: () => [...new Set(byKey.values())],
  };
};
