/**
 * `npm run bench:edifact`: throughput and memory of the EDIFACT engine on a generated 50 MB interchange of
 * ORDERS and INVOIC (D96A), compared with the npm `edifact` package, plus a 500 MB streaming run in a child
 * process (its peak RSS is the figure that matters). Prints figures; not a timed test.
 *
 * Every stage runs once to warm up (JIT, directory load, heap sizes), then `BENCH_RUNS` times (default 5); the best run is
 * the figure (the machine is shared: the best run is the one least disturbed), the median is shown beside it,
 * with the load average at the start of the stage.
 *
 *   BENCH_MB=10 npm run bench:edifact      quick mode for iteration (10 MB, 3 runs, 50 MB stream)
 *   BENCH_RUNS=9                           more runs per stage
 *   BENCH_STREAM_MB=0                      skip the streaming child (EDIFACT_BENCH_* names work too)
 *   BENCH_STAGES=tokenize,parse,spec       only these stages (also: parallel, npm, stream)
 *   BENCH_WORKERS=2                        worker threads of the parallel stage (default: the available parallelism)
 *   BENCH_STREAM_FLAGS='|--max-semi-space-size=2'   node flags of the streaming child, one run per set (| between)
 *
 * The `cli` stage times whole processes, alternating: `edifact validate FILE --json` (compiled first with
 * bin/build-cli.mjs as `npm ci` does, and that bundle run; D96A and the EANCOM guides active) against the npm `edifact` package with
 * its validator (bench/npm-edifact-validate.mjs), on the BENCH_MB input written to a file; then `--json` once on the
 * BENCH_STREAM_MB input for its peak RSS. Wall and CPU time and peak RSS come from /usr/bin/time (the child's own
 * rusage: `time` is small when it forks node, so the bench's own size does not leak into the figure).
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import type { Interchange, Message } from '../src/model.ts';
import { Parser } from '../src/parser.ts';
import { Tokenizer } from '../src/tokenizer.ts';
import { validateStream } from '../src/validate.ts';
import { interchangeChunks } from './generate.ts';

const MB = 1024 * 1024;
const env = (name: string): string | undefined => process.env[`BENCH_${name}`] ?? process.env[`EDIFACT_BENCH_${name}`];
const SIZE_MB = Number(env('MB') ?? 50);
const QUICK = SIZE_MB < 50;
const SIZE = SIZE_MB * MB;
const STREAM_SIZE = Number(env('STREAM_MB') ?? (QUICK ? 50 : 500)) * MB;
const RUNS = Math.max(1, Number(env('RUNS') ?? (QUICK ? 3 : 5)));
const STAGES = new Set((env('STAGES') ?? 'tokenize,parse,spec,parallel,npm,cli,stream').split(','));
const WORKERS = Number(env('WORKERS') ?? availableParallelism());
const CHUNK = MB;
/** Flags of the streaming child runs: no heap cap first (the figure that matters), then V8's own flags can be compared. */
const STREAM_FLAGS: string[][] = (env('STREAM_FLAGS') ?? '').split('|').map((set) => set.split(' ').filter(Boolean));
const D96A_EXTRACTED = fileURLToPath(new URL('../../../../shared/edifact-directories/extracted/D96A', import.meta.url));
/** The shipped UNECE original (packages/edifact/directories/), imported when the shared extracted copy is absent. */
const D96A_ZIP = fileURLToPath(new URL('../directories/d96a.zip', import.meta.url));
const D96A = existsSync(D96A_EXTRACTED) ? D96A_EXTRACTED : D96A_ZIP;

// ---------------------------------------------------------------- input

const generate = (size: number, varied = false): Buffer =>
  Buffer.from([...interchangeChunks(size, CHUNK, varied)].join(''), 'latin1');

const chunksOf = (bytes: Uint8Array): Uint8Array[] => {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
};

// ---------------------------------------------------------------- measuring

let peakRss = 0;
let peakHeap = 0;
const sample = (): void => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) peakRss = m.rss;
  if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
};

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

const loadavg = (): string => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return '?';
  }
};

type Timing = { best: number; median: number; cpu: number; load: string };

/**
 * A GC, one warm-up run, then `runs` timed runs: best and median wall time in ms, and the best CPU time
 * (user + system of the whole process, GC threads included), which other processes on a shared machine disturb less.
 */
