import type { CanonicalDocument } from '@portal/documents';
import type { DocumentCodes } from '@portal/contracts';
import { serviceSegmentNames, type Directory } from '@portal/edifact';

/** Data element id → the codes of it a document uses. */
export type WantedCodes = Record<string, string[]>;

/**
 * The codes a canonical body carries, by the UN/EDIFACT data element whose code list names them (decision 0018 names
 * each field's list): what the document view and the PDF show with their meaning. Bounded by the body's size.
 */
export function codesOfBody(body: CanonicalDocument): WantedCodes {
  const wanted = new Map<string, Set<string>>();
  const add = (element: string, code: string | undefined) => {
    if (!code) return;
    let set = wanted.get(element);
    if (!set) wanted.set(element, (set = new Set()));
    set.add(code);
  };
  const dates = (list: readonly { qualifier: string; format?: string | undefined }[] | undefined) => {
    for (const d of list ?? []) {
      add('2005', d.qualifier);
      add('2379', d.format);
    }
  };
  const references = (list: CanonicalDocument['references'] | undefined) => {
    for (const r of list ?? []) {
      add('1153', r.qualifier);
      dates(r.dates);
    }
  };
  const amounts = (list: readonly { qualifier: string; currency?: string | undefined }[] | undefined) => {
    for (const a of list ?? []) {
      add('5025', a.qualifier);
      add('6345', a.currency);
    }
  };
  const quantities = (list: readonly { qualifier: string; unit?: string | undefined }[] | undefined) => {
    for (const q of list ?? []) {
      add('6063', q.qualifier);
      add('6411', q.unit);
    }
  };
  const taxes = (list: CanonicalDocument['taxes'] | undefined) => {
    for (const tax of list ?? []) {
      add('5283', tax.qualifier);
      add('5153', tax.type);
      add('5305', tax.category);
      amounts(tax.amounts);
    }
  };
  const allowances = (list: CanonicalDocument['allowances'] | undefined) => {
    for (const a of list ?? []) {
      add('1227', a.sequence);
      add('7161', a.reasonCode);
      amounts(a.amounts);
      quantities(a.quantities);
      taxes(a.taxes);
    }
  };
  const parties = (list: CanonicalDocument['parties'] | undefined) => {
    for (const p of list ?? []) {
      add('3035', p.role);
      add('3055', p.id?.agency);
      add('3207', p.country);
      references(p.references);
      for (const c of p.contacts ?? []) {
        add('3139', c.function);
        for (const channel of c.communications ?? []) add('3155', channel.channel);
      }
    }
  };
  const texts = (list: readonly { qualifier: string }[] | undefined) => {
    for (const text of list ?? []) add('4451', text.qualifier);
  };

  const h = body.header;
  add('1001', h.documentNameCode);
  add('1225', h.functionCode);
  add('4343', h.responseType);
  dates(h.dates);
  texts(h.texts);
  references(body.references);
  parties(body.parties);
  add('6345', body.currency);
  for (const term of body.paymentTerms) {
    add('4279', term.type);
    add('2475', term.timeReference);
    add('2009', term.timeRelation);
    add('2151', term.periodUnit);
    dates(term.dates);
    amounts(term.amounts);
  }
  for (const line of body.lines) {
    add('1229', line.action);
    for (const id of line.itemIds ?? []) add('7143', id.qualifier);
    quantities(line.quantities);
    for (const price of line.prices) {
      add('5125', price.qualifier);
      add('5375', price.type);
      add('6411', price.unit);
    }
    amounts(line.amounts);
    taxes(line.taxes);
    allowances(line.allowances);
    dates(line.dates);
    references(line.references);
    parties(line.parties);
    texts(line.texts);
    for (const id of line.identifiers ?? []) add('7405', id.qualifier);
  }
  allowances(body.allowances);
  taxes(body.taxes);
  amounts(body.totals);
  for (const pack of body.packages) for (const p of pack.packaging) quantities(p.quantities);
  for (const error of body.errors) add('9321', error.code);
  return Object.fromEntries([...wanted].map(([element, codes]) => [element, [...codes]]));
}

/** Tags of a message's segment table, in order, each once (groups walked depth first). */
function tagsOf(children: Directory['messages'][string]['children'], into: Set<string>): Set<string> {
  for (const child of children) {
    if (child.kind === 'segment') into.add(child.tag);
    else tagsOf(child.children, into);
  }
  return into;
}

/**
 * The names of the wanted codes and of the message type's segments (their elements and components) in a directory.
 * A code the directory's list lacks, or a list it does not have (UNCL is absent from D93A to D95A), is left out: the
 * view shows the code alone.
 */
export function describeCodes(directory: Directory, messageType: string, wanted: WantedCodes): DocumentCodes {
  const codeNames: DocumentCodes['codeNames'] = {};
  for (const [element, codes] of Object.entries(wanted)) {
    const list = directory.codes[element];
    if (!list) continue;
    const names: Record<string, string> = {};
    for (const code of codes) {
      const name = Object.hasOwn(list, code) ? list[code] : undefined;
      if (name) names[code] = name;
    }
    if (Object.keys(names).length) codeNames[element] = names;
  }
  const message = directory.messages[messageType];
  const tags = message ? tagsOf(message.children, new Set()) : new Set<string>();
  const segments: DocumentCodes['segments'] = {};
  const nameOf = (id: string) => directory.elements[id]?.name ?? directory.composites[id]?.name ?? '';
  for (const tag of tags) {
    const def = directory.segments[tag];
    if (!def) continue;
    segments[tag] = {
      name: def.name,
      elements: def.elements.map((e) => {
        const composite = directory.composites[e.id];
        return {
          id: e.id,
          name: nameOf(e.id),
          ...(composite ? { components: composite.components.map((c) => ({ id: c.id, name: nameOf(c.id) })) } : {}),
        };
      }),
    };
  }
  // The envelope (UNH and UNT in every message, UNB and UNZ around it) from ISO 9735: no directory holds it.
  for (const [tag, names] of Object.entries(serviceSegmentNames())) segments[tag] ??= names;
  return { directory: directory.name, codeNames, segments };
}
