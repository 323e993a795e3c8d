/**
 * `edifact validate`: streamed output equal to `validate()` on the whole input, `--json` valid for inputs cut
 * anywhere, `--summary`, `--max-findings`, the table's words and "checked against" lines, the default store, exit
 * codes. The store is a temporary one, imported through the CLI itself from the shipped UNECE original of D96A.
 */
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { message as benchMessage } from '../bench/generate.ts';
import { main } from '../src/cli.ts';
import { Sink, Spool } from '../src/cli/output.ts';
import { openCliStore, resolveStorePath } from '../src/cli/store.ts';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import type { Finding } from '../src/model.ts';
import { validate } from '../src/validate.ts';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
/** The shipped zip (packages/edifact/directories/), else the shared original it is copied from. */
const d96aZip = [
  join(packageRoot, 'directories', 'd96a.zip'),
  join(packageRoot, '..', '..', '..', 'shared', 'edifact-directories', 'original-zips', 'd96a.zip'),
].find((path) => existsSync(path)) as string;

let folder = '';
let store = '';
let levels: ValidationLevelPlugin[] = [];

const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) }, env);
  return { code, out, err };
};

const UNA = "UNA:+.? '";
const UNB = "UNB+UNOC:3+5412345000013:14+4012345500004:14+240115:1200+IC1'";
const interchange = (...messages: string[]): string => `${UNA}${UNB}${messages.join('')}UNZ+${messages.length}+IC1'`;

/** An EANCOM 97 order (EAN008) whose BGM document name code 380 is in the D96A code list but not in the guide's. */
const MAP_ERROR = interchange(
  "UNH+M1+ORDERS:D:96A:UN:EAN008'BGM+380+PO1+9'DTM+137:20240115:102'" +
    "NAD+BY+5412345000013::9'NAD+SU+4012345500004::9'LIN+1++4012345000016:EN'QTY+21:3'UNS+S'UNT+9+M1'",
);

/** Inputs of every kind the table and the JSON must report: clean, each level's findings, envelope faults. */
const FIXTURES: Record<string, string> = {
  'clean.edi': interchange(benchMessage(1), benchMessage(2), benchMessage(3)),
  'map-error.edi': MAP_ERROR,
  'spec-error.edi': interchange(
    benchMessage(2)
      .replace("BGM+220+PO2+9'", "BGM+220+PO2+9+X+Y+Z'")
      .replace("DTM+137:20240115:102'", "DTM+137:2024X115:102'"),
    benchMessage(3),
  ),
  'unsupported.edi': interchange(
    "UNH+A1+ORDERS:D:95Z:UN'BGM+220+PO1+9'UNT+3+A1'",
    benchMessage(4),
    "UNH+A3+XYZABC:D:96A:UN'BGM+220+PO1+9'UNT+3+A3'",
  ),
  'envelope.edi':
    '\uFEFF' +
    `${UNA}\n${UNB}\n` +
    benchMessage(5).replaceAll("'", "'\n") +
    "UNH+E2+ORDERS:D:96A:UN:EAN008'BGM+220+PO9+9'UNT+7+E9'" +
    benchMessage(6).replace(/UNT\+\d+\+M000000006'$/, '') +
    "UNZ+7+IC2'",
  'no-unb.edi': benchMessage(7) + benchMessage(8),
  'truncated.edi': MAP_ERROR.slice(0, 150),
};

/** The project's own fixtures (test/fixtures/*.edi) as well, when they are there. */
const fixtureFolder = fileURLToPath(new URL('./fixtures/', import.meta.url));
const projectFixtures = existsSync(fixtureFolder)
  ? readdirSync(fixtureFolder)
      .filter((name) => name.endsWith('.edi'))
      .sort()
  : [];

const pathOf = (name: string): string => (name in FIXTURES ? join(folder, name) : join(fixtureFolder, name));

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'edifact-cli-'));
  store = join(folder, 'store');
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    expect(await main(['directories', 'import', d96aZip, '--store', store])).toBe(0);
  } finally {
    write.mockRestore();
  }
  for (const [name, text] of Object.entries(FIXTURES)) await writeFile(join(folder, name), Buffer.from(text, 'latin1'));
  levels = (await openCliStore(store, {}, () => undefined)).levels;
}, 60_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