const time = (runs: number, fn: () => void): Timing => {
  const load = loadavg();
  gc();
  fn();
  const all: number[] = [];
  let cpu = Infinity;
  for (let r = 0; r < runs; r++) {
    // No forced GC between runs: a full GC shrinks V8's young generation, and the next run would pay for growing it
    // again (measured: tokenize at half speed), which a long-running process does not.
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    all.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu = Math.min(cpu, (used.user + used.system) / 1000);
  }
  all.sort((a, b) => a - b);
  return { best: all[0] as number, median: all[Math.floor((all.length - 1) / 2)] as number, cpu, load };
};

/** `time` for an asynchronous run (the parallel stage: its CPU time includes the worker threads'). */
const timeAsync = async (runs: number, fn: () => Promise<void>): Promise<Timing> => {
  const load = loadavg();
  gc();
  await fn();
  const all: number[] = [];
  let cpu = Infinity;
  for (let r = 0; r < runs; r++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await fn();
    all.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu = Math.min(cpu, (used.user + used.system) / 1000);
  }
  all.sort((a, b) => a - b);
  return { best: all[0] as number, median: all[Math.floor((all.length - 1) / 2)] as number, cpu, load };
};

const speed = (bytes: number, ms: number): number => bytes / MB / (ms / 1000);
const rate = (bytes: number, ms: number): string => `${speed(bytes, ms).toFixed(1)} MB/s`;
const mb = (n: number): string => `${(n / MB).toFixed(0)} MB`;
const line = (label: string, bytes: number, t: Timing, note: string): void =>
  console.log(
    `${label.padEnd(30)}${rate(bytes, t.best).padStart(12)}  (median ${rate(bytes, t.median).padStart(11)}, ` +
      `per CPU second ${rate(bytes, t.cpu).padStart(11)}, load ${t.load})   ${note}`,
  );

// ---------------------------------------------------------------- optional specification level

