/**
 * @portal/ettn: the e-TTN domain (Ukrainian electronic consignment notes and their acts, v3 XML). Model, reader and
 * writer, the validator of the v3 field table, the lifecycle state machine, the error codes 0–32 and the signer
 * interface with its demo signer. Pure code over WebCrypto: runs in Node and browsers.
 */
export * from './checksums.ts';
export * from './error-codes.ts';
export { ETTN_V3_FIELDS, type FieldNo, type FieldRow } from './fields.generated.ts';
export * from './lifecycle.ts';
export * from './model.ts';
export * from './roles.ts';
export * from './signer.ts';
export * from './validate.ts';
export {
  DEFAULT_MAX_XML_BYTES,
  parseXml,
  serializeXml,
  type XmlElement,
  type XmlError,
  type XmlErrorCode,
  type XmlNode,
  type XmlResult,
} from './xml.ts';
