import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index.ts';
import { CursorSchema, isStorableText, NameSchema, text } from './rules.ts';

describe('text(): the one rule of request strings', () => {
  it.each([
    ['plain text', 'Zoë Kowalska', true],
    ['a pair of surrogates (an emoji)', 'ok 😀', true],
    ['tab, newline and other characters a user can type', 'a\tb\nc ą ß 中 ت', true],
    ['a NUL', 'a\u0000b', false],
    ['a lone high surrogate', 'a\uD800b', false],
    ['a lone high surrogate at the end', 'a\uD83D', false],
    ['a lone low surrogate', '\uDE00a', false],
    ['two surrogates in the wrong order', '\uDE00\uD83D', false],
  ])('%s → %s', (_, value, ok) => {
    expect(isStorableText(value)).toBe(ok);
  });

  it('fails alone with the code characters, before trimming and length checks', () => {
    const r = text().trim().min(1, 'required').max(3, 'tooLong').safeParse(' \u0000 too long ');
    expect(r.error?.issues.map((i) => i.message)).toEqual(['characters']);
    expect(NameSchema.safeParse('Ann\u0000').error?.issues.map((i) => i.message)).toEqual(['characters']);
    expect(NameSchema.parse('  Ann  ')).toBe('Ann');
  });

  it('accepts a cursor as the API hands it out and refuses anything that is not base64url', () => {
    expect(CursorSchema.safeParse('WyJhIiwiYiJd').success).toBe(true);
    expect(CursorSchema.safeParse('WyJh\u0000').error?.issues[0]?.message).toBe('characters');
    expect(CursorSchema.safeParse('a b').error?.issues[0]?.message).toBe('cursor');
    expect(CursorSchema.safeParse('a'.repeat(513)).error?.issues[0]?.message).toBe('tooLong');
  });
});

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  maxLength?: number;
};

/** A value of the schema's shape (not necessarily valid): enough to reach each field. */
function shape(schema: JsonSchema): unknown {
  const first = schema.anyOf?.find((s) => s.type !== 'null');
  if (first) return shape(first);
  if (schema.type === 'object')
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, shape(v)]));
  if (schema.type === 'array') return schema.items ? [shape(schema.items)] : [];
  return schema.type === 'string' ? 'a' : 1;
}

/**
 * Paths of the strings a client writes, not enums, constants, uuids, dates or files (which refuse a NUL on their
 * own), and whether a pattern restricts them (then any refusal of the field will do).
 */
function strings(
  schema: JsonSchema,
  path: (string | number)[] = [],
): { path: (string | number)[]; free: boolean; bounded: boolean }[] {
  const first = schema.anyOf?.find((s) => s.type !== 'null');
  if (first) return strings(first, path);
  if (schema.type === 'object')
    return Object.entries(schema.properties ?? {}).flatMap(([k, v]) => strings(v, [...path, k]));
  if (schema.type === 'array') return schema.items ? strings(schema.items, [...path, 0]) : [];
  if (schema.type === 'string' && !schema.enum && schema.const === undefined && !schema.format)
    return [{ path, free: schema.pattern === undefined, bounded: schema.maxLength !== undefined }];
  return [];
}

function put(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(root)) return root.map((item, i) => (i === head ? put(item, rest, value) : item));
  return { ...(root as Record<string, unknown>), [head]: put((root as Record<string, unknown>)[head], rest, value) };
}

/** What a client sends: bodies, queries, path parameters, forms and the shared field rules. */
const REQUEST_SCHEMA =
  /(Request|Query|Params|Fields|Form|Update|Content|Settings)Schema$|^(Email|Password|Name|Gln)Schema$/;
/** Data for the EDIFACT engine, which diagnoses every character itself (see ValidateEdifactRequestSchema). */
const ENGINE_INPUT = new Set(['ValidateEdifactRequestSchema.content']);

const requestSchemas = Object.entries(contracts as Record<string, unknown>).flatMap(([name, value]) =>
  REQUEST_SCHEMA.test(name) && value instanceof z.ZodType ? [[name, value] as const] : [],
);

describe('every request schema of the contracts uses the rule', () => {
  it('finds the request schemas', () => {
    // A renamed export must not make the next test vacuous.
    expect(requestSchemas.map(([name]) => name)).toEqual(
      expect.arrayContaining(['LoginRequestSchema', 'PaymentReminderContentSchema', 'AdminEmailsQuerySchema']),
    );
    expect(requestSchemas.length).toBeGreaterThan(30);
  });

  it('refuses a NUL and a lone surrogate in each string field; in free text with the code characters', () => {
    const missing: string[] = [];
    let fields = 0;
    for (const [name, schema] of requestSchemas) {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      for (const { path, free } of strings(json)) {
        if (ENGINE_INPUT.has([name, ...path].join('.'))) continue;
        fields += 1;
        for (const bad of ['a\u0000b', 'a\uD800b']) {
          const issues = schema.safeParse(put(shape(json), path, bad)).error?.issues ?? [];
          const onField = issues.filter((i) => i.path.join('.') === path.join('.'));
          if (!onField.some((i) => !free || i.message === 'characters'))
            missing.push(`${name}.${path.join('.') || '(value)'} ${JSON.stringify(bad)}: ${JSON.stringify(onField)}`);
        }
      }
    }
    expect(fields).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('gives each string field a length limit, or a check that bounds it', () => {
    // A GLN is 13 digits (isValidGln); a directory name matches ^D\d\d[A-Z]$; EDIFACT content is capped by its route.
    const boundedElsewhere = new Set([
      'GlnSchema',
      'RestrictionRequestSchema.deliveryPointGlns.0',
      'DownloadDirectoryRequestSchema.name',
      'ValidateEdifactRequestSchema.content',
    ]);
    const unbounded = requestSchemas.flatMap(([name, schema]) =>
      strings(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
        .filter((s) => !s.bounded)
        .map((s) => [name, ...s.path].join('.'))
        .filter((field) => !boundedElsewhere.has(field)),
    );
    expect(unbounded).toEqual([]);
  });
});
