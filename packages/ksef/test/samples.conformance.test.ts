/**
 * The Ministry's 26 FA(3) samples and the TEST UPOs (../shared/specs/ksef, not copied into the repository): every
 * sample parses and is XSD-valid as given; parse → build of each is XSD-valid again and keeps the number, the dates,
 * the parties' NIPs, the line count and the totals; every KSeF number in the UPOs passes the CRC-8. Skipped, with one
 * line from the global setup, when the files are not beside the clone.
 */
import { describe, expect, it } from 'vitest';
import { fa3ToCanonical } from '../src/canonical.ts';
import { isValidKsefNumber } from '../src/ksef-number.ts';
import { parseFa3 } from '../src/parse.ts';
import { validateFa3, validateUpo } from '../src/validate.ts';
import { findUnmodelled } from '../src/unmodelled.ts';
import { buildFa3 } from '../src/write.ts';
import { CanonicalDocumentSchema } from '@portal/documents';
import { hasKsefSpecs, listFa3Samples, listUpoExamples, readFa3Sample, readUpoExample } from './shared.ts';

const samples = listFa3Samples();
const upos = listUpoExamples();

describe.skipIf(!hasKsefSpecs)('Ministry FA(3) samples', () => {
  it('are all there: 26, covering the seven kinds', () => {
    expect(samples).toHaveLength(26);
    const kinds = new Set(samples.map((name) => parseFa3(readFa3Sample(name)).kind));
    expect([...kinds].sort()).toEqual(['KOR', 'KOR_ROZ', 'KOR_ZAL', 'ROZ', 'UPR', 'VAT', 'ZAL']);
  });

  it.each(samples)('%s is XSD-valid as given', async (name) => {
    const result = await validateFa3(readFa3Sample(name));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each(samples)('%s parses, and parse → build is XSD-valid and keeps its data', async (name) => {
    const source = parseFa3(readFa3Sample(name));
    expect(source.kind).toBe(/przyklad-\d+-(\w+)\.xml/.exec(name)?.[1]);
    const xml = buildFa3(source);
    const result = await validateFa3(xml);
    expect(result.errors).toEqual([]);
    const back = parseFa3(xml);
    expect(back.number).toBe(source.number);
    expect([back.issueDate, back.saleDate, back.salePeriod]).toEqual([
      source.issueDate,
      source.saleDate,
      source.salePeriod,
    ]);
    expect(back.seller.nip).toBe(source.seller.nip);
    expect(back.buyer.id).toEqual(source.buyer.id);
    expect(back.thirdParties.map((p) => p.id)).toEqual(source.thirdParties.map((p) => p.id));
    expect(back.lines).toHaveLength(source.lines.length);
    expect(back.summary).toEqual(source.summary);
    expect(back.summary?.P_15).toBeDefined();
    expect(back).toEqual(source);
  });

  it.each(samples)('%s loses only the transport details and attachments the model leaves out', (name) => {
    const lost = findUnmodelled(readFa3Sample(name));
    expect(lost.filter((path) => !/^Faktura\/(Fa\/WarunkiTransakcji\/Transport|Zalacznik)(\/|$)/.test(path))).toEqual(
      [],
    );
  });

  it.each(samples)('%s maps to a canonical body', (name) => {
    const inv = parseFa3(readFa3Sample(name));
    const doc = fa3ToCanonical(inv);
    expect(CanonicalDocumentSchema.parse(doc)).toEqual(doc);
    expect(doc.totals.find((t) => t.qualifier === '77')?.value).toBe(inv.summary?.P_15);
    expect(doc.parties.find((p) => p.role === 'SU')?.taxId).toBe(inv.seller.nip);
  });
});

describe.skipIf(!hasKsefSpecs)('UPO examples', () => {
  it('are there', () => {
    expect(upos.length).toBeGreaterThan(0);
  });

  it.each(upos)('%s: every KSeF number passes the CRC-8', (name) => {
    const numbers = [...readUpoExample(name).matchAll(/<NumerKSeFDokumentu>([^<]+)</g)].map((m) => m[1]);
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(isValidKsefNumber(n ?? ''), n).toBe(true);
  });

  it.each(upos)('%s fails the UPO schema only on the TEST receiver name', async (name) => {
    // PROVENANCE.md: the TEST UPOs name "Ministerstwo Finansów - środowisko testowe (TE)" where the XSD fixes the value.
    const result = await validateUpo(readUpoExample(name));
    expect(result.valid).toBe(false);
    expect(
      result.errors.every((e) => /NazwaPodmiotuPrzyjmujacego/.test(e.message)),
      JSON.stringify(result.errors),
    ).toBe(true);
    const fixed = readUpoExample(name).replace(
      /(<NazwaPodmiotuPrzyjmujacego>)[^<]*(<\/NazwaPodmiotuPrzyjmujacego>)/,
      '$1Ministerstwo Finansów$2',
    );
    expect((await validateUpo(fixed)).errors).toEqual([]);
  });
});
