/**
 * The model: what the portal writes (a note built from the typed model) reads back to the same model, validates,
 * and writes the same bytes again; acts and notes are told apart by their root.
 */
import { describe, expect, it } from 'vitest';
import {
  actGuideline,
  actTypeOfGuideline,
  ACT_TYPES,
  buildNoteElement,
  noteDocument,
  readEttn,
  withSignatures,
  writeEttn,
} from '../src/model.ts';
import { validateEttn } from '../src/validate.ts';
import { demoNote } from './demo-note.ts';

describe('a note the portal writes', () => {
  it('reads back to the same model, and writes the same text again', () => {
    const note = demoNote();
    const text = writeEttn(noteDocument(note));
    const read = readEttn(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.document.model).toEqual(note);
    expect(read.document.root).toEqual(buildNoteElement(note));
    expect(writeEttn(read.document)).toBe(text);
  });

  it('validates with no finding', () => {
    expect(validateEttn(noteDocument(demoNote()).model)).toEqual([]);
    const read = readEttn(writeEttn(noteDocument(demoNote())));
    expect(read.ok && validateEttn(read.document.model)).toEqual([]);
  });

  it('escapes what needs escaping (the consignor is "Demo Supplier & Co <TOB>")', () => {
    const text = writeEttn(noteDocument(demoNote()));
    expect(text).toContain('Demo Supplier &amp; Co &lt;TOB&gt;');
  });

  it('keeps the signature storage when signatures are added, and reads them', () => {
    const doc = withSignatures(noteDocument(demoNote()), [
      { roleCode: 'CZ', signature: 'AAAA', name: 'Петро', taxId: '3184710691' },
    ]);
    const read = readEttn(writeEttn(doc));
    expect(read.ok && read.document.model.signatures).toEqual([
      { roleCode: 'CZ', signature: 'AAAA', name: 'Петро', taxId: '3184710691' },
    ]);
  });
});

describe('reading', () => {
  it('refuses another root with a stable code, and bad XML with the XML code', () => {
    expect(readEttn('<TRANSPORTATIONORDER/>')).toMatchObject({ ok: false, error: { code: 'ettn.unknown_root' } });
    expect(readEttn('<UAECMR>')).toMatchObject({ ok: false, error: { code: 'xml.malformed' } });
    expect(readEttn('<UAECMR/>')).toMatchObject({ ok: false, error: { code: 'ettn.unknown_root' } });
  });

  it('reads an act: its type from the guideline URN, its back references and signers', () => {
    const xml = `<UAECMR_ACT xmlns:ram="urn:ram"><ACT>
      <ExchangedDocumentContext><ram:SpecifiedTransactionID>1</ram:SpecifiedTransactionID>
        <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${actGuideline('StopAct')}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
      </ExchangedDocumentContext>
      <StopActPayload><PreviousAdministrativeReferencedDocument><ram:TypeCode>730</ram:TypeCode><ram:ID>abc</ram:ID></PreviousAdministrativeReferencedDocument>
        <CarrierTradeParty><ram:ID schemeAgencyID="ЄДРПОУ">32855961</ram:ID><ram:RoleCode>CA</ram:RoleCode></CarrierTradeParty></StopActPayload>
      <CertifyingPartyPayload><CertifyingTradeParty><ram:RoleCode>OB</ram:RoleCode></CertifyingTradeParty></CertifyingPartyPayload>
    </ACT></UAECMR_ACT>`;
    const read = readEttn(xml);
    expect(read.ok).toBe(true);
    if (!read.ok || read.document.model.kind !== 'act') return;
    const act = read.document.model;
    expect(act.actType).toBe('StopAct');
    expect(act.payloadName).toBe('StopActPayload');
    expect(act.references).toEqual([{ typeCode: '730', id: 'abc' }]);
    expect(act.parties.map((p) => p.roleCode)).toEqual(['CA']);
    expect(act.certifyingParties.map((p) => p.roleCode)).toEqual(['OB']);
  });

  it('names the nine acts by their URNs both ways', () => {
    for (const type of ACT_TYPES) expect(actTypeOfGuideline(actGuideline(type))).toBe(type);
    expect(actGuideline('StoragePickUpAct')).toBe('urn:ua:e-transport.gov.ua:act:01:storage_pickup:001');
    expect(actTypeOfGuideline('urn:ua:e-transport.gov.ua:act:01:unknown:001')).toBeUndefined();
  });
});
