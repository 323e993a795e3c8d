import v8 from 'node:v8';
import vm from 'node:vm';

// A collection before each sample, so that the figure is what is still held, not garbage not yet collected.
v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * The most Buffer/ArrayBuffer memory held at once (above what was held before) while `work` runs, sampled every
 * 100 ms after a full collection. Buffers are where a whole blob would sit if a store read it into memory.
 */
export async function peakBufferBytes(work: () => Promise<void>): Promise<number> {
  gc();
  const base = process.memoryUsage().arrayBuffers;
  let peak = 0;
  const sample = () => {
    gc();
    peak = Math.max(peak, process.memoryUsage().arrayBuffers - base);
  };
  const timer = setInterval(sample, 100);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  sample();
  return peak;
}

/** A body of `total` bytes produced 64 KiB at a time, never held whole by the sender. */
export async function* generatedBody(total: number): AsyncGenerator<Buffer> {
  const piece = 64 * 1024;
  for (let sent = 0; sent < total; sent += piece) yield Buffer.alloc(Math.min(piece, total - sent), sent % 251);
}
