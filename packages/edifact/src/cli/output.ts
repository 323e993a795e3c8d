/**
 * Output plumbing of the CLI: a sink that batches small writes and waits when the stream asks it to (so that a slow
 * reader of stdout holds the validation back instead of filling memory), and a spool that keeps text for later in
 * memory up to a limit and on a temporary file beyond it. Node only.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** Where the CLI writes: `out` may return a promise (the stream is full: wait for it to drain). */
export type Output = { out: (text: string) => void | Promise<void>; err: (text: string) => void };

/** process.stdout and process.stderr, waiting for `drain` when stdout's buffer is full. */
export const processOutput: Output = {
  out: (text) =>
    process.stdout.write(text) ? undefined : new Promise<void>((done) => process.stdout.once('drain', done)),
  err: (text) => void process.stderr.write(text),
};

const BATCH = 64 * 1024;

/** Batches writes into pieces of about 64 KB characters. `write` returns a promise only when it had to wait. */
export class Sink {
  private buffer = '';

  constructor(private readonly output: Output) {}

  write(text: string): void | Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= BATCH) return this.flush();
  }

  flush(): void | Promise<void> {
    if (this.buffer === '') return;
    const text = this.buffer;
    this.buffer = '';
    return this.output.out(text);
  }
}

/**
 * Text kept for later (the JSON findings, written after the messages), in memory up to `limit` characters and then
 * on a temporary file, so that memory does not grow with the input. `drain` writes it all to a sink and removes the
 * file.
 */
export class Spool {
  private chunks: string[] = [];
  private size = 0;
  private folder: string | undefined;
  private fd: number | undefined;

  constructor(private readonly limit = 4 * 1024 * 1024) {}

  append(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    if (this.size < (this.fd === undefined ? this.limit : BATCH * 16)) return;
    if (this.fd === undefined) {
      this.folder = mkdtempSync(join(tmpdir(), 'edifact-cli-'));
      this.fd = openSync(join(this.folder, 'spool'), 'w+');
    }
    writeSync(this.fd, this.chunks.join(''));
    this.chunks = [];
    this.size = 0;
  }

  async drain(sink: Sink): Promise<void> {
    try {
      if (this.fd !== undefined) {
        if (this.chunks.length > 0) writeSync(this.fd, this.chunks.join(''));
        this.chunks = [];
        const decoder = new StringDecoder('utf8');
        const buffer = Buffer.allocUnsafe(BATCH * 16);
        for (let position = 0; ;) {
          const read = readSync(this.fd, buffer, 0, buffer.length, position);
          if (read === 0) break;
          position += read;
          const wait = sink.write(decoder.write(buffer.subarray(0, read)));
          if (wait) await wait;
        }
        const rest = decoder.end();
        if (rest) await sink.write(rest);
      } else {
        for (const chunk of this.chunks) {
          const wait = sink.write(chunk);
          if (wait) await wait;
        }
      }
    } finally {
      this.close();
    }
  }

  /** Removes the temporary file (also when the run stops early). */
  close(): void {
    this.chunks = [];
    this.size = 0;
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    this.fd = undefined;
    this.folder = undefined;
  }
}
