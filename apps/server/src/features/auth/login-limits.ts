/**
 * How failed logins slow down and lock (docs/decisions/0009-lockout-per-account-and-address.md), after Keycloak's
 * brute force detection (a wait that grows with each failure, a temporary lock) and OWASP's Authentication cheat
 * sheet (count per account and per address, lock only with an unlock path for the owner).
 */

/** Failures of one account from one address that answer at once; from then on each failure adds a wait. */
export const PAIR_FREE_FAILURES = 5;
/** The first wait, doubled by each further failure of the pair, up to the longest. */
export const PAIR_WAIT_INCREMENT_SECONDS = 60;
export const PAIR_MAX_WAIT_SECONDS = 15 * 60;
/** A pair's failures count for this long (Keycloak's "failure reset time"), unless a success or an unlock ends them. */
export const PAIR_WINDOW_SECONDS = 12 * 60 * 60;

/**
 * Failures of one account from all addresses within the window that lock it, for everyone, until the window passes
 * or the owner follows the e-mailed unlock link. One address cannot reach it (its waits allow about a dozen failures
 * an hour); many addresses guessing one password can.
 */
export const ACCOUNT_LOCK_FAILURES = 20;
export const ACCOUNT_WINDOW_SECONDS = 60 * 60;

/**
 * Failures from one address across all accounts within the window (credential stuffing) after which that address
 * may no longer try accounts it has not signed in to successfully before; other addresses are never affected.
 */
export const ADDRESS_CEILING_FAILURES = 50;
export const ADDRESS_WINDOW_SECONDS = 60 * 60;
/** How long a success from an address makes it a known one for the account (exempt from the address ceiling). */
export const KNOWN_ADDRESS_SECONDS = 30 * 24 * 60 * 60;

/** The unlock link's life. */
export const UNLOCK_TTL_SECONDS = 24 * 60 * 60;

/** Seconds a pair must wait after its last failure, given how many failures it has: 0, then 60, 120, … 900. */
export function pairWaitSeconds(failures: number): number {
  if (failures < PAIR_FREE_FAILURES) return 0;
  return Math.min(PAIR_MAX_WAIT_SECONDS, PAIR_WAIT_INCREMENT_SECONDS * 2 ** (failures - PAIR_FREE_FAILURES));
}
