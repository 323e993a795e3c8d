/** The validator: the check digits, and findings that name the table's field, the path and the rule. */
import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, isValidEdrpou, isValidGln, isValidRnokpp } from '../src/checksums.ts';
import { ETTN_V3_FIELDS } from '../src/fields.generated.ts';
import type { EttnNote } from '../src/model.ts';
import { validateEttn, type Finding } from '../src/validate.ts';
import { demoNote } from './demo-note.ts';

const C = 'eCMR/SpecifiedSupplyChainConsignment';
const brief = (findings: Finding[]) => findings.map((f) => `${f.code} ${f.field} ${f.path}`);

describe('check digits', () => {
  it('EDRPOU: both weight sets, and the second pass when the first gives 10', () => {
    // 32855961 (Demo Transport) lies between 30 and 60 million: weights 7,1,2,3,4,5,6.
    for (const ok of ['32855961', '14360570', '00032129', '12345678']) expect(isValidEdrpou(ok), ok).toBe(true);
    for (const bad of ['32855962', '14360571', '1436057', '143605700', '1436057a'])
      expect(isValidEdrpou(bad), bad).toBe(false);
    // Body 0000003: the first pass gives 7·3 = 21 ≡ 10 (mod 11), so the weights rise by 2: 9·3 = 27 ≡ 5.
    expect(isValidEdrpou('00000035')).toBe(true);
    expect(isValidEdrpou('00000030')).toBe(false);
    const oneCheckDigitPerBody = Array.from({ length: 100 }, (_, i) => `000000${String(i).padStart(2, '0')}`).filter(
      isValidEdrpou,
    );
    expect(oneCheckDigitPerBody.length).toBe(10); // exactly one valid check digit per body
  });

  it('RNOKPP: ten digits, ((−1,5,7,9,4,6,10,5,7)·d mod 11) mod 10', () => {
    for (const ok of ['3184710691', '1111111101']) expect(isValidRnokpp(ok), ok).toBe(true);
    for (const bad of ['3184710692', '9999999999', '318471069', '444444444444'])
      expect(isValidRnokpp(bad), bad).toBe(false);
    for (let body = 0; body < 50; body++) {
      const b = String(314159265 + body);
      expect([...'0123456789'].filter((d) => isValidRnokpp(b + d))).toHaveLength(1);
    }
  });

  it('GLN: GS1 mod-10 check digit', () => {
    expect(gs1CheckDigit('986406574132')).toBe(9);
    expect(isValidGln('9864065741329')).toBe(true);
    expect(isValidGln('9864065741328')).toBe(false);
    expect(isValidGln('986406574132')).toBe(false);
  });
});

