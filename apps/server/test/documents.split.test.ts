import { describe, expect, it } from 'vitest';
import { validateStream, type ValidationEvent } from '@portal/edifact';
import { createSplitter, type Piece, type SplitOptions } from '../src/features/documents/documents.split.ts';

/** Three interchanges of 7 messages, one with its own service characters (UNA), texts with released terminators. */
function input(): string {
  const message = (ref: number, t: string, s: string, r: string) => [
    `UNH${t}${ref}${t}ORDERS:D:96A:UN:EAN008`,
    `BGM${t}220${t}N${ref}${r}${s}X${t}9`,
    `FTX${t}ZZZ${t}${r}${s}UNH${t}TEXT UN`,
    `UNT${t}4${t}${ref}`,
  ];
  const block = (una: string, t: string, s: string, r: string, control: string) => {
    const segments = [`UNB${t}UNOC:3${t}4012345000016:14${t}5901234000017:14${t}261116:1000${t}${control}`];
    for (let i = 1; i <= 7; i++) segments.push(...message(i, t, s, r));
    segments.push(`UNZ${t}7${t}${control}`);
    return una + segments.join(`${s}\r\n`) + s;
  };
  return [
    block("UNA:+.? '", '+', "'", '?', 'A1'),
    block('UNA:*.# !', '*', '!', '#', 'B2'),
    block('', '+', "'", '?', 'C3'),
  ].join('\n');
}

function split(bytes: Uint8Array, chunk: number, options: SplitOptions): Piece[] {
  const splitter = createSplitter(options);
  const pieces: Piece[] = [];
  for (let at = 0; at < bytes.length; at += chunk) pieces.push(...splitter.push(bytes.subarray(at, at + chunk)));
  pieces.push(...splitter.end());
  return pieces;
}

type Seen = { offset: number; line: number; reference: string; findings: string[] };
async function messages(events: AsyncIterable<ValidationEvent>): Promise<{ seen: Seen[]; outside: string[] }> {
  const seen: Seen[] = [];
  const outside: string[] = [];
  for await (const e of events) {
    if (e.type === 'message') {
      seen.push({
        offset: e.message.header.position.offset,
        line: e.message.header.position.line,
        reference: e.message.reference,
        findings: e.findings.map((f) => `${f.code}@${f.line}`),
      });
    } else if (e.type === 'finding') outside.push(`${e.finding.code}@${e.finding.line}`);
  }
  return { seen, outside };
}

describe('the ingest split', () => {
  const bytes = new TextEncoder().encode(input());

  it('cuts the same pieces at message starts whatever the chunks, and loses no byte', () => {
    const options = { batchMessages: 3, batchBytes: 1 << 20 };
    const whole = split(bytes, bytes.length, options);
    expect(whole.length).toBeGreaterThan(5);
    for (const chunk of [1, 7, 64, 1000]) {
      expect(split(bytes, chunk, options)).toEqual(whole);
    }
    expect(Buffer.concat(whole.map((p) => p.body)).equals(Buffer.from(bytes))).toBe(true);
    expect(whole.flatMap((p) => p.starts)).toHaveLength(21);
    expect(whole.map((p) => p.firstIndex)).toEqual(
      whole.map((_, i) => whole.slice(0, i).reduce((n, p) => n + p.starts.length, 0)),
    );
    expect(whole.at(-1)!.last).toBe(true);
  });

  it('gives each piece what the engine needs to read it as part of the whole file', async () => {
    const expected = await messages(validateStream([bytes]));
    const pieces = split(bytes, 100, { batchMessages: 2, batchBytes: 1 << 20 });
    const seen: Seen[] = [];
    const outside: string[] = [];
    for (const p of pieces) {
      const single = p.offset === 0 && p.last;
      const resume = single
        ? undefined
        : {
            header: p.header,
            offset: p.offset,
            line: p.line,
            lineStart: p.lineStart,
            messages: p.messagesBefore,
            last: p.last,
          };
      const got = await messages(validateStream([p.body], {}, resume));
      expect(got.seen.map((m) => m.offset)).toEqual(p.starts);
      seen.push(...got.seen);
      outside.push(...got.outside);
    }
    expect(seen).toEqual(expected.seen);
    // Whitespace between segments is said again by each piece (the ingest keeps it once per file); nothing else.
    const other = (list: string[]) => list.filter((f) => !f.startsWith('EDI_WHITESPACE_BETWEEN_SEGMENTS'));
    expect(other(outside)).toEqual(other(expected.outside));
    expect(outside[0]).toBe(expected.outside[0]);
  });

  it('starts at the message the progress marker names', () => {
    const all = split(bytes, 50, { batchMessages: 3, batchBytes: 1 << 20 }).flatMap((p) => p.starts);
    const resumed = split(bytes, 50, { batchMessages: 3, batchBytes: 1 << 20, skip: 10 });
    expect(resumed[0]!.firstIndex).toBe(10);
    expect(resumed.flatMap((p) => p.starts)).toEqual(all.slice(10));
    expect(() => split(bytes, 50, { batchMessages: 3, batchBytes: 1 << 20, skip: 99 })).toThrow(/past the file/);
  });

  it('finds every interchange header in a scan that keeps one chunk', () => {
    const headers: string[] = [];
    split(bytes, 13, {
      batchMessages: Infinity,
      batchBytes: Infinity,
      scanOnly: true,
      onHeader: (h) => headers.push(new TextDecoder().decode(h).replace(/\s+/g, ' ')),
    });
    expect(headers.map((h) => h.slice(0, 4) + h.slice(-4))).toEqual(["UNA:+A1'", 'UNA:*B2!', "UNB++C3'"]);
  });
});
