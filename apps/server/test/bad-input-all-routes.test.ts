import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

/**
 * Bad input against every route of the OpenAPI document (issue 16, item 7): each string the API takes (path, query,
 * JSON body, multipart field) gets a NUL byte, a lone UTF-16 surrogate, an over-long value, a wrong type and, in the
 * query, a repeated parameter; each JSON body gets repeated keys, `__proto__`, deep nesting, a huge array, broken
 * JSON and a wrong content type. Nothing may answer 500, and a bad string the route validates is a 400 naming it.
 */

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};
type Parameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema?: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};
type Probe = { name: string; value: unknown };
type Sent = { method: string; url: string; headers: Record<string, string>; payload?: string | Buffer };

/** The bad strings; each must be refused where a string is validated, and never crash anything. */
const BAD_STRINGS: Probe[] = [
  { name: 'NUL byte', value: 'probe\u0000value' },
  { name: 'lone high surrogate', value: 'probe\uD800value' },
  { name: 'lone low surrogate', value: '\uDC00' },
];
/** Values that are bad but need not be named as the field (a limit may answer 413 before validation). */
const OTHER_BAD: Probe[] = [
  { name: 'very long string', value: 'x'.repeat(200_000) },
  { name: 'object for a string', value: { $gt: '' } },
  { name: 'array for a string', value: ['a', 'b'] },
];

/**
 * Fields that are data for the EDIFACT engine, not text the portal keeps: the engine diagnoses any character with
 * its position (a finding is more use than a 400), so these only must not crash.
 */
const ENGINE_INPUT = new Set(['POST /api/validation/edifact content', 'POST /api/validation/edifact/contrl content']);

/** A value the schema accepts, as far as a probe needs: the other fields valid, so the probed one is the fault. */
function sample(schema: JsonSchema | undefined, name = ''): unknown {
  if (!schema) return 'a';
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sample(alternatives.find((s) => s.type !== 'null') ?? alternatives[0], name);
  if (schema.allOf?.[0]) return sample(schema.allOf[0], name);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) out[key] = sample(prop, key);
      return out;
    }
    case 'array':
      return [sample(schema.items, name)];
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    default:
      return sampleString(schema, name);
  }
}

function sampleString(schema: JsonSchema, name: string): string {
  if (schema.format === 'uuid') return UNKNOWN;
  if (schema.format === 'date-time') return '2026-11-16T10:00:00Z';
  if (schema.pattern?.includes('@')) return 'probe@example.com';
  if (schema.pattern?.includes('0-9][0-9 ()')) return '+48 123 456 789';
  if (/password/i.test(name)) return 'Probe#Password2026';
  if (/gln/i.test(name)) return '5790000000001';
  return 'a'.repeat(Math.max(schema.minLength ?? 1, 1));
}

/** Every string-typed leaf of a sample, by its path, with the schema that describes it. */
function stringLeaves(schema: JsonSchema, path: (string | number)[] = []): (string | number)[][] {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const first = alternatives.find((s) => s.type !== 'null');
    return first ? stringLeaves(first, path) : [];
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object')
    return Object.entries(schema.properties ?? {}).flatMap(([key, prop]) => stringLeaves(prop, [...path, key]));
  if (type === 'array') return schema.items ? stringLeaves(schema.items, [...path, 0]) : [];
  if (type === 'string' && schema.format !== 'binary') return [path];
  return [];
}

function withValue(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(root)) return root.map((item, i) => (i === head ? withValue(item, rest, value) : item));
  const copy = { ...(root as Record<string, unknown>) };
  copy[head] = withValue(copy[head], rest, value);
  return copy;
}