type JsonReport = {
  file: string;
  ok: boolean;
  interchanges: { controlReference: string; line: number }[];
  messages: { reference: string; type: string; status: string; line: number }[];
  findings: Finding[];
  findingsNotListed?: number;
};

/** What the CLI printed before it streamed: `validate()` of the whole input, in the same JSON shape. */
const expected = async (path: string): Promise<Omit<JsonReport, 'findingsNotListed'>> => {
  const result = await validate(new Uint8Array(await readFile(path)), { levels });
  return JSON.parse(
    JSON.stringify({
      file: path,
      ok: result.ok,
      interchanges: result.interchanges.map((i) => ({
        controlReference: i.controlReference,
        syntaxIdentifier: i.syntaxIdentifier,
        syntaxVersion: i.syntaxVersion,
        sender: i.sender ?? '',
        recipient: i.recipient ?? '',
        line: i.header?.position.line ?? i.una?.position.line ?? 1,
      })),
      messages: result.messages,
      findings: result.findings,
    }),
  ) as Omit<JsonReport, 'findingsNotListed'>;
};

const shape = (report: JsonReport) => ({
  file: report.file,
  ok: report.ok,
  interchanges: report.interchanges,
  messages: report.messages,
  findings: report.findings,
});

describe('edifact validate streams the result of validate()', () => {
  it.each([...Object.keys(FIXTURES), ...projectFixtures])(
    '--json of %s equals validate() of the whole input',
    async (name) => {
      const path = pathOf(name);
      const json = await run(['validate', '--json', path, '--store', store]);
      const report = JSON.parse(json.out) as JsonReport;
      const want = await expected(path);
      expect(shape(report)).toEqual(want);
      expect(json.code).toBe(want.ok ? 0 : 1);
    },
  );

  it.each([...Object.keys(FIXTURES), ...projectFixtures])(
    'the table of %s lists every message and finding',
    async (name) => {
      const path = pathOf(name);
      const human = await run(['validate', path, '--store', store]);
      const want = await expected(path);
      expect(human.code).toBe(want.ok ? 0 : 1);
      for (const m of want.messages) {
        expect(human.out).toMatch(
          new RegExp(`^${m.line}\\s+${m.reference.replace(/[?+*.]/g, '\\$&')}\\s+${m.type}`, 'm'),
        );
      }
      for (const f of want.findings) {
        expect(human.out).toContain(`${f.line}:${f.column}`);
        expect(human.out).toMatch(new RegExp(`${f.severity}\\s+${f.level}\\s+${f.code}`));
      }
      const rows = human.out.split('\n').filter((line) => /^ {2}\d+:\d+ /.test(line));
      expect(rows).toHaveLength(want.findings.length);
      expect(human.out).toContain(`${path}: ${want.ok ? 'OK' : 'ERRORS'} (`);
    },
  );

  it('several files give a JSON array, one document per file, in order', async () => {
    const files = ['clean.edi', 'map-error.edi'].map(pathOf);
    const json = await run(['validate', '--json', ...files, '--store', store]);
    expect(json.code).toBe(1);
    const reports = JSON.parse(json.out) as JsonReport[];
    expect(reports.map(shape)).toEqual([await expected(files[0] as string), await expected(files[1] as string)]);
  });

  it('keeps findings on a temporary file past its memory limit and gives them back whole', async () => {
    let out = '';
    const sink = new Sink({ out: (t) => void (out += t), err: () => undefined });
    const spool = new Spool(100);
    const items = Array.from({ length: 5000 }, (_, i) => `,{"n":${i},"text":"é ✓ ${'x'.repeat(i % 50)}"}`);
    for (const item of items) spool.append(item);
    await spool.drain(sink);
    await sink.flush();
    expect(out).toBe(items.join(''));
  });
});

