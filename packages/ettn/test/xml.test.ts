/** The XML layer: refuses what it must (DOCTYPE, entity declarations, oversize, malformed), decodes only the safe entities. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { el, parseXml, serializeXml, type XmlElement, type XmlNode } from '../src/xml.ts';

const root = (xml: string): XmlElement => {
  const result = parseXml(xml);
  if (!result.ok) throw new Error(result.error.message);
  return result.root;
};

describe('parseXml', () => {
  it('refuses a DOCTYPE and entity declarations (no entity is ever expanded)', () => {
    const bomb = '<!DOCTYPE a [<!ENTITY x "xxxxxxxx"><!ENTITY y "&x;&x;&x;">]><a>&y;</a>';
    expect(parseXml(bomb)).toEqual({ ok: false, error: expect.objectContaining({ code: 'xml.doctype' }) });
    expect(parseXml('<!DOCTYPE a SYSTEM "file:///etc/passwd"><a/>')).toMatchObject({
      ok: false,
      error: { code: 'xml.doctype' },
    });
  });

  it('refuses a text over the size cap before parsing it', () => {
    expect(parseXml('<a>' + 'x'.repeat(100) + '</a>', 50)).toMatchObject({
      ok: false,
      error: { code: 'xml.too_large' },
    });
  });

  it('reports malformed XML with its position, and several roots', () => {
    expect(parseXml('<a><b></a>')).toMatchObject({ ok: false, error: { code: 'xml.malformed', line: 1 } });
    expect(parseXml('<a/><b/>')).toMatchObject({ ok: false });
  });

  it('decodes the predefined entities and character references, leaves unknown references as written', () => {
    const r = root('<a x="1&amp;2">&lt;&#1044;&#x0404;&gt; &amp;nbsp; &foo;</a>');
    expect(r.attributes).toEqual({ x: '1&2' });
    expect(r.children).toEqual(['<ДЄ> &nbsp; &foo;']);
  });

  it('drops comments, the declaration and layout, keeps order and namespace prefixes', () => {
    const r = root(
      '<?xml version="1.0"?>\n<!-- c -->\n<r xmlns:ram="u">\n  <ram:A>1</ram:A>\n  <!-- x -->\n  <B/>\n  <ram:A>2</ram:A>\n</r>',
    );
    expect(r).toEqual(el('r', { 'xmlns:ram': 'u' }, [el('ram:A', '1'), el('B'), el('ram:A', '2')]));
  });

  it('writes what it reads: escaping on the way out, equal trees on the way back', () => {
    const tree = el('a', { q: 'x"<&>' }, [el('b', 'Demo & Co <TOB> "лапки"'), el('c')]);
    const text = serializeXml(tree);
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(root(text)).toEqual(tree);
    expect(serializeXml(root(text))).toBe(text);
  });
});

describe('serializeXml then parseXml', () => {
  // Texts as the reader gives them: trimmed, not empty; with the characters that need escaping and look-alike
  // references (`&amp;`, `&#x41;` written as text must come back as text, not decoded twice).
  const text = fc
    .string({ unit: fc.constantFrom('a', 'Z', '1', 'Є', 'ї', '&', '<', '>', '"', "'", ';', '#', 'x', ' ', 'amp') })
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const name = fc.constantFrom('a', 'ram:ID', 'udt:DateTime', 'Signature', 'ram:Name');
  const attributes = fc.dictionary(fc.constantFrom('x', 'unitCode', 'schemeAgencyID'), text, { maxKeys: 2 });
  const { tree } = fc.letrec<{ tree: XmlElement }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ name, attributes, children: fc.constant<XmlNode[]>([]) }),
      fc.record({ name, attributes, children: text.map((t) => [t]) }),
      fc.record({ name, attributes, children: fc.array(tie('tree'), { maxLength: 3 }) }),
    ),
  }));

  it('gives back the same tree for any tree the reader can produce', () => {
    fc.assert(
      fc.property(tree, (t) => {
        expect(root(serializeXml(t))).toEqual(t);
      }),
      { numRuns: 300 },
    );
  });
});
