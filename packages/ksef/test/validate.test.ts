/** XSD validation with the shipped schemas: findings with their line, no network, no leak over many documents. */
import { existsSync, readFileSync } from 'node:fs';
import { diag } from 'libxml2-wasm';
import { describe, expect, it } from 'vitest';
import { validateFa3, validateUpo } from '../src/validate.ts';
import { buildFa3 } from '../src/write.ts';
import { invoices } from './fixtures.ts';

const valid = buildFa3(invoices.VAT);

describe('validateFa3', () => {
  it('names an unexpected element and its line', async () => {
    const bad = valid.replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>');
    const line = bad.split('\n').findIndex((l) => l.includes('<P_2x>')) + 1;
    const result = await validateFa3(bad);
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.line).toBe(line);
    expect(result.errors[0]?.message).toMatch(/P_2x': This element is not expected\. Expected is .*P_2/);
  });

  it('checks values against the base types (a NIP of the wrong shape)', async () => {
    const result = await validateFa3(valid.replace('<NIP>9999999999</NIP>', '<NIP>0999999999</NIP>'));
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.message).toMatch(/NIP/);
  });

  it('reports a document that is not well-formed as invalid rather than throwing', async () => {
    const result = await validateFa3('<Faktura><Fa></Faktura>');
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });

  it('does not load external entities', async () => {
    const xxe = valid
      .replace('<Faktura', '<!DOCTYPE Faktura [<!ENTITY x SYSTEM "file:///etc/hostname">]>\n<Faktura')
      .replace('<P_7>Widget</P_7>', '<P_7>&x;</P_7>');
    const result = await validateFa3(xxe);
    expect(result.valid).toBe(false);
    if (existsSync('/etc/hostname')) {
      expect(JSON.stringify(result)).not.toContain(readFileSync('/etc/hostname', 'utf8').trim());
    }
  });

  it('validates many documents with one compiled schema and disposes of every wasm object', async () => {
    const bad = valid.replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>');
    await validateFa3(valid); // compiles the schema, which is kept for the process
    diag.configure({ enabled: true });
    try {
      for (let i = 0; i < 200; i++) {
        const result = await validateFa3(i % 2 ? valid : bad);
        expect(result.valid).toBe(i % 2 === 1);
      }
      await validateFa3('<Faktura><Fa></Faktura>');
      // libxml2-wasm's diagnostics list every XmlDisposable created since enabling and not yet disposed of.
      expect(diag.report()).toEqual({});
    } finally {
      diag.configure({ enabled: false });
    }
  });

  it('validates against the UPO schema too', async () => {
    const result = await validateUpo(valid);
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.message).toMatch(/No matching global declaration|Faktura/);
  });
});
