/**
 * The mapping is linear in the message: the work per segment (frames looked at and closed) does not grow with the
 * message, for shapes built to make a stack machine deepen or search far. Counted, not timed, so it holds on a
 * loaded machine.
 */
import { parse, type Message } from '@portal/edifact';
import { describe, expect, it } from 'vitest';
import { mapMessageBody, type MappingWork } from '../src/edifact/map-message.ts';

const SHAPES: Record<string, string[]> = {
  'unmapped groups in a line': ['LOC+7+1'],
  'nested unmapped groups': ['TDT+20', 'LOC+11+X', 'DTM+133:20240101:102'],
  'unmapped groups, one after another': ['TDT+20', 'PAC+1', 'EQD+CN', 'SCC+1', 'LOC+1'],
  'unknown segments': ['ZZZ+1'],
  'out of place segments': ['QTY+21:1', 'GIN+BJ+1', 'UCD+12+1'],
  'parties with references and contacts': ['NAD+BY+5401234000012::9', 'RFF+VA:1', 'CTA+IC', 'COM+1:TE'],
  'packages with lines': ['CPS+1', 'PAC+1++201', 'PCI+33E', 'GIN+BJ+1', 'LIN+1', 'PCI+36E', 'GIN+BX+2'],
  'lines with every group': [
    'LIN+1',
    'PRI+AAA:1',
    'RFF+ON:1',
    'DTM+171:20240101:102',
    'TAX+7',
    'MOA+124:1',
    'ALC+A',
    'TAX+7',
    'MOA+124:1',
    'NAD+DP',
    'CTA+IC',
  ],
  'bad triggers': ['NAD', 'RFF', 'ALC+N', 'ERC', 'CPS'],
  'syntax report': ['UCF+1', 'UCM+1', 'UCS+1', 'UCD+12+1'],
  summaries: ['UNS+S', 'TAX+7', 'MOA+1:1', 'UNS+D', 'LIN+1'],
};

const messageOf = (body: string[], times: number): Message => {
  const segments = ['BGM+220+PO1+9', 'LIN+1', ...Array.from({ length: times }, () => body).flat()];
  const text = `UNH+1+ORDERS:D:96A:UN'${segments.map((s) => `${s}'`).join('')}UNT+${segments.length + 2}+1'`;
  const message = parse(text).interchanges[0]?.messages[0];
  if (!message) throw new Error('no message');
  return message;
};

const workPerSegment = (body: string[], times: number): number => {
  const message = messageOf(body, times);
  const work: MappingWork = { steps: 0 };
  mapMessageBody(message, { add: () => undefined }, work);
  return work.steps / message.segments.length;
};

describe('the mapping’s work per segment', () => {
  it.each(Object.entries(SHAPES))('%s: the same at N and 10·N', (_name, body) => {
    const small = workPerSegment(body, 200);
    const large = workPerSegment(body, 2000);
    expect(large).toBeLessThanOrEqual(small * 1.05);
    // The stack never gets deep: a few frames looked at per segment.
    expect(large).toBeLessThan(8);
  });
});
