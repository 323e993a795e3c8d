/**
 * Conformance: golden tests on samples of the third-party corpus (`../shared/samples/edifact`, never copied here):
 * the specification and map findings of each chosen sample, compared with the JSON in golden/; skipped when the
 * corpus is not beside the clone (test/fixtures.test.ts holds the same levels on the project's own fixtures).
 * `UPDATE_GOLDEN=1` rewrites them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadGuides } from '../../src/map/node/load-guides.ts';
import { validateMap } from '../../src/map/map-level.ts';
import type { Finding } from '../../src/model.ts';
import { parse } from '../../src/parser.ts';
import { validateSpecification } from '../../src/spec/specification.ts';
import { getTestStore, hasShared, samplesPath } from '../directory/helpers.ts';

const SAMPLES = [
  'EdiFabric_EDIFACT.NET__PurchaseOrder.txt',
  'EdiFabric_EDIFACT.NET__PurchaseOrderCustom1.txt',
  'EdiFabric_EDIFACT.NET__PurchaseOrderInvalid.txt',
  'EdiFabric_EDIFACT.NET__DespatchAdvice.txt',
  'EdiFabric_EDIFACT.NET__Invoice.txt',
  'EdiFabric_EDIFACT.NET__PriceCatalogue.txt',
  'hupe1980_edifact-rs__d96a_orders_malformed.edi',
  'hupe1980_edifact-rs__d01b_invoic_malformed.edi',
  'hupe1980_edifact-rs__d01b_orders_conforming.edi',
  'SYN_mixed_unsupported_type_and_version.edi',
  'bots-edi_bots-plugins__invoic1.edi',
  'bots-edi_bots-plugins__dutchic_aperak1.edi',
  'nerdocs_pydifact__order.edi',
];

const goldenDir = fileURLToPath(new URL('./golden/', import.meta.url));

const compact = (f: Finding) => ({
  code: f.code,
  severity: f.severity,
  level: f.level,
  path: f.path,
  line: f.line,
  ...(f.fieldName === undefined ? {} : { fieldName: f.fieldName }),
  ...(f.actual === undefined ? {} : { actual: f.actual }),
  ...(f.expected === undefined ? {} : { expected: f.expected }),
  version: f.version,
  messageReference: f.messageReference,
});

describe.skipIf(!hasShared)('golden findings on the shared samples', () => {
  it.each(SAMPLES)('%s', async (name) => {
    const store = await getTestStore();
    const guides = await loadGuides();
    const { interchanges } = parse(readFileSync(join(samplesPath, name)));
    const findings: ReturnType<typeof compact>[] = [];
    for (const interchange of interchanges) {
      const messages = [...interchange.messages, ...interchange.groups.flatMap((group) => group.messages)];
      for (const message of messages) {
        const directory = await store.load(message.directory);
        const spec = validateSpecification(message, directory, {
          decimal: interchange.delimiters.decimal,
          syntaxVersion: interchange.syntaxVersion,
        });
        findings.push(...spec.map(compact));
        const guide = guides.find(message.type, message.directory, message.association, message.agency);
        if (guide && directory && !spec.some((f) => f.code === 'EDI_UNSUPPORTED_MESSAGE')) {
          findings.push(...validateMap(message, guide, directory).map(compact));
        }
      }
    }
    const file = join(goldenDir, `${name}.json`);
    if (process.env.UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, `${JSON.stringify(findings, null, 2)}\n`);
    expect(findings).toEqual(JSON.parse(readFileSync(file, 'utf8')) as unknown);
  });
});
