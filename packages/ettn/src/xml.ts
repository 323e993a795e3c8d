/**
 * The XML layer of the e-TTN v3 documents: text to an ordered element tree and back, through fast-xml-parser.
 *
 * Safety: entity processing of the library is off (no entity is ever expanded; the five predefined entities and
 * numeric character references are decoded here, after parsing), a DOCTYPE is refused outright (so no internal
 * subset, no external entity), and the input is capped in size. Comments, the XML declaration and processing
 * instructions are dropped; whitespace-only text is dropped and text is trimmed, so two documents that differ only
 * in layout give equal trees.
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

/** An element: qualified name as written (`ram:ID`), attributes as written (namespace declarations included). */
export type XmlElement = { name: string; attributes: Record<string, string>; children: XmlNode[] };
export type XmlNode = XmlElement | string;

/** Why a text is not a readable XML document. */
export type XmlErrorCode = 'xml.too_large' | 'xml.doctype' | 'xml.malformed' | 'xml.no_root';
export type XmlError = { code: XmlErrorCode; message: string; line?: number; column?: number };
export type XmlResult = { ok: true; root: XmlElement } | { ok: false; error: XmlError };

/** 10 MiB: the largest sample with its CAdES signatures is under 100 KiB. */
export const DEFAULT_MAX_XML_BYTES = 10 * 1024 * 1024;

type FxpNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  processEntities: true,
});

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the predefined entities and character references; any other `&name;` stays as written. */
export const decodeEntities = (text: string): string =>
  text.includes('&')
    ? text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
        if (ref.startsWith('#x')) return safeCodePoint(Number.parseInt(ref.slice(2), 16)) ?? whole;
        if (ref.startsWith('#')) return safeCodePoint(Number.parseInt(ref.slice(1), 10)) ?? whole;
        return PREDEFINED[ref] ?? whole;
      })
    : text;

const safeCodePoint = (cp: number): string | undefined =>
  Number.isInteger(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;

const toTree = (nodes: FxpNode[]): XmlNode[] => {
  const out: XmlNode[] = [];
  for (const node of nodes) {
    if ('#text' in node) {
      const text = decodeEntities(String(node['#text']));
      if (text !== '') out.push(text);
      continue;
    }
    const name = Object.keys(node).find((k) => k !== ':@');
    if (name === undefined || name.startsWith('?') || name === '#comment') continue;
    const rawAttrs = (node[':@'] ?? {}) as Record<string, unknown>;
    const attributes: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawAttrs)) attributes[k] = decodeEntities(String(v));
    out.push({ name, attributes, children: toTree((node[name] ?? []) as FxpNode[]) });
  }
  return out;
};

const fromTree = (nodes: XmlNode[]): FxpNode[] =>
  nodes.map((node) => {
    if (typeof node === 'string') return { '#text': node };
    const out: FxpNode = { [node.name]: fromTree(node.children) };
    if (Object.keys(node.attributes).length > 0) out[':@'] = { ...node.attributes };
    return out;
  });

/**
 * Parses an XML text into its root element. Never throws on bad input: a refused or malformed text gives an error
 * with a stable code.
 */
export const parseXml = (input: string | Uint8Array, maxBytes = DEFAULT_MAX_XML_BYTES): XmlResult => {
  const size = typeof input === 'string' ? new TextEncoder().encode(input).byteLength : input.byteLength;
  if (size > maxBytes) {
    return { ok: false, error: { code: 'xml.too_large', message: `${size} bytes, at most ${maxBytes}` } };
  }
  let text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: false }).decode(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    return { ok: false, error: { code: 'xml.doctype', message: 'a DOCTYPE or entity declaration is not accepted' } };
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    return {
      ok: false,
      error: { code: 'xml.malformed', message: valid.err.msg, line: valid.err.line, column: valid.err.col },
    };
  }
  const roots = toTree(parser.parse(text) as FxpNode[]).filter((n): n is XmlElement => typeof n !== 'string');
  const [root] = roots;
  if (root === undefined || roots.length !== 1) {
    return { ok: false, error: { code: 'xml.no_root', message: 'expected exactly one root element' } };
  }
  return { ok: true, root };
};

/** Serialises an element (with an XML declaration unless `declaration: false`), indented, UTF-8. */
export const serializeXml = (root: XmlElement, options: { declaration?: boolean } = {}): string => {
  const body = (builder.build(fromTree([root])) as string).trim();
  return options.declaration === false ? body : `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`;
};

/** Builds an element; children that are `undefined` are left out, so optional parts read naturally. */
export const el = (
  name: string,
  attributesOrChildren?: Record<string, string> | (XmlNode | undefined)[] | string,
  maybeChildren?: (XmlNode | undefined)[] | string,
): XmlElement => {
  const hasAttributes =
    attributesOrChildren !== undefined &&
    typeof attributesOrChildren !== 'string' &&
    !Array.isArray(attributesOrChildren);
  const attributes = hasAttributes ? (attributesOrChildren as Record<string, string>) : {};
  const raw = hasAttributes ? maybeChildren : (attributesOrChildren as (XmlNode | undefined)[] | string | undefined);
  const children = raw === undefined ? [] : typeof raw === 'string' ? [raw] : raw.filter((c) => c !== undefined);
  return { name, attributes, children };
};

/** Child elements, optionally only those of one name. */
export const childElements = (element: XmlElement, name?: string): XmlElement[] =>
  element.children.filter((c): c is XmlElement => typeof c !== 'string' && (name === undefined || c.name === name));

/** The first child element of a name. */
export const findChild = (element: XmlElement | undefined, name: string): XmlElement | undefined =>
  element === undefined ? undefined : childElements(element, name)[0];

/** Follows a path of child names (`['ram:IssueDateTime', 'udt:DateTime']`), taking the first match at each step. */
export const findPath = (element: XmlElement | undefined, path: readonly string[]): XmlElement | undefined =>
  path.reduce<XmlElement | undefined>((at, name) => findChild(at, name), element);

/** The concatenated text directly inside an element (not its descendants'), or undefined when there is none. */
export const textOf = (element: XmlElement | undefined): string | undefined => {
  if (element === undefined) return undefined;
  const parts = element.children.filter((c): c is string => typeof c === 'string');
  return parts.length === 0 ? undefined : parts.join('');
};
