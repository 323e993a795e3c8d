import { LOCALES } from '@portal/i18n';
import { isLanguage, type DocumentCodes, type DocumentDetail } from '@portal/contracts';
import type { CanonicalDocument } from '@portal/documents';
import { catalogTranslator, hasCatalogText } from '../../lib/catalog-text.ts';
import type { PdfModel, PdfPair } from './document-pdf.ts';

/**
 * The print model of a document (what its PDF shows), in the reader's language: the web view's own words (the
 * `documents` catalog) and the same content (header, parties with names and GLNs, dates, references, lines and
 * totals), each code with its meaning from the directory (decision 0026).
 */
export function documentPrintModel(
  doc: Pick<
    DocumentDetail,
    | 'documentKind'
    | 'documentNumber'
    | 'status'
    | 'additionalStatus'
    | 'test'
    | 'messageType'
    | 'version'
    | 'functionCode'
    | 'partnerName'
    | 'partnerGln'
    | 'timestamp'
  >,
  body: CanonicalDocument,
  codes: DocumentCodes,
  language: string,
  /** An invoice in KSeF: its KSeF number and KOD I, drawn as KSeF's visualisation does (issue 13). */
  ksef?: { ksefNumber: string; url: string | null },
): PdfModel {
  const t = catalogTranslator('documents', language);
  const has = (key: string) => hasCatalogText('documents', language, key);
  const locale = isLanguage(language) ? LOCALES[language].intl : 'en-GB';
  const name = (element: string, code: string | undefined) => (code ? codes.codeNames[element]?.[code] : undefined);
  /** `220 · Order`: the code and its name from the directory, or the code alone. */
  const coded = (element: string, code: string | undefined) => {
    if (!code) return '';
    const found = name(element, code);
    return found ? `${code} · ${found}` : code;
  };
  /** A qualifier's label: the catalog's word for it, else the directory's name, else "Date (123)"; then the code. */
  const label = (group: string, element: string, code: string) => {
    const text = has(`view.${group}.${code}`)
      ? t(`view.${group}.${code}`)
      : (name(element, code) ?? t(`view.${group}.other`, { code }));
    return text.includes(code) ? text : `${text} (${code})`;
  };
  const day = (value: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`))
      : value;
  const money = (value: string, currency?: string) =>
    (currency ?? body.currency) ? `${value} ${currency ?? body.currency}` : value;
  const kind = has(`kind.${doc.documentKind}`) ? t(`kind.${doc.documentKind}`) : doc.documentKind;
  const title = t('view.title', { type: kind, number: doc.documentNumber ?? t('view.noNumber') });

  const details: PdfPair[] = [
    [t('view.messageType'), `${doc.messageType} ${doc.version}`],
    ...(body.header.documentNameCode
      ? [[t('files.documentName'), coded('1001', body.header.documentNameCode)] as PdfPair]
      : []),
    ...(doc.functionCode ? [[t('view.functionCode'), functionText(doc.functionCode)] as PdfPair] : []),
    ...(doc.partnerName ? [[t('columns.PartnerName'), doc.partnerName] as PdfPair] : []),
    [
      t('view.timestamp'),
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
        new Date(doc.timestamp),
      ) + ' UTC',
    ],
  ];
  function functionText(code: string): string {
    if (has(`view.function.${code}`)) return `${code} · ${t(`view.function.${code}`)}`;
    return coded('1225', code);
  }

  const parties = body.parties.map((p) => {
    const partyName = p.name ?? (p.gln && p.gln === doc.partnerGln ? (doc.partnerName ?? undefined) : undefined);
    return {
      role: label('role', '3035', p.role),
      lines: [
        ...(partyName ? [partyName] : []),
        ...(p.gln ? [`${t('view.gln')}: ${p.gln}`] : []),
        ...(p.street ? [p.street] : []),
        ...([p.postalCode, p.city].filter(Boolean).length ? [[p.postalCode, p.city].filter(Boolean).join(' ')] : []),
        ...(p.country ? [p.country] : []),
        ...(p.vatId ? [`${t('files.vatId')}: ${p.vatId}`] : []),
      ],
    };
  });

  const quantity = (line: CanonicalDocument['lines'][number]) => {
    const q =
      ['21', '12', '47', '48', '113'].map((c) => line.quantities.find((x) => x.qualifier === c)).find(Boolean) ??
      line.quantities[0];
    return q ? `${q.value}${q.unit ? ` ${q.unit}` : ''}` : '';
  };
  const price = (line: CanonicalDocument['lines'][number]) => {
    const p =
      line.prices.find((x) => x.qualifier === 'AAA') ??
      line.prices.find((x) => x.qualifier === 'AAB') ??
      line.prices[0];
    return p ? money(p.value) : '';
  };
  const amount = (line: CanonicalDocument['lines'][number]) => {
    const a = line.amounts.find((x) => x.qualifier === '203') ?? line.amounts[0];
    return a ? money(a.value, a.currency) : '';
  };

  const status = [
    t(`status.${doc.status}`),
    ...(doc.additionalStatus ? [t(`additionalStatus.${doc.additionalStatus}`)] : []),
    ...(doc.test ? [t('mode.test')] : []),
  ].join(' · ');

  return {
    rtl: isLanguage(language) && LOCALES[language].dir === 'rtl',
    title,
    subtitle: status,
    subject: `${doc.messageType} ${doc.documentNumber ?? ''}`.trim(),
    sections: [
      { kind: 'pairs', title: t('view.details'), pairs: details },
      { kind: 'parties', title: t('view.parties'), parties },
      {
        kind: 'pairs',
        title: t('view.dates'),
        pairs: body.header.dates.map((d) => [label('date', '2005', d.qualifier), day(d.value)]),
      },
      {
        kind: 'pairs',
        title: t('view.references'),
        pairs: body.references.map((r) => [label('reference', '1153', r.qualifier), r.value ?? r.lineNumber ?? '']),
      },
      {
        kind: 'table',
        title: t('view.lines'),
        empty: t('view.noLines'),
        headers: [
          t('view.line.number'),
          t('view.line.gtin'),
          t('view.line.supplierArticle'),
          t('view.line.buyerArticle'),
          t('view.line.description'),
          t('view.line.quantity'),
          t('view.line.price'),
          t('view.line.amount'),
        ],
        widths: [5, 13, 11, 11, 24, 11, 11, 14],
        endAligned: [false, false, false, false, false, true, true, true],
        rows: body.lines.map((line) => [
          line.lineNumber ?? '',
          line.gtin ?? '',
          line.supplierArticleNumber ?? '',
          line.buyerArticleNumber ?? '',
          line.description ?? '',
          quantity(line),
          price(line),
          amount(line),
        ]),
      },
      {
        kind: 'pairs',
        title: t('view.totals'),
        pairs: body.totals.map((total) => [
          label('total', '5025', total.qualifier),
          money(total.value, total.currency),
        ]),
      },
    ],
    pageOf: t('files.pageOf', { page: '{{page}}', pages: '{{pages}}' }),
    ...(ksef ? { ksef: { title: t('columns.KsefNumber'), ksefNumber: ksef.ksefNumber, url: ksef.url } } : {}),
  };
}