describe('findings', () => {
  const mutate = (f: (n: EttnNote) => void): Finding[] => {
    const note = demoNote();
    f(note);
    return validateEttn(note);
  };

  it('names the field number, the path and the rule, with parameters and no display text', () => {
    const findings = mutate((n) => {
      n.consignment.consignor!.id = '14360571';
    });
    expect(findings).toEqual([
      {
        path: `${C}/ram:ConsignorTradeParty/ram:ID`,
        field: '3.4',
        code: 'edrpou_checksum',
        params: { value: '14360571' },
        message: expect.stringContaining('consignor'),
      },
    ]);
  });

  it('mandatory fields of the table', () => {
    expect(
      brief(
        mutate((n) => {
          delete n.header.number;
          delete n.consignment.grossWeight;
          delete n.consignment.loading;
          n.consignment.items = [];
          n.consignment.notified = [];
          delete n.consignment.transportTypeCode;
        }),
      ),
    ).toEqual([
      'required 2.1 eCMR/ExchangedDocument/ram:ID',
      `required 3.1 ${C}/ram:GrossWeightMeasure`,
      `required 3.8 ${C}/ram:NotifiedTradeParty[ram:RoleCode=OB]`,
      `required 3.11 ${C}/ram:CarrierAcceptanceLogisticsLocation`,
      `required 3.19 ${C}/ram:IncludedSupplyChainConsignmentItem`,
      `required 3.24 ${C}/ram:DeliveryInstructions/ram:DescriptionCode`,
    ]);
  });

  it('types, lengths and code lists', () => {
    expect(
      brief(
        mutate((n) => {
          n.header.issueDateTime = '27.11.2026';
          n.consignment.amount = '48 000';
          n.consignment.currency = 'EUR';
          n.consignment.loading!.typeCode = '7';
          n.consignment.items[0]!.uktzed = '04';
          n.consignment.equipment[1]!.characteristicCode = '21';
          n.consignment.carrier!.roleCode = 'CN';
        }),
      ),
    ).toEqual([
      'type 2.2.1 eCMR/ExchangedDocument/ram:IssueDateTime/udt:DateTime',
      `type 3.2 ${C}/ram:AssociatedInvoiceAmount`,
      `code_list 3.2 ${C}/ram:AssociatedInvoiceAmount/@currencyID`,
      `code_list 3.6 ${C}/ram:CarrierTradeParty/ram:RoleCode`,
      `code_list 3.11 ${C}/ram:CarrierAcceptanceLogisticsLocation/ram:TypeCode`,
      `length 3.19 ${C}/ram:IncludedSupplyChainConsignmentItem[1]/ram:GlobalID`,
      `code_list 3.21 ${C}/ram:UtilizedLogisticsTransportEquipment[2]/ram:CharacteristicCode`,
    ]);
  });

  it('RNOKPP and GLN checks, the driver licence, the truck notes', () => {
    expect(
      brief(
        mutate((n) => {
          n.consignment.carrier!.taxId = '3184710692';
          n.consignment.carrier!.registrations = [
            { id: 'AB12345' },
            { id: '9864065745708', typeCode: 'TRADEPARTY_GLN' },
          ];
          n.consignment.unloading!.gln = '9864065741023';
          n.consignment.equipment[0]!.notes = [];
        }),
      ),
    ).toEqual([
      `rnokpp_checksum 3.6 ${C}/ram:CarrierTradeParty/ram:SpecifiedTaxRegistration/ram:ID`,
      `gln_check_digit 3.6 ${C}/ram:CarrierTradeParty/ram:SpecifiedGovernmentRegistration[2]/ram:ID`,
      `format 3.6 ${C}/ram:CarrierTradeParty/ram:SpecifiedGovernmentRegistration[not(ram:TypeCode)]/ram:ID`,
      `gln_check_digit 3.12 ${C}/ram:ConsigneeReceiptLogisticsLocation/ram:PhysicalGeographicalCoordinate/ram:SystemID`,
      `required 3.20 ${C}/ram:UtilizedLogisticsTransportEquipment[1]/ram:ApplicableNote[ram:ContentCode=BRAND]`,
      `required 3.20 ${C}/ram:UtilizedLogisticsTransportEquipment[1]/ram:ApplicableNote[ram:ContentCode=MODEL]`,
    ]);
  });

  it('the previous-version reference is absent in transaction 0 and mandatory after (3.25, "-/M")', () => {
    expect(brief(mutate((n) => (n.header.transactionId = '1')))).toEqual([
      `required 3.25 ${C}/ram:PreviousAdministrativeReferencedDocument`,
    ]);
    expect(
      mutate((n) => {
        n.header.transactionId = '1';
        n.consignment.previous = { typeCode: '730', id: '0', file: { id: 'd-1', uri: 'https://x/d-1', size: '2048' } };
      }),
    ).toEqual([]);
  });

  it('signatures in the storage: role code list, base64, signer RNOKPP', () => {
    expect(
      brief(mutate((n) => (n.signatures = [{ roleCode: 'XX', signature: 'not base64!', taxId: '9999999999' }]))),
    ).toEqual([
      'code_list II UaSignatureStorage/Signature[1]/SigningPartyRoleCode',
      'format II UaSignatureStorage/Signature[1]/PartySignature',
      'rnokpp_checksum II UaSignatureStorage/Signature[1]/SpecifiedTaxRegistration/ram:ID',
    ]);
  });

  it('every field a finding names is a row of the generated table', () => {
    const numbers = new Set<string>(ETTN_V3_FIELDS.map((f) => f.no));
    const findings = mutate((n) => {
      n.consignment = { notified: [], referencedDocuments: [], items: [], equipment: [] };
      n.header = { transactionId: 'x', notes: [] };
    });
    expect(findings.length).toBeGreaterThan(10);
    for (const f of findings) expect(f.field === 'TradeParty' || numbers.has(f.field), f.field).toBe(true);
  });
});