describe('memory stays bounded on hostile input', () => {
  it('more findings outside messages than the ordering holds still come out whole and in order', async () => {
    // 12,000 UNT without UNH: a finding each and no message event to release them; the ordering lets the earlier
    // half go past PENDING_LIMIT (10,000).
    const path = join(folder, 'stray.edi');
    await writeFile(path, `${UNA}${UNB}${"UNT+2+X'".repeat(12_000)}UNZ+0+IC1'`);
    const result = await validate(new Uint8Array(await readFile(path)), { levels });
    const omitted = (result as { omitted?: { errors: number; warnings: number; infos: number } }).omitted;
    const total = result.findings.length + (omitted ? omitted.errors + omitted.warnings + omitted.infos : 0);
    const json = await run(['validate', '--json', path, '--store', store]);
    const report = JSON.parse(json.out) as JsonReport;
    expect(report.findings.length + (report.findingsNotListed ?? 0)).toBe(total);
    // validate() may list fewer (its own cap); what it lists, the CLI lists first, in the same order.
    expect(report.findings.slice(0, result.findings.length)).toEqual(JSON.parse(JSON.stringify(result.findings)));
    const human = await run(['validate', path, '--store', store]);
    const lines = human.out.split('\n').filter((line) => /^ {2}\d+:\d+ /.test(line));
    expect(lines).toHaveLength(report.findings.length);
    const columns = lines.map((line) => Number(/^ {2}\d+:(\d+) /.exec(line)?.[1]));
    expect(columns).toEqual([...columns].sort((a, b) => a - b));
  });

  it('counts at most 1,000 kinds of message in --summary, the rest as (other)', async () => {
    const path = join(folder, 'kinds.edi');
    const messages = Array.from(
      { length: 1005 },
      (_, i) => `UNH+K${i}+T${String(i).padStart(5, '0')}:D:96A:UN'UNT+2+K${i}'`,
    );
    await writeFile(path, interchange(...messages));
    const json = await run(['validate', '--summary', '--json', path, '--store', store]);
    const summary = JSON.parse(json.out) as {
      messages: number;
      messageTypes: { type: string; messages: number }[];
      checked: { notChecked: Record<string, number> };
    };
    expect(summary.messages).toBe(1005);
    expect(summary.messageTypes).toHaveLength(1001);
    expect(summary.messageTypes.find((t) => t.type === '(other)')?.messages).toBe(5);
    expect(Object.keys(summary.checked.notChecked)).toHaveLength(1001);
    expect(summary.checked.notChecked['(other)']).toBe(5);
  });
});

describe('--json for inputs cut anywhere', () => {
  it('is one valid JSON document with the same messages as validate(), whatever the cut', async () => {
    const whole = Buffer.from(FIXTURES['spec-error.edi'] as string, 'latin1');
    const cut = join(folder, 'cut.edi');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: whole.length }), async (at) => {
        await writeFile(cut, whole.subarray(0, at));
        const json = await run(['validate', '--json', cut, '--store', store]);
        const report = JSON.parse(json.out) as JsonReport;
        expect(shape(report)).toEqual(await expected(cut));
        expect([0, 1]).toContain(json.code);
      }),
      { numRuns: 60 },
    );
  });
});

describe('--summary and --max-findings', () => {
  it('--summary counts findings per code and messages per type, as validate() finds them', async () => {
    const path = pathOf('unsupported.edi');
    const want = await expected(path);
    const json = await run(['validate', '--summary', '--json', path, '--store', store]);
    expect(json.code).toBe(1);
    const summary = JSON.parse(json.out) as {
      ok: boolean;
      messages: number;
      findings: number;
      codes: { code: string; errors: number; warnings: number }[];
      messageTypes: { type: string; version: string; messages: number; error: number }[];
      checked: { directories: Record<string, number>; notChecked: Record<string, number>; storeDirectories: string[] };
    };
    expect(summary).toMatchObject({ ok: false, messages: want.messages.length, findings: want.findings.length });
    const byCode = new Map<string, number>();
    for (const f of want.findings) byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
    expect(Object.fromEntries(summary.codes.map((c) => [c.code, c.errors + c.warnings]))).toEqual(
      Object.fromEntries(byCode),
    );
    expect(summary.messageTypes.map((t) => `${t.type} ${t.version} ${t.messages} ${t.error}`).sort()).toEqual([
      'ORDERS D95Z 1 1',
      'ORDERS D96A 1 0',
      'XYZABC D96A 1 1',
    ]);
    expect(summary.checked).toMatchObject({
      directories: { D96A: 1 },
      notChecked: { 'ORDERS:D:95Z:UN': 1, 'XYZABC:D:96A:UN': 1 },
      storeDirectories: ['D96A'],
    });
    const human = await run(['validate', '--summary', path, '--store', store]);
    expect(human.out).toMatch(/^EDI_UNSUPPORTED_MESSAGE\s+2\s+0\s+0$/m);
    expect(human.out).toMatch(/^ORDERS\s+D95Z\s+1\s+0\s+0\s+1$/m);
    expect(human.out).not.toMatch(/^\s+\d+:\d+ /m); // no finding rows
  });

  it('--max-findings N lists the first N findings and counts the rest', async () => {
    const path = pathOf('envelope.edi');
    const want = await expected(path);
    expect(want.findings.length).toBeGreaterThan(3);
    const json = await run(['validate', '--json', '--max-findings', '2', path, '--store', store]);
    const report = JSON.parse(json.out) as JsonReport;
    expect(report.findings).toEqual(want.findings.slice(0, 2));
    expect(report.findingsNotListed).toBe(want.findings.length - 2);
    expect(report.ok).toBe(want.ok);
    expect(json.code).toBe(1);

    const human = await run(['validate', '--max-findings=2', path, '--store', store]);
    expect(human.out.split('\n').filter((line) => /^ {2}\d+:\d+ /.test(line))).toHaveLength(2);
    expect(human.out).toContain(`${want.findings.length - 2} not listed (--max-findings 2)`);

    const none = await run(['validate', '--json', '--max-findings', '0', path, '--store', store]);
    expect(JSON.parse(none.out)).toMatchObject({ findings: [], findingsNotListed: want.findings.length, ok: false });
  });
});

