import type { FileNamingFormat } from '@portal/contracts';

/** What a saved file's name is built from (the description's four naming formats, section 9). */
export type FileNameParts = {
  /** The message type, e.g. `ORDERS`. */
  docType: string;
  partnerName: string | null;
  docNumber: string | null;
  /** The delivery point's name, else its GLN. */
  deliveryPoint: string | null;
  /** The business date, ISO (`2026-11-16`). */
  docDate: string | null;
};

const ORDER: Record<FileNamingFormat, (keyof FileNameParts)[]> = {
  DocType_PartnerName_DocNumber: ['docType', 'partnerName', 'docNumber'],
  DocType_PartnerName_DocNumber_DeliveryPoint: ['docType', 'partnerName', 'docNumber', 'deliveryPoint'],
  DocType_DocNumber: ['docType', 'docNumber'],
  PartnerName_DocType_DocDate_DocNumber: ['partnerName', 'docType', 'docDate', 'docNumber'],
};

/** Each part at most this long, and the whole name (with its extension) at most 200 characters. */
const PART_MAX = 60;
const NAME_MAX = 200;

/**
 * One part of a file name: letters of any script, digits, `-` and `.`; every other run of characters (spaces,
 * slashes, `_` which separates the parts, quotes, control characters) becomes one `-`. Letters of other scripts are
 * kept because a partner named in Arabic or Cyrillic must stay recognisable; every current file system takes them,
 * and Content-Disposition carries them (RFC 5987).
 */
export function safePart(value: string): string {
  return value
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}.-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, PART_MAX)
    .replace(/[-.]+$/g, '');
}

/**
 * The name a downloaded document is saved under, in the user's naming format: the parts joined with `_`, missing
 * parts left out, then the extension (`edi`, `pdf`). The one place both downloads (and the zip of several) name a
 * file.
 */
export function documentFileName(format: FileNamingFormat, parts: FileNameParts, extension: string): string {
  const safe = ORDER[format]
    .map((key) => safePart(parts[key] ?? ''))
    .filter(Boolean)
    .join('_');
  const ext = extension.replace(/[^a-z0-9]/gi, '').toLowerCase();
  const base = (safe || 'document').slice(0, NAME_MAX - ext.length - 1);
  return `${base}.${ext}`;
}
