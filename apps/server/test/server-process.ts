import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_ARGS, serverEnv } from '../../../scripts/server-runtime.mjs';

/** apps/server, the directory the server process is started from. */
export const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

let built: string | undefined;
/**
 * The compiled server (`scripts/build-server.mjs`, decision 0044), built once per test process into a folder of its
 * own, so that files running at once never build over each other's.
 */
function compiledServer(): string {
  if (!built) {
    const outdir = mkdtempSync(join(tmpdir(), 'portal-server-'));
    const script = fileURLToPath(new URL('../../../scripts/build-server.mjs', import.meta.url));
    execFileSync(process.execPath, [script, outdir], { stdio: ['ignore', 'ignore', 'inherit'] });
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    built = join(outdir, 'main.js');
  }
  return built;
}

/**
 * The real server as its own process (compiled, as `npm start` runs it), for the benches and the tests that must see
 * a whole process (a crash, its memory): resolves once `/api/health` answers. The environment is the
 * caller's on top of this one's; the port and host are set here, the log is quiet and no web build is served.
 */
export async function startServerProcess(options: {
  port: number;
  env: Record<string, string | undefined>;
  /** What the child's stdout and stderr go to (its stdin is closed). Default: stdout ignored, stderr inherited. */
  stdio?: ['ignore', 'ignore' | 'pipe' | 'inherit', 'ignore' | 'pipe' | 'inherit'];
  timeoutSeconds?: number;
}): Promise<ChildProcess> {
  // SERVER_FROM_SOURCE=1 runs src/main.ts through tsx instead, to compare the two.
  const args = [
    ...SERVER_NODE_ARGS,
    ...(process.env.SERVER_FROM_SOURCE === '1' ? ['--import', 'tsx', 'src/main.ts'] : [compiledServer()]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: serverEnv({
      ...process.env,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      ...options.env,
      PORT: String(options.port),
    }),
    stdio: options.stdio ?? ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + (options.timeoutSeconds ?? 120) * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it answered`);
    const ok = await fetch(`http://127.0.0.1:${options.port}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer within ${options.timeoutSeconds ?? 120} s`);
}

/** Stops a server process and waits for it to exit (SIGTERM: the server closes its pools and database). */
export async function stopServerProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** A process's resident memory, from /proc (0 when it is gone). */
export function rssOf(pid: number | undefined): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