describe('the table has words', () => {
  it('prints each finding in English, under its message, with what the message was checked against', async () => {
    const human = await run(['validate', pathOf('map-error.edi'), `--store=${store}`]);
    expect(human.code).toBe(1);
    expect(human.out).toMatch(
      /^LINE\s+MESSAGE REF\s+TYPE\s+DIRECTORY\s+ASSOCIATION\s+DOCUMENT\s+STATUS\s+CHECKED AGAINST$/m,
    );
    expect(human.out).toMatch(/^1\s+M1\s+ORDERS\s+D96A\s+EAN008\s+PO1\s+error\s+D96A \+ guide EANCOM97-ORDERS$/m);
    expect(human.out).toMatch(
      /error\s+map\s+EDI_INVALID_CODE\s+BGM\[1\]\/C002\/1001\s+The value “380” of C002\/1001 is not allowed by the guide; allowed: /,
    );
    expect(human.out).toContain(
      `Checked against: syntax; directories D96A (1 message); guides EANCOM97-ORDERS (1 message) (store ${store}: it has D96A).`,
    );
  });

  it('says when a message could not be checked against a directory, and which directories the store has', async () => {
    const human = await run(['validate', pathOf('unsupported.edi'), '--store', store]);
    expect(human.out).toMatch(/^1\s+A1\s+ORDERS\s+D95Z\s+.*error\s+syntax only: no directory for ORDERS:D:95Z:UN$/m);
    expect(human.out).toContain(
      `Not checked against a directory: ORDERS:D:95Z:UN (1 message), XYZABC:D:96A:UN (1 message) (store ${store}: it has D96A).`,
    );
    expect(human.out).toContain('No directory D95Z (UN) is available to check message ORDERS.');
  });

  it('without directories in the store: the syntax level alone, said on stderr and in the table', async () => {
    const empty = join(folder, 'empty');
    expect((await openCliStore(empty, {}, () => undefined)).levels).toEqual([]);
    const result = await run(['validate', pathOf('clean.edi'), '--store', empty]);
    expect(result.code).toBe(0);
    expect(result.err).toContain('syntax level only');
    expect(result.out).not.toContain('specification');
    expect(result.out).toContain('OK (1 interchange, 3 messages, 0 findings');
    expect(result.out).toContain('syntax only: no directory in the store');
    expect(result.out).toContain(`Not checked against a directory: 3 messages (store ${empty}: it has no directory).`);
  });
});

