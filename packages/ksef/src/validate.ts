/**
 * XSD validation of FA(3) invoices and UPOs with libxml2 compiled to WebAssembly (libxml2-wasm): no native build, no
 * network. The schemas ship in `../schemas` (see its PROVENANCE.md). FA(3) imports its base types from a remote
 * `http://crd.gov.pl/...` location; an in-memory input provider answers exactly those URLs with the shipped files,
 * so the schema is used byte for byte as published and nothing is fetched.
 *
 * Each schema is compiled once per process and kept; every validated document is disposed of after use, so many
 * validations do not grow the wasm heap. libxml2 itself is loaded on the first validation: a process that imports
 * the package for its crypto or model (the server's main thread) never holds the wasm module and its memory.
 */
import { readFileSync } from 'node:fs';
import type { XmlDocument, XsdValidator } from 'libxml2-wasm';

type Libxml2 = typeof import('libxml2-wasm');
let libxml2: Promise<Libxml2> | undefined;
const loadLibxml2 = (): Promise<Libxml2> => (libxml2 ??= import('libxml2-wasm'));

/** One finding: the libxml2 message and, when known, the line in the validated document. */
export type XsdError = { line?: number; message: string };
export type XsdResult = { valid: boolean; errors: XsdError[] };

const BASE_URL = 'http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/';
const BASE_FILES = ['StrukturyDanych_v10-0E.xsd', 'ElementarneTypyDanych_v10-0E.xsd', 'KodyKrajow_v10-0E.xsd'];
const schemaPath = (name: string): URL => new URL(`../schemas/${name}`, import.meta.url);

/** The shipped schemas. */
export const SCHEMAS = {
  fa3: 'schemat_FA(3)_v1-0E.xsd',
  upo: 'upo-v4-3.xsd',
} as const;
export type SchemaName = keyof typeof SCHEMAS;

/** Largest document validated (KSeF takes at most 3 MB with attachments). */
export const MAX_VALIDATED_BYTES = 10 * 1024 * 1024;

let providerRegistered = false;
const validators = new Map<SchemaName, XsdValidator>();

/** Serves the base schemas under their remote URLs; registered once (libxml2's input providers are global). */
function registerBaseSchemas(lib: Libxml2): void {
  if (providerRegistered) return;
  const files: Record<string, Uint8Array> = {};
  for (const name of BASE_FILES) files[BASE_URL + name] = readFileSync(schemaPath(`bazowe/${name}`));
  lib.xmlRegisterInputProvider(new lib.XmlBufferInputProvider(files));
  providerRegistered = true;
}

function validatorOf(lib: Libxml2, name: SchemaName): XsdValidator {
  const cached = validators.get(name);
  if (cached) return cached;
  registerBaseSchemas(lib);
  const xsd = lib.XmlDocument.fromBuffer(readFileSync(schemaPath(SCHEMAS[name])), {
    url: `urn:portal:ksef:${SCHEMAS[name]}`,
    option: lib.ParseOption.XML_PARSE_NONET,
  });
  try {
    const validator = lib.XsdValidator.fromDoc(xsd);
    validators.set(name, validator);
    return validator;
  } finally {
    xsd.dispose();
  }
}

const errorsOf = (lib: Libxml2, error: unknown): XsdError[] => {
  if (error instanceof lib.XmlLibError && error.details.length > 0) {
    return error.details.map((d) => ({ ...(d.line > 0 ? { line: d.line } : {}), message: d.message.trim() }));
  }
  return [{ message: error instanceof Error ? error.message : String(error) }];
};

/**
 * Validates `xml` against one of the shipped schemas. Not well-formed input is `valid: false` with the parser's
 * errors; no DTD is loaded and no entity is substituted, nothing is fetched.
 */
export function validateXsd(name: SchemaName, xml: string | Uint8Array): Promise<XsdResult> {
  return loadLibxml2().then((lib) => {
    const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
    if (bytes.length > MAX_VALIDATED_BYTES) {
      return { valid: false, errors: [{ message: `document larger than ${MAX_VALIDATED_BYTES} bytes` }] };
    }
    const validator = validatorOf(lib, name);
    let doc: XmlDocument;
    try {
      doc = lib.XmlDocument.fromBuffer(bytes, { option: lib.ParseOption.XML_PARSE_NONET });
    } catch (error) {
      return { valid: false, errors: errorsOf(lib, error) };
    }
    try {
      validator.validate(doc);
      return { valid: true, errors: [] };
    } catch (error) {
      return { valid: false, errors: errorsOf(lib, error) };
    } finally {
      doc.dispose();
    }
  });
}

/** Validates an FA(3) invoice against `schemat_FA(3)_v1-0E.xsd`. */
export const validateFa3 = (xml: string | Uint8Array): Promise<XsdResult> => validateXsd('fa3', xml);

/** Validates a UPO against `upo-v4-3.xsd`. */
export const validateUpo = (xml: string | Uint8Array): Promise<XsdResult> => validateXsd('upo', xml);
