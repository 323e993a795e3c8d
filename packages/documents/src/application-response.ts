/**
 * The canonical body of the APERAK a receiver answers a document with (issue 12, part 4): accepted (BGM 1225 29,
 * accepted without amendment) or rejected (27, not accepted) with the reason in one ERC group. Pure; the server
 * writes it with `writeEancomMessage` and stores it through the outbox upload.
 */
import type { CanonicalDocument, DocumentKind } from './canonical.ts';
import { APERAK_REFERENCE_QUALIFIERS } from './edifact/write-message.ts';

/** BGM 1225 of an answer (UNCL 1225): 29 accepted without amendment, 27 not accepted. */
export const APPLICATION_RESPONSE_FUNCTIONS = { accept: '29', reject: '27' } as const;
export type ApplicationDecision = keyof typeof APPLICATION_RESPONSE_FUNCTIONS;

/**
 * ERC C901 9321 of a rejection: EANCOM leaves the code to the partners (an..8, user codes); a rejection a person
 * decided carries this one, and its reason in the FTX AAO under it.
 */
export const APPLICATION_REJECTION_CODE = 'REJECTED';

export type ApplicationResponseInput = {
  decision: ApplicationDecision;
  /** The reason of a rejection (written in FTX AAO); ignored for an acceptance. */
  reason?: string | undefined;
  /** BGM 1004: the APERAK's own number. */
  number: string;
  /** DTM 137, the day the answer is made: `2024-01-15`. */
  issuedOn: string;
  /** The document answered: its kind (the RFF qualifier), number and, when known, its day (RFF's DTM 171). */
  answered: { kind: DocumentKind; number: string; date?: string | undefined };
  /** NAD MS: the GLN of the company answering. */
  sender: string;
  /** NAD MR: the GLN of the company that sent the document answered. */
  recipient: string;
};

const day = (qualifier: string, value: string) => ({ qualifier, type: 'date' as const, value, format: '102' });

/** The APERAK's body; undefined when the kind answered has no RFF qualifier in EANCOM's APERAK. */
export function applicationResponse(input: ApplicationResponseInput): CanonicalDocument | undefined {
  const qualifier = APERAK_REFERENCE_QUALIFIERS[input.answered.kind];
  if (!qualifier) return undefined;
  const reason = input.reason?.trim();
  return {
    kind: 'application_error',
    header: {
      number: input.number,
      documentNameCode: '305',
      functionCode: APPLICATION_RESPONSE_FUNCTIONS[input.decision],
      dates: [day('137', input.issuedOn)],
      texts: [],
    },
    references: [
      {
        qualifier,
        value: input.answered.number,
        ...(input.answered.date ? { dates: [day('171', input.answered.date)] } : {}),
      },
    ],
    parties: [
      { role: 'MS', gln: input.sender },
      { role: 'MR', gln: input.recipient },
    ],
    paymentTerms: [],
    lines: [],
    allowances: [],
    taxes: [],
    totals: [],
    packages: [],
    errors:
      input.decision === 'reject' ? [{ code: APPLICATION_REJECTION_CODE, ...(reason ? { text: reason } : {}) }] : [],
  };
}