describe('the store', () => {
  it('defaults to the server’s: $DATA_DIR/edifact, else ./data/edifact; EDIFACT_DIRECTORIES and --store first', () => {
    expect(resolveStorePath(undefined, {})).toEqual({
      path: join(process.cwd(), 'data', 'edifact'),
      origin: 'default',
    });
    expect(resolveStorePath(undefined, { DATA_DIR: '/srv/portal' })).toEqual({
      path: '/srv/portal/edifact',
      origin: 'DATA_DIR',
    });
    expect(resolveStorePath(undefined, { DATA_DIR: '', EDIFACT_DIRECTORIES: '/x' }).path).toBe('/x');
    expect(resolveStorePath('/y', { DATA_DIR: '/srv', EDIFACT_DIRECTORIES: '/x' })).toEqual({
      path: '/y',
      origin: 'option',
    });
  });

  it.runIf(existsSync(join(packageRoot, 'directories', 'd96a.zip')))(
    'imports the shipped directories into the default store on first use, and says so',
    { timeout: 120_000 },
    async () => {
      const dataDir = join(folder, 'data');
      const first = await run(['validate', '--json', pathOf('map-error.edi')], { DATA_DIR: dataDir });
      expect(first.err).toMatch(/importing D96A from .*d96a\.zip into .*data\/edifact/);
      expect(first.err).toMatch(/importing D01B from /);
      const report = JSON.parse(first.out) as JsonReport;
      expect(report.findings.map((f) => `${f.level} ${f.code}`)).toEqual(['map EDI_INVALID_CODE']);
      const again = await run(['validate', pathOf('map-error.edi')], { DATA_DIR: dataDir });
      expect(again.err).toBe('');
      expect(again.out).toContain(`(store ${join(dataDir, 'edifact')} ($DATA_DIR): it has D01B, D96A).`);
    },
  );
});

