/**
 * Party roles of an e-TTN and the portal roles that grant them (description, section 6; codes from CODES.md).
 *
 * A portal role `ETTN_<code>` lets its holder act as party `<code>`. Sub-roles fold into their parent for every
 * check: the next carrier (CH), the driver (DR) and the new driver (DRS, seen in the sources) act as the carrier
 * (CA); the new consignee of a consignee-change act (UC) acts as the consignee (CN).
 */

/** The party roles a portal role can grant (the description's list). */
export const PARTY_ROLES = ['CZ', 'CA', 'CH', 'DR', 'CN', 'OB', 'FW', 'WD', 'WH', 'COP', 'IO', 'OV'] as const;
export type PartyRole = (typeof PARTY_ROLES)[number];

/** Every role code a document may carry (adds DRS, UC and the unexplained AF and AB of the samples). */
export const PARTY_ROLE_CODES: readonly string[] = [...PARTY_ROLES, 'DRS', 'UC', 'AF', 'AB'];

/** The parent a sub-role folds into. */
export const PARENT_ROLE: Readonly<Record<string, string>> = { CH: 'CA', DR: 'CA', DRS: 'CA', UC: 'CN' };

/** The role a code counts as in checks: its parent when it has one. */
export const foldRole = (code: string): string => PARENT_ROLE[code] ?? code;

export const ETTN_ROLE_PREFIX = 'ETTN_';

/** The portal role granting a party role: `ETTN_CZ`. */
export const portalRoleOf = (role: PartyRole): string => `${ETTN_ROLE_PREFIX}${role}`;

/** The party roles (folded) that a user's portal roles grant; roles without the prefix are ignored. */
export const partyRolesOf = (portalRoles: readonly string[]): Set<string> => {
  const out = new Set<string>();
  for (const role of portalRoles) {
    if (!role.startsWith(ETTN_ROLE_PREFIX)) continue;
    const code = role.slice(ETTN_ROLE_PREFIX.length);
    if ((PARTY_ROLE_CODES as readonly string[]).includes(code)) out.add(foldRole(code));
  }
  return out;
};

/** The system itself (the registry's events: cancellation, acceptance of a step). Not a portal role. */
export const REGISTRY_ACTOR = 'REGISTRY';

/**
 * Whether an actor may act as a party role. `actorRoles` are portal roles (`ETTN_DR`) or, for the registry,
 * `REGISTRY`.
 */
export const canActAs = (actorRoles: readonly string[], role: string): boolean =>
  role === REGISTRY_ACTOR ? actorRoles.includes(REGISTRY_ACTOR) : partyRolesOf(actorRoles).has(foldRole(role));
