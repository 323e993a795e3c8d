/**
 * Conformance: the level 1 findings of chosen samples of the third-party corpus (`../shared/samples/edifact`, never
 * copied here), stored as JSON in test/golden/; skipped when the corpus is not beside the clone. The project's own
 * fixtures hold the same checks on every `npm test` (test/fixtures.test.ts). Regenerate after an intended change with
 * `UPDATE_GOLDEN=1 npx vitest run --project edifact-conformance test/golden.conformance.test.ts`.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from '../src/parser.ts';
import { hasSamples, repoRoot } from './helpers.ts';

const goldenDir = new URL('./golden/', import.meta.url);

type Golden = { sample: string; interchanges: number; messages: string[]; findings: unknown[] };

const GOLDEN_SAMPLES = [
  'Chemaclass_edifact-parser__edifact-sample.edi',
  'ConnectingEurope_eInvoicing-EN16931__EDIFACT_EXAMPLE5.TXT',
  'EdiFabric_EDIFACT.NET__CorruptUnb.txt',
  'EdiFabric_EDIFACT.NET__DespatchAdvice.txt',
  'EdiFabric_EDIFACT.NET__MixedTransactions.txt',
  'SYN_ORDERS_D96A_missing_UNH.edi',
  'bots-edi_bots-plugins__0T0000000004.edi',
  'bots-edi_bots-plugins__1_orders02.edi',
  'hupe1980_edifact-rs__d96a_orders_malformed.edi',
  'indice-co_EDI.Net__edifact.ORDRSP.edi',
  'indice-co_EDI.Net__edifact.Paiement.Issue139.EDI',
  'jskrobak_underware.Edifact__D93A_ORDERS.txt',
  'nerdocs_pydifact__order.edi',
  'php-edifact_edifact__example_utf8.edi',
  'progrupa_edifact__invalid_message_missing_value.edi',
  'smooks_smooks-edi-cartridge__1_unedifact-msg-02.edi',
];

const snapshot = (samplePath: string): Golden => {
  const bytes = new Uint8Array(readFileSync(repoRoot + samplePath));
  const { interchanges, findings } = parse(bytes);
  const messages: string[] = [];
  for (const i of interchanges) {
    for (const g of i.groups) for (const m of g.messages) messages.push(`${m.reference} ${m.type} ${m.directory}`);
    for (const m of i.messages) messages.push(`${m.reference} ${m.type} ${m.directory}`);
  }
  return { sample: samplePath, interchanges: interchanges.length, messages, findings };
};

describe.skipIf(!hasSamples)('golden samples', () => {
  if (process.env.UPDATE_GOLDEN) {
    for (const name of GOLDEN_SAMPLES) {
      const golden = snapshot(`../shared/samples/edifact/${name}`);
      writeFileSync(new URL(`${name}.json`, goldenDir), JSON.stringify(golden, null, 2) + '\n');
    }
  }
  const files = readdirSync(goldenDir).filter((f) => f.endsWith('.json'));
  it('has a golden file per chosen sample', () => {
    for (const name of GOLDEN_SAMPLES) expect(existsSync(new URL(`${name}.json`, goldenDir)), name).toBe(true);
  });
  it.each(files)('%s', (file) => {
    const golden = JSON.parse(readFileSync(new URL(file, goldenDir), 'utf8')) as Golden;
    expect(snapshot(golden.sample)).toEqual(golden);
  });
});
