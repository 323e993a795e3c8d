/**
 * `@portal/ksef`: Poland's KSeF 2.0, part 1: the FA(3) invoice model, its XML writer and parser, XSD validation,
 * KSeF numbers, the encryption steps, and the mapping to and from the canonical document body.
 *
 * - {@link KsefInvoiceSchema} / {@link buildFa3} / {@link parseFa3}: the invoice, written and read as FA(3) XML.
 * - {@link validateFa3} / {@link validateUpo}: XSD validation with the shipped schemas (libxml2 in WebAssembly).
 * - {@link computeSummary}: P_13_x / P_14_x / P_15 in exact decimals.
 * - {@link isValidKsefNumber} / {@link makeKsefNumber}: KSeF numbers and their CRC-8.
 * - {@link encryptInvoice} / {@link encryptionInfo} / {@link encryptKsefToken}: AES-256-CBC and RSA-OAEP as KSeF wants.
 * - {@link fa3ToCanonical} / {@link canonicalToKsefInvoice}: the portal's canonical body.
 * - {@link invoiceVerificationUrl}: KOD I, the invoice's verification link for its QR code.
 *
 * @packageDocumentation
 */
export * from './model.ts';
export { computeAdvanceSummary, computeSummary, lineNet, orderSummary, subtractSummary } from './summary.ts';
export { buildFa3, ETD_NAMESPACE, FA3_FORM_CODE, FA3_NAMESPACE } from './write.ts';
export { FA3_PARSE_ERROR_CODES, Fa3ParseError, MAX_FA3_BYTES, parseFa3, type Fa3ParseErrorCode } from './parse.ts';
export {
  MAX_VALIDATED_BYTES,
  SCHEMAS,
  validateFa3,
  validateUpo,
  validateXsd,
  type SchemaName,
  type XsdError,
  type XsdResult,
} from './validate.ts';
export { crc8, isValidKsefNumber, ksefNumberChecksum, makeKsefNumber } from './ksef-number.ts';
export { isValidNip } from './nip.ts';
export {
  aesDecrypt,
  aesEncrypt,
  encryptInvoice,
  encryptionInfo,
  encryptKsefToken,
  generateSymmetricKey,
  rsaOaepEncrypt,
  type EncryptedInvoice,
} from './crypto.ts';
export { canonicalToKsefInvoice, correctedInvoiceOf, fa3ToCanonical, type KsefExtras } from './canonical.ts';
export { findUnmodelled } from './unmodelled.ts';
export { invoiceVerificationUrl, KSEF_QR_HOSTS, sha256Base64Url, toBase64Url } from './verification.ts';