describe('exit codes', () => {
  it('0 without errors, 1 with errors, 2 for usage and file problems', async () => {
    expect((await run(['validate', pathOf('clean.edi'), '--store', store])).code).toBe(0);
    expect((await run(['validate', pathOf('map-error.edi'), '--store', store])).code).toBe(1);
    const missing = await run(['validate', join(folder, 'nope.edi'), '--store', store]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read');
    const both = await run(['validate', '--json', join(folder, 'nope.edi'), pathOf('map-error.edi'), '--store', store]);
    expect(both.code).toBe(2);
    expect((JSON.parse(both.out) as JsonReport[]).map((r) => r.file)).toEqual([pathOf('map-error.edi')]);
    expect((await run(['validate'])).code).toBe(2);
    expect((await run(['validate', '--bogus', pathOf('clean.edi')])).code).toBe(2);
    const bad = await run(['validate', '--max-findings', 'ten', pathOf('clean.edi'), '--store', store]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--max-findings needs a whole number');
    expect((await run(['nothing'])).code).toBe(2);
    expect((await run(['--help'])).code).toBe(0);
  });
});

describe('the compiled CLI (bin/build-cli.mjs)', () => {
  const outfile = (): string => join(folder, 'bundle', 'cli.mjs');
  let built: Promise<{ main: typeof main }> | undefined;
  /** The bundle, built once for this block into the temporary folder, as `npm ci` builds dist/cli.mjs. */
  const build = (): Promise<{ main: typeof main }> =>
    (built ??= (async () => {
      await promisify(execFile)(process.execPath, [join(packageRoot, 'bin', 'build-cli.mjs'), outfile()]);
      return (await import(pathToFileURL(outfile()).href)) as { main: typeof main };
    })());

  it(
    'finds the guides and the shipped directories from wherever the bundle lies, and reports as the sources do',
    { timeout: 120_000 },
    async () => {
      const bundle = await build();
      for (const name of ['map-error.edi', 'unsupported.edi']) {
        let out = '';
        const code = await bundle.main(['validate', '--json', pathOf(name), '--store', store], {
          out: (t) => void (out += t),
          err: () => undefined,
        });
        const source = await run(['validate', '--json', pathOf(name), '--store', store]);
        expect(code).toBe(source.code);
        expect(out).toBe(source.out);
      }
      // The map level ran in the bundle: its guides were found through the rewritten import.meta.url.
      let out = '';
      await bundle.main(['validate', pathOf('map-error.edi'), '--store', store], {
        out: (t) => void (out += t),
        err: () => undefined,
      });
      expect(out).toContain('guide EANCOM97-ORDERS');
    },
  );

  it(
    'wires its commands statically: the bundle validates against the store’s directory, not the syntax level alone',
    { timeout: 120_000 },
    async () => {
      const bundle = await build();
      // Every module of the CLI is in the bundle: nothing is imported at run time that esbuild could not follow.
      expect(await readFile(outfile(), 'utf8')).not.toMatch(/\bimport\(/);
      const report = async (name: string) => {
        let out = '';
        let err = '';
        const code = await bundle.main(['validate', '--json', pathOf(name), '--store', store], {
          out: (t) => void (out += t),
          err: (t) => void (err += t),
        });
        return { code, err, report: JSON.parse(out) as JsonReport };
      };
      const spec = await report('spec-error.edi');
      expect(spec.code).toBe(1);
      expect(spec.err).not.toContain('syntax level only');
      expect(spec.report.findings.filter((f) => f.level === 'specification').length).toBeGreaterThan(0);
      expect(shape(spec.report)).toEqual(await expected(pathOf('spec-error.edi')));
      const map = await report('map-error.edi');
      expect(map.report.findings.map((f) => `${f.level} ${f.code}`)).toEqual(['map EDI_INVALID_CODE']);
    },
  );

  it('bin/edifact.mjs runs as a whole process with the same exit codes', { timeout: 60_000 }, async () => {
    const bin = join(packageRoot, 'bin', 'edifact.mjs');
    const exec = (args: string[]) =>
      promisify(execFile)(process.execPath, [bin, ...args]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    const ok = await exec(['validate', '--json', pathOf('clean.edi'), '--store', store]);
    expect(ok.code).toBe(0);
    expect(shape(JSON.parse(ok.stdout) as JsonReport)).toEqual(await expected(pathOf('clean.edi')));
    expect((await exec(['validate', pathOf('map-error.edi'), '--store', store])).code).toBe(1);
    expect((await exec(['validate', join(folder, 'nope.edi'), '--store', store])).code).toBe(2);
    // `-` reads standard input.
    const piped = spawnSync(process.execPath, [bin, 'validate', '--json', '-', '--store', store], {
      input: Buffer.from(MAP_ERROR, 'latin1'),
      encoding: 'utf8',
    });
    expect(piped.status).toBe(1);
    expect(shape(JSON.parse(piped.stdout) as JsonReport)).toEqual({
      ...(await expected(pathOf('map-error.edi'))),
      file: '-',
    });
  });
});

describe('bin/edifact.mjs never runs a stale build', () => {
  it('runs dist/cli.mjs only when it is newer than everything under src/', { timeout: 60_000 }, () => {
    // A package of its own: the real bin, a "compiled" and a "source" CLI that say which they are.
    const pkg = join(folder, 'stale');
    for (const dir of ['bin', 'dist', 'src/cli']) mkdirSync(join(pkg, dir), { recursive: true });
    symlinkSync(join(packageRoot, '..', '..', 'node_modules'), join(pkg, 'node_modules'));
    copyFileSync(join(packageRoot, 'bin', 'edifact.mjs'), join(pkg, 'bin', 'edifact.mjs'));
    writeFileSync(join(pkg, 'package.json'), '{ "type": "module" }\n');
    const cli = (which: string) => `export const main = async () => { process.stdout.write('${which}'); return 0; };\n`;
    writeFileSync(join(pkg, 'dist', 'cli.mjs'), cli('dist'));
    writeFileSync(join(pkg, 'src', 'cli.ts'), cli('src'));
    writeFileSync(join(pkg, 'src', 'cli', 'part.ts'), 'export {};\n');
    const which = (env: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, [join(pkg, 'bin', 'edifact.mjs')], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      }).stdout;
    const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);
    const everything = [
      join(pkg, 'src'),
      join(pkg, 'src', 'cli'),
      join(pkg, 'src', 'cli.ts'),
      join(pkg, 'src', 'cli', 'part.ts'),
    ];
    for (const path of everything) at(path, 1_000_000);
    at(join(pkg, 'dist', 'cli.mjs'), 2_000_000);
    expect(which()).toBe('dist');
    expect(which({ EDIFACT_CLI_SOURCE: '1' })).toBe('src');
    at(join(pkg, 'src', 'cli', 'part.ts'), 3_000_000); // a source changed after the build
    expect(which()).toBe('src');
    at(join(pkg, 'src', 'cli', 'part.ts'), 1_000_000);
    at(join(pkg, 'src', 'cli'), 3_000_000); // a file added or removed in a folder
    expect(which()).toBe('src');
  });
});
