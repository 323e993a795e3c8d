import { ETTN_PARTY_ROLE_CODES, type ETTN_SUPPORTING_DOCUMENT_TYPES } from '@portal/contracts';

export type EttnPartyRole = (typeof ETTN_PARTY_ROLE_CODES)[number];
export type EttnSupportingDocumentType = (typeof ETTN_SUPPORTING_DOCUMENT_TYPES)[number];

/** The portal role of a consignor: who may create (compose or upload) a note. */
export const ETTN_CONSIGNOR_ROLE = 'ETTN_CZ';

/** Sub-roles act for their parent (description: CH, DR and DRS under the carrier, UC for the consignee). */
const PARENT: Readonly<Record<string, string>> = { CH: 'CA', DR: 'CA', DRS: 'CA', UC: 'CN' };

/** The role a code counts as in checks: its parent when it has one (@portal/ettn's foldRole). */
export const foldRole = (role: string): string => PARENT[role] ?? role;

export const isPartyRole = (value: string): value is EttnPartyRole =>
  (ETTN_PARTY_ROLE_CODES as readonly string[]).includes(value);

/**
 * The first of the company's roles on a note that counts as one of `wanted` (sub-roles folded), as the role to sign
 * with; none when the company holds none of them.
 */
export function findMyRole(myRoles: readonly string[], wanted: readonly string[]): EttnPartyRole | undefined {
  const folded = new Set(wanted.map(foldRole));
  return myRoles.filter(isPartyRole).find((role) => folded.has(foldRole(role)));
}
