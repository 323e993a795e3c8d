/**
 * The two UNECE directory distributions shipped with the package, unchanged as UNECE published them, beside their
 * licence (`directories/LICENAGR.TXT`, clause 3: copies of the original file may be passed on with the licence).
 * D96A is EANCOM 97's base, D01B EANCOM 2002's. Tables derived from them are never shipped: they are imported at run
 * time (`importDirectory(shippedDirectoryZips.D96A, store)`). Node only.
 */
import { fileURLToPath } from 'node:url';

/** The names of the shipped directories. */
export type ShippedDirectoryName = 'D96A' | 'D01B';

/** Absolute paths of the shipped distribution zips (`packages/edifact/directories/d96a.zip`, `d01b.zip`). */
export const shippedDirectoryZips: Readonly<Record<ShippedDirectoryName, string>> = Object.freeze({
  D96A: fileURLToPath(new URL('../../../directories/d96a.zip', import.meta.url)),
  D01B: fileURLToPath(new URL('../../../directories/d01b.zip', import.meta.url)),
});

/** Absolute path of UNECE's licence that travels with the shipped zips. */
export const shippedDirectoryLicence: string = fileURLToPath(
  new URL('../../../directories/LICENAGR.TXT', import.meta.url),
);