/** A multipart body built by hand, so a field can carry any bytes. */
function multipartBody(fields: Record<string, unknown>): { payload: Buffer; contentType: string } {
  const boundary = '----probe7MA4YWxkTrZu0gW';
  const parts = Object.entries(fields).map(([key, value]) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n`),
      Buffer.isBuffer(value) ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)),
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The string with each lone surrogate replaced by U+FFFD, as a browser's URL encoding does. */
const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** A query string from pairs, each encoded as a browser would (a lone surrogate as U+FFFD's bytes). */
function queryOf(pairs: [string, string][]): string {
  if (pairs.length === 0) return '';
  const encode = (s: string) => encodeURIComponent(wellFormed(s));
  return `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`;
}

let t: TestApp;
let tokens: { user: string; admin: string };
/** The user's company API key: the inbound endpoint authenticates with it, every other route ignores it. */
let apiKey: string;
let operations: { method: string; path: string; op: Operation }[];

beforeAll(async () => {
  t = await createTestApp();
  tokens = { user: (await login(t.app)).access_token, admin: (await login(t.app, ADMIN)).access_token };
  const key = await t.app.inject({
    method: 'POST',
    url: '/api/company/api-keys',
    headers: bearer(tokens.user),
    payload: { name: 'bad input' },
  });
  apiKey = (key.json() as { secret: string }).secret;
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, Operation>>;
  };
  // The KSeF simulator (/ksef-simulator/v2) answers bad input in KSeF's own error formats, not the portal's; its test
  // (ksef-simulator.test.ts) holds every answer to KSeF's published schemas instead.
  operations = Object.entries(doc.paths)
    .filter(([path]) => !path.startsWith('/ksef-simulator/'))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
});
afterAll(async () => {
  await t.close();
});

type Answer = { statusCode: number; body: string; json(): unknown };

/** Sends one request as the normal user and as the admin, and returns both answers. */
async function asBoth(sent: Omit<Sent, 'headers'> & { headers?: Record<string, string> }): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const token of [tokens.user, tokens.admin]) {
    answers.push(
      await t.app.inject({
        ...sent,
        headers: { ...sent.headers, ...bearer(token), 'x-api-key': apiKey },
      } as never),
    );
  }
  return answers;
}

const fieldsOf = (answer: Answer): string[] => {
  try {
    const body = answer.json() as { error?: { details?: { field: string }[] } };
    return (body.error?.details ?? []).map((d) => d.field);
  } catch {
    return [];
  }
};

/** Collects every failure of the run, so one look at the report shows them all. */
class Findings {
  readonly crashes: string[] = [];
  readonly unnamed: string[] = [];
  check(label: string, answers: Answer[], field?: string): void {
    for (const a of answers)
      if (a.statusCode >= 500) this.crashes.push(`${label} → ${a.statusCode} ${a.body.slice(0, 160)}`);
    if (field === undefined) return;
    // One of the two principals may use the route, so its answer must be the 400 that names the probed field; a
    // link a browser opens (verifyEmail, unlock) answers every bad token with a redirect to its error page instead.
    // A list parameter (`a=1&a=2`) names the item at fault (`field.0`).
    const names = (a: Answer) => fieldsOf(a).some((f) => f === field || f.startsWith(`${field}.`));
    const named = answers.some((a) => a.statusCode === 400 && names(a));
    if (!named && !answers.every((a) => a.statusCode >= 300 && a.statusCode < 400))
      this.unnamed.push(`${label} → ${answers.map((a) => `${a.statusCode} ${a.body.slice(0, 160)}`).join(' | ')}`);
  }
}

/**
 * The route's path with its parameters filled, and its required query parameters (but `except`, the probed one) with
 * valid values, so that the probed part is what is wrong.
 */
function pathWith(
  template: string,
  params: Parameter[],
  override?: { name: string; value: string },
  except?: string,
): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (override?.name === name) return encodeURIComponent(wellFormed(override.value));
    return encodeURIComponent(String(sample(params.find((p) => p.name === name)?.schema, name)));
  });
  const required = params.filter((p) => p.in === 'query' && p.required && p.name !== except);
  return path + queryOf(required.map((p) => [p.name, String(sample(p.schema, p.name))]));
}

/** A URL with more query (`?a=b` or `a=b`) after the query it may have already. */
function more(url: string, query: string): string {
  const rest = query.replace(/^\?/, '');
  return rest ? `${url}${url.includes('?') ? '&' : '?'}${rest}` : url;
}

describe('every route of the OpenAPI document refuses bad input without a 500', () => {
  it('lists the routes it probes', () => {
    // A broken document would make every other check vacuous.
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.some((o) => o.path === '/api/issue-reports' && o.method === 'POST')).toBe(true);
  });

  it('path and query parameters: bad strings, wrong shapes and repeated parameters', async () => {
    const findings = new Findings();
    for (const { method, path, op } of operations) {
      const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
      // A valid body of the route's first content type, so the parameters are what is wrong.
      const [contentType, body] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const payload =
        contentType === 'application/json'
          ? JSON.stringify(sample(body?.schema))
          : contentType
            ? Buffer.from('PK\u0005\u0006'.padEnd(22, '\u0000'))
            : undefined;
      const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
      for (const param of params) {
        for (const probe of [...BAD_STRINGS, ...OTHER_BAD]) {
          if (typeof probe.value !== 'string') continue;
          const label = `${method} ${path} ${param.in} ${param.name}: ${probe.name}`;
          const url =
            param.in === 'path'
              ? pathWith(path, params, { name: param.name, value: probe.value })
              : more(pathWith(path, params, undefined, param.name), queryOf([[param.name, probe.value]]));
          // A NUL survives URL encoding, so the route must name the parameter (a lone surrogate arrives as U+FFFD).
          const mustName = probe === BAD_STRINGS[0] ? param.name : undefined;
          findings.check(label, await asBoth({ method, url, headers, ...(payload ? { payload } : {}) }), mustName);
        }
        if (param.in !== 'query') continue;
        // Raw bytes a browser would never send: NUL, and a surrogate's bytes that are not UTF-8.
        for (const raw of ['a%00b', '%ED%A0%80', '%C0%80', '%', '%zz']) {
          const url = more(pathWith(path, params, undefined, param.name), `${param.name}=${raw}`);
          findings.check(
            `${method} ${path} query ${param.name}=${raw}`,
            await asBoth({ method, url, headers, payload }),
          );
        }
        const repeated = more(pathWith(path, params, undefined, param.name), `${param.name}=a&${param.name}=b`);
        findings.check(
          `${method} ${path} repeated ${param.name}`,
          await asBoth({ method, url: repeated, headers, payload }),
          param.name,
        );
        if (param.name === 'cursor') {
          const forged = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
          // [key, whether every list must refuse it]: a date is a fine name key for a list sorted by name.
          for (const [key, refused] of [
            [['2026-99-99 99:99:99', UNKNOWN], false],
            [['2026-02-30 10:00:00+00', UNKNOWN], false],
            [['a\u0000', UNKNOWN], true],
            [['a\u0000', 'b\u0000', UNKNOWN], true],
            [['\uD800', '\uD800', UNKNOWN], true],
            [['99999999999999999999'], true],
            ['\u0000', true],
          ] as const) {
            const url = more(pathWith(path, params), queryOf([['cursor', forged(key)]]));
            findings.check(
              `${method} ${path} cursor ${JSON.stringify(key)}`,
              await asBoth({ method, url, headers, payload }),
              refused ? 'cursor' : undefined,
            );
          }
        }
      }
    }
    expect(findings.crashes).toEqual([]);
    expect(findings.unnamed).toEqual([]);
  }, 240_000);

  it('JSON bodies: a bad string in each field is a 400 naming the field', async () => {
    const findings = new Findings();
    let probed = 0;
    for (const { method, path, op } of operations) {
      const body = op.requestBody?.content['application/json'];
      if (!body) continue;
      const url = pathWith(path, op.parameters ?? []);
      const valid = sample(body.schema);
      for (const leaf of stringLeaves(body.schema)) {
        const field = leaf.join('.');
        for (const probe of [...BAD_STRINGS, ...OTHER_BAD]) {
          const payload = JSON.stringify(withValue(valid, leaf, probe.value));
          const answers = await asBoth({ method, url, headers: { 'content-type': 'application/json' }, payload });
          const mustName = BAD_STRINGS.includes(probe) && !ENGINE_INPUT.has(`${method} ${path} ${field}`);
          findings.check(`${method} ${path} body ${field}: ${probe.name}`, answers, mustName ? field : undefined);
          probed += 1;
        }
      }
    }
    expect(probed).toBeGreaterThan(100);
    expect(findings.crashes).toEqual([]);
    expect(findings.unnamed).toEqual([]);
  }, 240_000);

  it('JSON bodies: repeated keys, __proto__, deep nesting, huge arrays, broken JSON and wrong types', async () => {
    const findings = new Findings();
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const { method, path, op } of operations) {
      const body = op.requestBody?.content['application/json'];
      if (!body) continue;
      const url = pathWith(path, op.parameters ?? []);
      const valid = JSON.stringify(sample(body.schema));
      const firstKey = Object.keys(body.schema.properties ?? {})[0] ?? 'name';
      const raw: [string, string, string][] = [
        [
          'repeated key with NUL last',
          'application/json',
          valid.replace(/^\{/, `{"${firstKey}":"ok",`).replace(/\}$/, `,"${firstKey}":"a\\u0000"}`),
        ],
        ['__proto__ key', 'application/json', valid.replace(/^\{/, '{"__proto__":{"isAdmin":true},')],
        [
          'constructor.prototype',
          'application/json',
          valid.replace(/^\{/, '{"constructor":{"prototype":{"isAdmin":true}},'),
        ],
        ['deeply nested body', 'application/json', deep(50_000)],
        ['deeply nested field', 'application/json', valid.replace(/^\{/, `{"${firstKey}":${deep(50_000)},`)],
        ['huge array field', 'application/json', `{"${firstKey}":[${'"a",'.repeat(200_000)}"a"]}`],
        ['huge array body', 'application/json', `[${'1,'.repeat(200_000)}1]`],
        ['truncated JSON', 'application/json', valid.slice(0, -1)],
        ['empty body', 'application/json', ''],
        ['null', 'application/json', 'null'],
        ['string body', 'application/json', '"\\u0000"'],
        ['raw NUL in JSON text', 'application/json', valid.replace(/^\{/, '{"x\u0000":1,')],
        ['JSON with charset latin1', 'application/json; charset=latin1', valid],
        ['text/plain', 'text/plain', valid],
        ['form-urlencoded', 'application/x-www-form-urlencoded', 'a=b'],
        ['multipart without boundary', 'multipart/form-data', valid],
      ];
      for (const [name, contentType, payload] of raw) {
        findings.check(
          `${method} ${path} ${name}`,
          await asBoth({ method, url, headers: { 'content-type': contentType }, payload }),
        );
      }
    }
    expect(findings.crashes).toEqual([]);
  }, 240_000);

  it('headers: broken credentials and bad text in the headers the server reads', async () => {
    const findings = new Findings();
    const headerSets: [string, Record<string, string>][] = [
      ['a NUL token', { authorization: 'Bearer a\u0000b' }],
      ['a very long token', { authorization: `Bearer ${'a'.repeat(50_000)}` }],
      ['a token of three empty parts', { authorization: 'Bearer ..' }],
      ['another scheme', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
      ['a NUL in the user agent, with a valid token', { ...bearer(tokens.user), 'user-agent': 'a\u0000b' }],
      ['a NUL in accept-language', { ...bearer(tokens.user), 'accept-language': 'pl\u0000' }],
      ['a NUL in x-forwarded-for', { ...bearer(tokens.user), 'x-forwarded-for': '1.2.3.4\u0000' }],
    ];
    for (const { method, path, op } of operations) {
      const url = pathWith(path, op.parameters ?? []);
      const body = op.requestBody?.content['application/json'];
      const payload = body ? JSON.stringify(sample(body.schema)) : undefined;
      for (const [name, headers] of headerSets) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
          ...(payload ? { payload } : {}),
        });
        findings.check(`${method} ${path} ${name}`, [res]);
      }
    }
    expect(findings.crashes).toEqual([]);
  }, 240_000);

  it('multipart bodies: bad strings in each field, and malformed forms', async () => {
    const findings = new Findings();
    let probed = 0;
    for (const { method, path, op } of operations) {
      const form = op.requestBody?.content['multipart/form-data'];
      if (!form) continue;
      const url = pathWith(path, op.parameters ?? []);
      const valid = sample(form.schema) as Record<string, unknown>;
      delete valid.files;
      for (const leaf of stringLeaves(form.schema)) {
        const field = String(leaf[0]);
        const { payload, contentType } = multipartBody({ ...valid, [field]: 'probe\u0000value' });
        const answers = await asBoth({ method, url, headers: { 'content-type': contentType }, payload });
        findings.check(`${method} ${path} part ${field}: NUL byte`, answers, field);
        probed += 1;
        // A form travels as bytes: a surrogate's bytes (not UTF-8) and other invalid UTF-8 decode to U+FFFD.
        for (const bytes of ['eda080', 'ff', 'c080']) {
          const form = multipartBody({ ...valid, [field]: Buffer.from(`61${bytes}62`, 'hex') });
          const label = `${method} ${path} part ${field}: bytes ${bytes}`;
          findings.check(
            label,
            await asBoth({ method, url, headers: { 'content-type': form.contentType }, payload: form.payload }),
          );
        }
      }
      const whole = multipartBody(valid);
      const { payload } = whole;
      const text = payload.toString('utf8');
      const malformed: [string, string, string | Buffer][] = [
        ['no boundary', 'multipart/form-data', payload],
        ['empty boundary', 'multipart/form-data; boundary=', payload],
        ['wrong boundary', 'multipart/form-data; boundary=other', payload],
        ['truncated', 'multipart/form-data; boundary=----probe7MA4YWxkTrZu0gW', text.slice(0, text.length / 2)],
        ['no closing boundary', 'multipart/form-data; boundary=----probe7MA4YWxkTrZu0gW', text.replace(/--\r\n$/, '')],
        ['empty body', 'multipart/form-data; boundary=----probe7MA4YWxkTrZu0gW', ''],
        ['JSON instead', 'application/json', JSON.stringify(valid)],
        [
          'repeated field',
          'multipart/form-data; boundary=----probe7MA4YWxkTrZu0gW',
          text.replace(/--\r\n$/, '') + text,
        ],
        // fromEntries, not a literal: `__proto__: 'x'` in a literal sets no own property.
        [
          '__proto__ field',
          whole.contentType,
          multipartBody(Object.fromEntries([...Object.entries(valid), ['__proto__', 'x']])).payload,
        ],
        ['header without a name', whole.contentType, text.replace('name="subject"', '')],
        ['garbage', whole.contentType, Buffer.from('\u0000\u0001 not a form at all')],
      ];
      for (const [name, contentType, body] of malformed) {
        findings.check(
          `${method} ${path} ${name}`,
          await asBoth({ method, url, headers: { 'content-type': contentType }, payload: body }),
        );
      }
    }
    expect(probed).toBeGreaterThan(0);
    expect(findings.crashes).toEqual([]);
    expect(findings.unnamed).toEqual([]);
  }, 240_000);
});
