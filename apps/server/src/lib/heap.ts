import { setFlagsFromString } from 'node:v8';

/**
 * V8 grows a heap by a factor of up to 4 when it collects garbage, and an ingest makes garbage fast (each batch's
 * JSON, rows and results): the main thread's heap reached 190 to 270 MB of which a third was live. A growth factor
 * of 1.1 keeps it near what is live, at no cost we could measure (decision 0030); no hard limit is set, since
 * reaching one would end the process for every user. It holds for the CPU pool's threads too, started later.
 */
export function keepHeapsSmall(): void {
  setFlagsFromString('--heap-growing-percent=10');
}
