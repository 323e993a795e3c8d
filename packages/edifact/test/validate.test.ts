import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildContrl } from '../src/contrl.ts';
import { createFinding } from '../src/findings.ts';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import { parse } from '../src/parser.ts';
import { validate, validateStream, validateSync } from '../src/validate.ts';
import { main } from '../src/cli.ts';
import { fixturesDir } from './helpers.ts';

const INPUT =
  "UNB+UNOC:3+SENDER+RECIPIENT+240101:1200+R1'UNH+M1+ORDERS:D:96A:UN:EAN008'BGM+220+PO1+9'UNT+3+M1'" +
  "UNH+M2+INVOIC:D:96A:UN'BGM+380+IN2+9'UNT+9+M2'UNZ+2+R1'";

const spy: ValidationLevelPlugin = {
  name: 'spy',
  level: 'specification',
  validateMessage: (message, context) =>
    message.type === 'INVOIC'
      ? [
          createFinding('EDI_UNKNOWN_SEGMENT', {
            path: 'BGM[1]',
            line: message.header.position.line,
            column: message.header.position.column,
            offset: message.segments[1]?.position.offset ?? 0,
            params: { previous: context.previous.length },
          }),
        ]
      : [],
};

const asyncSpy: ValidationLevelPlugin = {
  ...spy,
  name: 'async',
  validateMessage: async (m, c) => spy.validateMessage(m, c),
};

describe('validate with level plugins', () => {
  it('runs the syntax level, then each plugin, and fills message fields', async () => {
    for (const result of [
      await validate(INPUT, { levels: [spy] }),
      await validate(INPUT, { levels: [asyncSpy] }),
      validateSync(INPUT, { levels: [spy] }),
    ]) {
      expect(result.ok).toBe(false);
      expect(result.messages.map((m) => [m.reference, m.status])).toEqual([
        ['M1', 'valid'],
        ['M2', 'error'],
      ]);
      const unknown = result.findings.find((f) => f.code === 'EDI_UNKNOWN_SEGMENT');
      expect(unknown).toMatchObject({
        level: 'specification',
        messageType: 'INVOIC',
        version: 'D96A',
        documentNumber: 'IN2',
        params: { previous: 1 },
      });
    }
  });

  it('records a plugin that throws instead of failing', () => {
    const broken: ValidationLevelPlugin = {
      name: 'broken',
      level: 'map',
      validateMessage: () => {
        throw new Error('boom');
      },
    };
    const result = validateSync(INPUT, { levels: [broken] });
    expect(result.findings.filter((f) => f.code === 'EDI_INTERNAL_ERROR')).toHaveLength(2);
  });

  it('streams messages with their findings', async () => {
    const types: string[] = [];
    for await (const event of validateStream([INPUT.slice(0, 50), INPUT.slice(50)], { levels: [asyncSpy] })) {
      if (event.type === 'message') types.push(`${event.message.type}:${event.summary.status}`);
    }
    expect(types).toEqual(['ORDERS:valid', 'INVOIC:error']);
  });
});

describe('CONTRL', () => {
  it('acknowledges a good interchange and rejects a bad message', async () => {
    const result = await validate(INPUT);
    const contrl = buildContrl(result, { date: new Date(Date.UTC(2024, 0, 2, 3, 4)) });
    expect(contrl).toContain("UNH+1+CONTRL:D:3:UN'");
    expect(contrl).toContain("UCI+R1+SENDER+RECIPIENT+7'");
    expect(contrl).toContain("UCM+M1+ORDERS:D:96A:UN+7'");
    expect(contrl).toContain("UCM+M2+INVOIC:D:96A:UN+4+29+UNT+1'");
    // The CONTRL itself is a well-formed interchange.
    expect(parse(contrl).findings).toEqual([]);
  });
});

describe('CLI', () => {
  const run = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
    return { code, out, err };
  };
  it('exits 0, 1 and 2', async () => {
    const fixture = (name: string): string => fileURLToPath(new URL(name, fixturesDir));
    expect((await run(['validate', fixture('orders-d96a.edi')])).code).toBe(0);
    const bad = await run(['validate', '--json', fixture('desadv-d96a-unt-count.edi')]);
    expect(bad.code).toBe(1);
    const json = JSON.parse(bad.out) as { ok: boolean; messages: unknown[]; findings: { code: string }[] };
    expect(json.ok).toBe(false);
    expect(json.findings.map((f) => f.code)).toContain('EDI_UNT_COUNT_MISMATCH');
    expect((await run(['validate', '/nonexistent.edi'])).code).toBe(2);
    expect((await run(['validate'])).code).toBe(2);
    expect((await run(['bogus'])).code).toBe(2);
  });
});
