/**
 * `edifact validate` with a directory store: the syntax, specification and map levels, in the human table and in
 * `--json`. The store is a temporary one, imported through the CLI itself from the shared UNECE original of D96A.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.ts';
import { createLevels } from '../src/directory/cli-commands.ts';
import type { Finding } from '../src/model.ts';
import { unecePath } from './directory/helpers.ts';
import { samplesDir } from './helpers.ts';

let folder = '';
let store = '';

const run = async (argv: string[]) => {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
};

/** An EANCOM 97 order (EAN008) whose BGM document name code 380 is in the D96A code list but not in the guide's. */
const MAP_ERROR =
  "UNA:+.? 'UNB+UNOC:3+5412345000013:14+4012345500004:14+240115:1200+IC1'" +
  "UNH+M1+ORDERS:D:96A:UN:EAN008'BGM+380+PO1+9'DTM+137:20240115:102'" +
  "NAD+BY+5412345000013::9'NAD+SU+4012345500004::9'LIN+1++4012345000016:EN'QTY+21:3'UNS+S'UNT+9+M1'UNZ+1+IC1'";

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'edifact-cli-'));
  store = join(folder, 'store');
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    expect(await main(['directories', 'import', unecePath('D96A'), '--store', store])).toBe(0);
  } finally {
    write.mockRestore();
  }
  await writeFile(join(folder, 'map-error.edi'), MAP_ERROR);
}, 60_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('edifact validate with a directory store', () => {
  it('createLevels gives the specification and map levels only when the store holds a directory', async () => {
    expect((await createLevels({ store })).map((l) => l.level)).toEqual(['specification', 'map']);
    expect(await createLevels({ store: join(folder, 'empty') })).toEqual([]);
  });

  it('reports specification findings with their level, in the table and in JSON', async () => {
    const file = samplesDir + 'EdiFabric_EDIFACT.NET__PurchaseOrderCustom1.txt';
    const human = await run(['validate', file, '--store', store]);
    expect(human.code).toBe(1);
    expect(human.out).toContain('LEVEL');
    expect(human.out).toMatch(/error\s+specification\s+EDI_TOO_MANY_ELEMENTS\s+BGM\[1\]/);

    const json = await run(['validate', '--json', file, '--store', store]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out) as {
      ok: boolean;
      messages: { type: string; status: string }[];
      findings: Finding[];
    };
    expect(report.ok).toBe(false);
    expect(report.messages).toMatchObject([{ type: 'ORDERS', status: 'error' }]);
    expect(report.findings.map((f) => `${f.level} ${f.code}`)).toEqual([
      'syntax EDI_BYTE_ORDER_MARK',
      'syntax EDI_WHITESPACE_BETWEEN_SEGMENTS',
      'specification EDI_TOO_MANY_ELEMENTS',
    ]);
    expect(report.findings[2]).toMatchObject({ path: 'BGM[1]', version: 'D96A', messageType: 'ORDERS', line: 3 });
  });

  it('a code outside the directory list is a warning (exit 0)', async () => {
    const json = await run([
      'validate',
      '--json',
      samplesDir + 'EdiFabric_EDIFACT.NET__PurchaseOrderInvalid.txt',
      '--store',
      store,
    ]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out) as { ok: boolean; findings: Finding[] };
    expect(report.ok).toBe(true);
    expect(report.findings.find((f) => f.code === 'EDI_INVALID_CODE')).toMatchObject({
      level: 'specification',
      severity: 'warning',
      path: 'FTX[1]/C107/3055',
      actual: 'AA',
    });
  });

  it('runs the map level: a code the EANCOM guide does not allow is an error', async () => {
    const human = await run(['validate', join(folder, 'map-error.edi'), `--store=${store}`]);
    expect(human.code).toBe(1);
    expect(human.out).toMatch(/error\s+map\s+EDI_INVALID_CODE\s+BGM\[1\]\/C002\/1001/);
    const json = await run(['validate', '--json', join(folder, 'map-error.edi'), '--store', store]);
    const report = JSON.parse(json.out) as { findings: Finding[] };
    expect(report.findings.filter((f) => f.level === 'map')).toMatchObject([
      { code: 'EDI_INVALID_CODE', severity: 'error', version: 'EAN008', actual: '380' },
    ]);
    // The directory knows 380, so the specification level has nothing to say about it.
    expect(report.findings.filter((f) => f.level === 'specification')).toEqual([]);
  });

  it('messages of a directory the store lacks are unsupported', async () => {
    const json = await run([
      'validate',
      '--json',
      samplesDir + 'SYN_mixed_unsupported_type_and_version.edi',
      '--store',
      store,
    ]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out) as { findings: Finding[] };
    expect(report.findings.filter((f) => f.code === 'EDI_UNSUPPORTED_MESSAGE').map((f) => f.actual)).toEqual([
      'ORDERS:D:95Z:UN',
      'XYZABC:D:96A:UN',
    ]);
  });

  it('without directories in the store: the syntax level alone, with a note', async () => {
    const result = await run([
      'validate',
      samplesDir + 'EdiFabric_EDIFACT.NET__PurchaseOrderCustom1.txt',
      '--store',
      join(folder, 'empty'),
    ]);
    expect(result.code).toBe(0);
    expect(result.err).toContain('syntax level only');
    expect(result.out).not.toContain('specification');
  });
});