const loadSpecification = async (): Promise<ValidationLevelPlugin | undefined> => {
  try {
    type SpecModule = { createSpecificationLevel?: (o: { directories: unknown }) => ValidationLevelPlugin };
    const index = (await import('../src/index.ts')) as SpecModule;
    const specPath = new URL('../src/spec/index.ts', import.meta.url);
    const storePath = new URL('../src/directory/node/index.ts', import.meta.url);
    const spec: SpecModule = index.createSpecificationLevel
      ? index
      : existsSync(specPath)
        ? ((await import(specPath.href)) as SpecModule)
        : {};
    if (!spec.createSpecificationLevel || !existsSync(storePath)) return undefined;
    type StoreModule = {
      openDirectoryStore: (path: string) => unknown;
      importDirectory: (source: string, store: unknown) => Promise<unknown>;
    };
    const { openDirectoryStore, importDirectory } = (await import(storePath.href)) as StoreModule;
    let storeDir = process.env.EDIFACT_DIRECTORIES;
    if (!storeDir) {
      if (!existsSync(D96A)) return undefined;
      storeDir = mkdtempSync(join(tmpdir(), 'edifact-bench-'));
      process.on('exit', () => rmSync(storeDir as string, { recursive: true, force: true }));
      await importDirectory(D96A, openDirectoryStore(storeDir));
      // The streaming child reads the same store: importing takes memory that would count in its peak RSS.
      process.env.EDIFACT_DIRECTORIES = storeDir;
    }
    return spec.createSpecificationLevel({ directories: openDirectoryStore(storeDir) });
  } catch (error) {
    console.log(`  (specification level unavailable: ${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
};

// ---------------------------------------------------------------- npm edifact

type Emitter = Record<string, unknown> & { write(s: string): void; end(): void };
const require = createRequire(import.meta.url);

const npmParse = (text: string[], validate: boolean): { segments: number; errors: number } => {
  type Tracker = { accept(tag: string): boolean; reset(): void; on(event: 'error', fn: () => void): void };
  const edifact = require('edifact') as {
    Parser: new (validator?: unknown) => Emitter;
    Validator: new () => { define(defs: unknown): void };
    Tracker: new (table: unknown) => Tracker;
  };
  let segments = 0;
  let errors = 0;
  let validator: { define(defs: unknown): void } | undefined;
  const trackers = new Map<string, Tracker>();
  if (validate) {
    // Its validator checks elements and components against the bundled definitions; its Tracker checks the
    // segment order against the bundled segment tables (as its README shows).
    validator = new edifact.Validator();
    validator.define(require('edifact/segments.js'));
    validator.define(require('edifact/elements.js'));
    for (const type of ['ORDERS', 'INVOIC']) {
      const tracker = new edifact.Tracker(require(`edifact/messages/${type}.json`));
      tracker.on('error', () => void errors++);
      trackers.set(type, tracker);
    }
  }
  const parser = validator ? new edifact.Parser(validator) : new edifact.Parser();
  let tracker: Tracker | undefined;
  let current: { name: string; elements: string[][] } | undefined;
  let element: string[] = [];
  parser.onopensegment = (name: string) => {
    current = { name, elements: [] };
    segments++;
    if (tracker && name !== 'UNH') tracker.accept(name);
    if (name === 'UNT') tracker = undefined;
  };
  parser.onelement = () => {
    element = [];
    current?.elements.push(element);
  };
  parser.oncomponent = (value: string) => element.push(value);
  parser.onclosesegment = () => {
    if (validate && current?.name === 'UNH') {
      tracker = trackers.get(current.elements[1]?.[0] ?? '');
      tracker?.reset();
      tracker?.accept('UNH');
    }
  };
  for (const chunk of text) parser.write(chunk);
  parser.end();
  return { segments, errors };
};

// ---------------------------------------------------------------- streaming child

/** Writes the generated input to a file (the streaming child reads it as a real caller would, from disk). */
const writeStreamInput = (size: number): string => {
  const folder = mkdtempSync(join(tmpdir(), 'edifact-bench-stream-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  const path = join(folder, 'input.edi');
  const fd = openSync(path, 'w');
  try {
    for (const chunk of interchangeChunks(size)) writeSync(fd, Buffer.from(chunk, 'latin1'));
  } finally {
    closeSync(fd);
  }
  return path;
};

/**
 * The child's own peak RSS: VmHWM of /proc/self/status (Linux). getrusage's maxRSS survives execve, so in a child
 * it is at least the parent's RSS when it forked (measured: 404 MB for a child whose own peak was 43 MB).
 */
const ownPeakRss = (): number | undefined => {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
};

const streamChild = async (): Promise<void> => {
  const spec = await loadSpecification();
  gc();
  const startRss = process.memoryUsage().rss;
  let messages = 0;
  let findings = 0;
  let bytes = 0;
  const file = process.env.EDIFACT_BENCH_STREAM_FILE as string;
  const counted = async function* (): AsyncGenerator<Uint8Array> {
    // fs read stream, 64 KB chunks (its default): what `edifact validate` of a big file or an upload handler does.
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      yield chunk;
    }
  };
  const t = performance.now();
  for await (const event of validateStream(counted(), { levels: spec ? [spec] : [] })) {
    if (event.type === 'message') {
      messages++;
      findings += event.findings.length;
      if (messages % 2000 === 0) sample();
    } else if (event.type === 'finding') findings++;
  }
  const ms = performance.now() - t;
  sample();
  const maxRss = ownPeakRss() ?? process.resourceUsage().maxRSS * 1024;
  console.log(
    JSON.stringify({
      bytes,
      messages,
      findings,
      ms,
      maxRss,
      startRss,
      peakHeap,
      peakRss,
      levels: spec ? 'syntax+specification' : 'syntax',
    }),
  );
};

// ---------------------------------------------------------------- the CLI as a whole process

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const TIME = '/usr/bin/time';

type ProcessRun = { wall: number; cpu: number; rss: number | undefined; code: number | null };

/** Runs `node …args` to completion, stdout discarded; wall and CPU seconds and peak RSS through /usr/bin/time. */
const runProcess = (args: string[], env: NodeJS.ProcessEnv = process.env): ProcessRun => {
  if (existsSync(TIME)) {
    const child = spawnSync(TIME, ['-f', '%e %U %S %M', process.execPath, ...args], {
      encoding: 'utf8',
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 16 * MB,
    });
    const [wall, user, system, kb] = (child.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
    return { wall: wall ?? NaN, cpu: (user ?? NaN) + (system ?? NaN), rss: (kb ?? NaN) * 1024, code: child.status };
  }
  const t = performance.now();
  const child = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
  return { wall: (performance.now() - t) / 1000, cpu: NaN, rss: undefined, code: child.status };
};

const seconds = (runs: ProcessRun[], pick: (r: ProcessRun) => number): { best: number; median: number } => {
  const all = runs.map(pick).sort((a, b) => a - b);
  return { best: all[0] as number, median: all[Math.floor((all.length - 1) / 2)] as number };
};

const processLine = (label: string, bytes: number, runs: ProcessRun[]): { best: number } => {
  const wall = seconds(runs, (r) => r.wall);
  const cpu = seconds(runs, (r) => r.cpu);
  const rss = Math.max(...runs.map((r) => r.rss ?? NaN));
  console.log(
    `${label.padEnd(30)}${`${wall.best.toFixed(2)} s`.padStart(8)} (median ${wall.median.toFixed(2)} s, ` +
      `${bytes >= MB ? rate(bytes, wall.best * 1000) : `${bytes} bytes`}), CPU ${cpu.best.toFixed(2)} s, peak RSS ${Number.isNaN(rss) ? '?' : mb(rss)}, ` +
      `exit ${runs[0]?.code}`,
  );
  return wall;
};

/** The `cli` stage (see the header comment). */
const cliStage = async (input: Buffer): Promise<void> => {
  if (!(await loadSpecification())) {
    console.log('edifact validate (process)    (not available: no D96A to import)');
    return;
  }
  const store = process.env.EDIFACT_DIRECTORIES as string;
  const build = spawnSync(process.execPath, [join(packageRoot, 'bin', 'build-cli.mjs')], { encoding: 'utf8' });
  if (build.status !== 0) console.log(`  (build-cli failed, the CLI runs from its sources: ${build.stderr.trim()})`);
  const folder = mkdtempSync(join(tmpdir(), 'edifact-bench-cli-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'input.edi');
  const fd = openSync(file, 'w');
  writeSync(fd, input);
  closeSync(fd);
  const small = join(folder, 'small.edi');
  const smallFd = openSync(small, 'w');
  writeSync(smallFd, Buffer.from([...interchangeChunks(2000)].join(''), 'latin1'));
  closeSync(smallFd);
  const bin = join(packageRoot, 'bin', 'edifact.mjs');
  const npm = join(packageRoot, 'bench', 'npm-edifact-validate.mjs');
  // The bundle just built, run as bin/edifact.mjs runs it: through the bin itself, a source saved meanwhile (others
  // work in this tree) would send the remaining runs to tsx, since the bin never runs a stale build.
  const compiled = pathToFileURL(join(packageRoot, 'dist', 'cli.mjs')).href;
  const runner = `const { main } = await import(${JSON.stringify(compiled)}); process.exitCode = await main(process.argv.slice(1));`;
  const cli = (path: string, env?: NodeJS.ProcessEnv) =>
    env?.EDIFACT_CLI_SOURCE === '1'
      ? runProcess([bin, 'validate', path, '--json', '--store', store], env)
      : runProcess(['--input-type=module', '-e', runner, 'validate', path, '--json', '--store', store], env);

  console.log(
    `\nWhole processes, alternating, best of ${RUNS} after a warm-up (D96A and the EANCOM guides; load ${loadavg()}):`,
  );
  const startCompiled: ProcessRun[] = [];
  const startSource: ProcessRun[] = [];
  cli(small);
  for (let r = 0; r < RUNS; r++) {
    startCompiled.push(cli(small));
    startSource.push(cli(small, { ...process.env, EDIFACT_CLI_SOURCE: '1' }));
  }
  processLine('start-up, compiled (1 message)', 2000, startCompiled);
  processLine('start-up, tsx (1 message)', 2000, startSource);
  const ours: ProcessRun[] = [];
  const theirs: ProcessRun[] = [];
  cli(file);
  runProcess([npm, file]);
  for (let r = 0; r < RUNS; r++) {
    ours.push(cli(file));
    theirs.push(runProcess([npm, file]));
  }
  const a = processLine(`edifact validate --json`, input.length, ours);
  const b = processLine(`npm edifact + validator`, input.length, theirs);
  const cpu = seconds(theirs, (r) => r.cpu).best / seconds(ours, (r) => r.cpu).best;
  console.log(
    `ratio (whole process)         ${(b.best / a.best).toFixed(1)}x npm edifact with its validator (wall, best), ` +
      `${cpu.toFixed(1)}x (CPU)`,
  );
  if (STREAM_SIZE > 0) {
    const big = writeStreamInput(STREAM_SIZE);
    const run = cli(big);
    processLine(`edifact validate --json ${mb(STREAM_SIZE)}`, STREAM_SIZE, [run]);
  }
};

// ---------------------------------------------------------------- main

const main = async (): Promise<void> => {
  console.log(
    `Generating ${mb(SIZE)} of ORDERS/INVOIC D96A… (best of ${RUNS} runs after a warm-up; ${QUICK ? 'quick mode' : 'full run'}; ` +
      `node ${process.version}, load ${loadavg()})`,
  );
  const input = generate(SIZE);
  const chunks = chunksOf(input);
  console.log(`  ${input.length} bytes in ${chunks.length} chunks of 1 MB\n`);
  sample();

  let tParse: Timing | undefined;
  let tSpec: Timing | undefined;
  if (STAGES.has('tokenize')) {
    let segments = 0;
    const t = time(RUNS, () => {
      segments = 0;
      const tokenizer = new Tokenizer({ segment: () => void segments++, finding: () => undefined });
      for (const c of chunks) tokenizer.write(c);
      tokenizer.end();
      sample();
    });
    line('tokenize', input.length, t, `${segments} segments`);
  }

  if (STAGES.has('parse')) {
    let messages = 0;
    let syntaxFindings = 0;
    tParse = time(RUNS, () => {
      messages = 0;
      syntaxFindings = 0;
      const parser = new Parser(
        {
          message: (_m, _i, f) => {
            messages++;
            syntaxFindings += f.length;
          },
          finding: () => void syntaxFindings++,
        },
        { retainMessages: false },
      );
      for (const c of chunks) parser.write(c);
      parser.end();
      sample();
    });
    line('parse (+ level 1 envelope)', input.length, tParse, `${messages} messages, ${syntaxFindings} findings`);
  }

  const spec = STAGES.has('spec') ? await loadSpecification() : undefined;
  if (spec) {
    const collected: { message: Message; interchange: Interchange }[] = [];
    // Load the directory (lazily loaded by the plugin) outside the timing.
    const probe = new Parser(
      { message: (message, interchange) => void (collected.length < 2 && collected.push({ message, interchange })) },
      { retainMessages: false },
    );
    probe.write(chunks[0] as Uint8Array);
    for (const c of collected.slice(0, 2)) await spec.prepare?.(c.message);
    // What `validateStream(chunks, { levels: [specification] })` does, the API the CLI and the server use: the
    // screen (src/screen.ts) takes clean messages in one pass; `screen: false` is the plain path (a segment object
    // per segment, the level's walk and checks on them), kept for comparison. Both give the same findings.
    const run = async (source: Uint8Array[], screen: boolean): Promise<{ findings: number; messages: number }> => {
      let findings = 0;
      let messages = 0;
      for await (const event of validateStream(source, { levels: [spec], screen })) {
        if (event.type === 'message') {
          findings += event.findings.length;
          if (++messages % 5000 === 0) sample();
        } else if (event.type === 'finding') findings++;
      }
      return { findings, messages };
    };
    let out = { findings: 0, messages: 0 };
    tSpec = await timeAsync(RUNS, async () => void (out = await run(chunks, true)));
    line('parse + specification', input.length, tSpec, `${out.findings} findings, ${out.messages} messages`);
    // Thousands of message shapes instead of 44: the screen walks the segment table of each shape it has not seen.
    const varied = generate(SIZE, true);
    const variedChunks = chunksOf(varied);
    const tVaried = await timeAsync(RUNS, async () => void (out = await run(variedChunks, true)));
    line('  varied message shapes', varied.length, tVaried, `${out.findings} findings, ${out.messages} messages`);
    const tPlain = await timeAsync(RUNS, async () => void (out = await run(chunks, false)));
    line('  plain path (screen off)', input.length, tPlain, `${out.findings} findings, ${out.messages} messages`);
  } else if (STAGES.has('spec')) {
    console.log('parse + specification         (not available: no specification level or no D96A directory)');
  }
  if (STAGES.has('parallel') && WORKERS >= 1 && (spec || (await loadSpecification()))) {
    // The opt-in parallel mode: the input cut at message boundaries, one part per worker thread, the same findings.
    const { ParallelValidator } = await import('../src/parallel/node/parallel.ts');
    const validator = new ParallelValidator({ store: process.env.EDIFACT_DIRECTORIES as string, workers: WORKERS });
    let parallelFindings = 0;
    let parts = 0;
    const tParallel = await timeAsync(RUNS, async () => {
      const result = await validator.validate(input);
      parallelFindings = result.findings.length;
      parts = result.parts;
      sample();
    });
    await validator.close();
    line(
      `parse + spec, ${WORKERS} workers`,
      input.length,
      tParallel,
      `${parallelFindings} findings, ${parts} parts (worker threads; CPU time of all threads)`,
    );
  }
  console.log(
    `peak memory (this process)    RSS ${mb(peakRss)}, heap ${mb(peakHeap)} (the ${mb(SIZE)} input is held in memory)\n`,
  );

  if (STAGES.has('npm')) {
    const text = chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString('latin1'));
    let npm = { segments: 0, errors: 0 };
    const npmRuns = Math.max(1, Math.min(RUNS, 3));
    const tNpm = time(npmRuns, () => {
      npm = npmParse(text, false);
    });
    line('npm edifact parse', input.length, tNpm, `${npm.segments} segments (best of ${npmRuns})`);
    const tNpmValidate = time(npmRuns, () => {
      npm = npmParse(text, true);
    });
    line('npm edifact + validator', input.length, tNpmValidate, `${npm.errors} tracker errors (best of ${npmRuns})`);
    if (tParse)
      console.log(`ratio parse                   ${(tNpm.best / tParse.best).toFixed(1)}x npm edifact's speed`);
    const ours = tSpec ?? tParse;
    if (ours) {
      console.log(
        `ratio with validation         ${(tNpmValidate.best / ours.best).toFixed(1)}x npm edifact with its validator` +
          (tSpec ? ' (ours: level 1 + specification)' : ' (ours: level 1 only)'),
      );
    }
  }

  if (STAGES.has('cli')) await cliStage(input);

  if (STAGES.has('stream') && STREAM_SIZE > 0) {
    console.log(
      `\nStreaming ${mb(STREAM_SIZE)} from a file through validateStream in a child process (peak RSS: the child's VmHWM)…`,
    );
    if (!spec) await loadSpecification(); // imports D96A once, here, for the child
    const written = performance.now();
    process.env.EDIFACT_BENCH_STREAM_FILE = writeStreamInput(STREAM_SIZE);
    console.log(
      `  (input written to a temporary file in ${((performance.now() - written) / 1000).toFixed(1)} s; load ${loadavg()})`,
    );
    for (const childFlags of STREAM_FLAGS) {
      const child = spawnSync(
        process.execPath,
        [...childFlags, '--import', 'tsx', fileURLToPath(import.meta.url), '--stream-child'],
        { encoding: 'utf8', env: process.env, maxBuffer: 16 * MB },
      );
      const lastLine = child.stdout.trim().split('\n').at(-1) ?? '';
      try {
        const r = JSON.parse(lastLine) as {
          bytes: number;
          messages: number;
          ms: number;
          maxRss: number;
          startRss: number;
          peakHeap: number;
          levels: string;
        };
        console.log(
          `stream ${r.levels.padEnd(22)} ${rate(r.bytes, r.ms).padStart(12)}   ${r.messages} messages, ` +
            `peak RSS ${mb(r.maxRss)} (${mb(r.startRss)} before the first byte), peak heap used ${mb(r.peakHeap)}   ` +
            `(node ${childFlags.join(' ') || 'without flags'})`,
        );
      } catch {
        console.log(`  child failed: ${child.stderr || child.stdout}`);
      }
    }
  }
  console.log(`\nload average at the end: ${loadavg()}`);
};

if (process.argv.includes('--stream-child')) await streamChild();
else await main();
