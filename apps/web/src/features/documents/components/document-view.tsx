import { Anchor, Badge, Group, List, Paper, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentDetail } from '@portal/contracts';
import { findText } from '../../../i18n/dynamic-text.ts';
import { ExplainButton } from '../../chat/index.ts';
import { formatDateTime, formatDay } from '../../../lib/format.ts';
import {
  lineAmount,
  mainPrice,
  mainQuantity,
  readBody,
  sumOfLineAmounts,
  type ViewBody,
  type ViewLine,
} from '../document-body.ts';
import { kindLabel } from './document-columns.tsx';
import { AdditionalStatusBadge, DocumentStatusBadge, businessStatusLabel } from './document-status-badge.tsx';
import { DocumentStatusActions } from './document-status-actions.tsx';
import { DocumentResponseActions } from './document-response-actions.tsx';
import { CodeHint, codeText, useDocumentCodes, type CodeNames } from './code-name.tsx';
import { DocumentDownloads } from './document-downloads.tsx';
import { AnswerMenu } from '../../drafts/index.ts';
import { KsefSubmission } from '../../ksef/index.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { DocumentOriginal } from './document-original.tsx';
import { DocumentChain } from './document-chain.tsx';
import { useFindingText } from './use-finding-text.ts';

const KNOWN_ROLES = ['BY', 'SU', 'DP', 'IV', 'UC', 'SH'] as const;
const KNOWN_DATES = ['137', '2', '17', '11', '35'] as const;
const KNOWN_REFERENCES = ['ON', 'DQ', 'AAK', 'IV', 'CT', 'VN'] as const;
const KNOWN_TOTALS = ['79', '86', '77', '125', '176', '9'] as const;
/** UNCL 1225 message function codes with a name in the catalogs. */
const KNOWN_FUNCTIONS = ['1', '4', '5', '9', '27', '29', '31'] as const;

/** A function code with its name (`9 · Original`): the catalog's, else the directory's, else the code alone. */
function functionText(t: TFunction<'documents'>, code: string, nameOf: CodeNames): string {
  const known = KNOWN_FUNCTIONS.find((k) => k === code);
  return known ? `${code} · ${t(`view.function.${known}`)}` : codeText(code, nameOf('1225', code));
}

/** A qualifier's label: the catalog's word, else the directory's name (`directoryName`), else "Date (123)". */
function labelOf<K extends string>(
  t: TFunction<'documents'>,
  known: readonly K[],
  code: string,
  key: (k: K) => string,
  other: string,
  directoryName?: string,
): string {
  const found = known.find((k) => k === code);
  return found ? t(key(found) as never) : (directoryName ?? t(other as never, { code }));
}

/** A date value: a day in the reader's language, anything else as sent. */
const dateText = (language: string, value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDay(language, value) : value;

/** The title of a document: its type and number. */
export function documentTitle(t: TFunction<'documents'>, doc: DocumentDetail): string {
  return t('view.title', { type: kindLabel(t, doc.documentKind), number: doc.documentNumber ?? t('view.noNumber') });
}

/**
 * The document view (the modal over the list and the full page): the header with parties, dates and references; the
 * lines with their totals; the findings, the status history and related documents; the original in a second tab.
 */
export function DocumentView({ doc }: { doc: DocumentDetail }) {
  const { t, i18n } = useTranslation('documents');
  const { can } = usePermissions();
  const findingText = useFindingText();
  const language = i18n.language;
  const body = readBody(doc.body);
  const { codes, nameOf } = useDocumentCodes(doc.id);
  const computed = sumOfLineAmounts(body.lines);
  // The VAT summary: one row per rate (a KSeF invoice's P_13/P_14 pairs, an EDIFACT invoice's TAX 7 VAT groups).
  const vat = body.taxes.filter((tax) => tax.type === undefined || tax.type === 'VAT');
  // A party the message names only by GLN: the partner's name on the platform when it is that partner.
  const partyName = (party: { gln?: string | undefined; name?: string | undefined }) =>
    party.name ?? (party.gln && party.gln === doc.partnerGln ? (doc.partnerName ?? undefined) : undefined);
  const money = (value: string, currency?: string) => (
    <span dir="ltr">
      {value}
      {(currency ?? body.currency) ? ` ${currency ?? body.currency}` : ''}
    </span>
  );

  return (
    <Stack gap="md" data-testid="document-view">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs">
          <DocumentStatusBadge status={doc.status} />
          {doc.additionalStatus ? <AdditionalStatusBadge status={doc.additionalStatus} /> : null}
          {doc.acknowledgement ? (
            <Badge
              color={doc.acknowledgement === 'rejected' ? 'red' : 'teal'}
              c="dark.7"
              variant="light"
              tt="none"
              title={t('acknowledgement.label')}
              data-testid="document-acknowledgement"
            >
              {t(`acknowledgement.${doc.acknowledgement}`)}
            </Badge>
          ) : null}
          {doc.test ? (
            <Badge color="yellow" c="dark.7" variant="light">
              {t('mode.test')}
            </Badge>
          ) : null}
        </Group>
        <DocumentStatusActions doc={doc} />
        <DocumentResponseActions doc={doc} />
        {doc.direction === 'in' && can('OUTBOX_CREATE') ? (
          <AnswerMenu documentId={doc.id} kind={doc.documentKind} />
        ) : null}
        <DocumentDownloads doc={doc} />
      </Group>
      <Tabs defaultValue="document" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="document">{t('view.tabs.document')}</Tabs.Tab>
          <Tabs.Tab value="original">{t('view.tabs.original')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="document" pt="md">
          <Stack gap="lg">
            <section aria-labelledby="doc-parties">
              <Title order={3} size="h4" id="doc-parties" mb="xs">
                {t('view.parties')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
                {body.parties.map((party, i) => (
                  <Paper key={`${party.role}-${i}`} withBorder p="sm" data-testid={`party-${party.role}`}>
                    <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                      {labelOf(
                        t,
                        KNOWN_ROLES,
                        party.role,
                        (k) => `view.role.${k}`,
                        'view.role.other',
                        nameOf('3035', party.role),
                      )}
                    </Text>
                    <CodeHint code={party.role} name={nameOf('3035', party.role)} />
                    {partyName(party) ? <Text fw={600}>{partyName(party)}</Text> : null}
                    {party.gln ? (
                      <Text size="sm">
                        {t('view.gln')}: <span dir="ltr">{party.gln}</span>
                      </Text>
                    ) : null}
                    {[party.street, [party.postalCode, party.city].filter(Boolean).join(' '), party.country]
                      .filter(Boolean)
                      .map((line) => (
                        <Text size="sm" key={line}>
                          {line}
                        </Text>
                      ))}
                  </Paper>
                ))}
              </SimpleGrid>
            </section>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              <section aria-labelledby="doc-details">
                <Title order={3} size="h4" id="doc-details" mb="xs">
                  {t('view.details')}
                </Title>
                <Stack component="dl" gap={4} m={0}>
                  <Term label={t('view.messageType')} value={`${doc.messageType} ${doc.version}`} ltr />
                  {body.header.documentNameCode ? (
                    <Term
                      label={t('files.documentName')}
                      value={
                        <span data-testid="document-name-code">
                          {codeText(body.header.documentNameCode, nameOf('1001', body.header.documentNameCode))}
                        </span>
                      }
                    />
                  ) : null}
                  {doc.functionCode ? (
                    <Term label={t('view.functionCode')} value={functionText(t, doc.functionCode, nameOf)} />
                  ) : null}
                  <Term label={t('view.timestamp')} value={formatDateTime(language, doc.timestamp)} />
                  {doc.partnerName ? <Term label={t('columns.PartnerName')} value={doc.partnerName} /> : null}
                </Stack>
              </section>
              <section aria-labelledby="doc-dates">
                <Title order={3} size="h4" id="doc-dates" mb="xs">
                  {t('view.dates')}
                </Title>
                <Stack component="dl" gap={4} m={0}>
                  {body.header.dates.map((d, i) => (
                    <Term
                      key={`${d.qualifier}-${i}`}
                      label={labelOf(
                        t,
                        KNOWN_DATES,
                        d.qualifier,
                        (k) => `view.date.${k}`,
                        'view.date.other',
                        nameOf('2005', d.qualifier),
                      )}
                      code={<CodeHint code={d.qualifier} name={nameOf('2005', d.qualifier)} />}
                      value={dateText(language, d.value)}
                    />
                  ))}
                </Stack>
              </section>
              {body.references.length > 0 ? (
                <section aria-labelledby="doc-references">
                  <Title order={3} size="h4" id="doc-references" mb="xs">
                    {t('view.references')}
                  </Title>
                  <Stack component="dl" gap={4} m={0}>
                    {body.references.map((r, i) => (
                      <Term
                        key={`${r.qualifier}-${i}`}
                        label={labelOf(
                          t,
                          KNOWN_REFERENCES,
                          r.qualifier,
                          (k) => `view.reference.${k}`,
                          'view.reference.other',
                          nameOf('1153', r.qualifier),
                        )}
                        code={<CodeHint code={r.qualifier} name={nameOf('1153', r.qualifier)} />}
                        value={r.value ?? r.lineNumber ?? ''}
                        ltr
                      />
                    ))}
                  </Stack>
                </section>
              ) : null}
            </SimpleGrid>
            <section aria-labelledby="doc-lines">
              <Title order={3} size="h4" id="doc-lines" mb="xs">
                {t('view.lines')}
              </Title>
              {body.lines.length === 0 ? (
                <Text c="dimmed">{t('view.noLines')}</Text>
              ) : (
                <Table.ScrollContainer minWidth={720} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
                  <Table striped aria-labelledby="doc-lines" data-testid="document-lines">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">{t('view.line.number')}</Table.Th>
                        <Table.Th scope="col">{t('view.line.gtin')}</Table.Th>
                        <Table.Th scope="col">{t('view.line.supplierArticle')}</Table.Th>
                        <Table.Th scope="col">{t('view.line.buyerArticle')}</Table.Th>
                        <Table.Th scope="col">{t('view.line.description')}</Table.Th>
                        <Table.Th scope="col" ta="end">
                          {t('view.line.quantity')}
                        </Table.Th>
                        <Table.Th scope="col" ta="end">
                          {t('view.line.price')}
                        </Table.Th>
                        <Table.Th scope="col" ta="end">
                          {t('view.line.amount')}
                        </Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {body.lines.map((line, i) => {
                        const q = mainQuantity(line);
                        const p = mainPrice(line);
                        const a = lineAmount(line);
                        return (
                          <Table.Tr key={`${line.lineNumber ?? ''}-${i}`}>
                            <Table.Td>{line.lineNumber}</Table.Td>
                            <Table.Td dir="ltr">{line.gtin}</Table.Td>
                            <Table.Td dir="ltr">{line.supplierArticleNumber}</Table.Td>
                            <Table.Td dir="ltr">{line.buyerArticleNumber}</Table.Td>
                            <Table.Td>
                              {line.description}
                              {line.allowances.map((a, j) => (
                                <Text key={j} size="xs" c="dimmed" data-testid="document-line-allowance">
                                  {allowanceText(t, a, nameOf('7161', a.reasonCode))}
                                </Text>
                              ))}
                            </Table.Td>
                            <Table.Td ta="end">
                              {q ? (
                                <span dir="ltr">
                                  {q.value}
                                  {q.unit ? ' ' : ''}
                                  {q.unit ? (
                                    nameOf('6411', q.unit) ? (
                                      <abbr title={nameOf('6411', q.unit)}>{q.unit}</abbr>
                                    ) : (
                                      q.unit
                                    )
                                  ) : null}
                                </span>
                              ) : null}
                            </Table.Td>
                            <Table.Td ta="end">{p ? money(p.value) : null}</Table.Td>
                            <Table.Td ta="end">{a ? money(a.value, a.currency) : null}</Table.Td>
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </section>
            {vat.length > 0 ? (
              <section aria-labelledby="doc-vat">
                <Title order={3} size="h4" id="doc-vat" mb="xs">
                  {t('view.vat.title')}
                </Title>
                <Table striped aria-labelledby="doc-vat" data-testid="document-vat">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('view.vat.rate')}</Table.Th>
                      <Table.Th scope="col">{t('view.vat.net')}</Table.Th>
                      <Table.Th scope="col">{t('view.vat.tax')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {vat.map((tax, i) => {
                      const net = tax.amounts.find((a) => a.qualifier === '125');
                      const amount = tax.amounts.find((a) => a.qualifier === '124');
                      return (
                        <Table.Tr key={`${tax.rate ?? tax.category ?? ''}-${i}`}>
                          <Table.Td>
                            <span dir="ltr">{tax.rate !== undefined ? `${tax.rate} %` : (tax.category ?? '')}</span>
                          </Table.Td>
                          <Table.Td>{net ? money(net.value, net.currency) : null}</Table.Td>
                          <Table.Td>{amount ? money(amount.value, amount.currency) : null}</Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </section>
            ) : null}
            {body.totals.length > 0 || computed ? (
              <section aria-labelledby="doc-totals">
                <Title order={3} size="h4" id="doc-totals" mb="xs">
                  {t('view.totals')}
                </Title>
                <Stack component="dl" gap={4} m={0} data-testid="document-totals">
                  {body.totals.map((total, i) => (
                    <Term
                      key={`${total.qualifier}-${i}`}
                      label={labelOf(
                        t,
                        KNOWN_TOTALS,
                        total.qualifier,
                        (k) => `view.total.${k}`,
                        'view.total.other',
                        nameOf('5025', total.qualifier),
                      )}
                      code={<CodeHint code={total.qualifier} name={nameOf('5025', total.qualifier)} />}
                      value={money(total.value, total.currency)}
                    />
                  ))}
                  {body.totals.length === 0 && computed ? (
                    <Term label={t('view.computedTotal')} value={money(computed)} />
                  ) : null}
                </Stack>
              </section>
            ) : null}
            <PaymentSection body={body} nameOf={nameOf} />
            <ListSection
              id="doc-findings"
              title={t('view.findings')}
              empty={t('view.noFindings')}
              testId="document-findings"
            >
              {doc.findings.map((f, i) => (
                <List.Item key={i}>
                  <Badge size="sm" variant="light" c="dark.7" color={f.severity === 'error' ? 'red' : 'yellow'}>
                    {t(`view.severity.${f.severity}`)}
                  </Badge>{' '}
                  {t('view.finding', { line: f.line, column: f.column, message: findingText(f) })}
                  {/* A document in Error: the assistant can say what a finding means and how to fix it. */}
                  {doc.status === 'error' ? (
                    <>
                      {' '}
                      <ExplainButton finding={f} text={findingText(f)} />
                    </>
                  ) : null}
                </List.Item>
              ))}
            </ListSection>
            <ListSection
              id="doc-history"
              title={t('view.history')}
              empty={t('view.noHistory')}
              testId="document-history"
            >
              {doc.history.map((h, i) => (
                <List.Item key={i}>
                  <Text span size="sm" c="dimmed">
                    {formatDateTime(language, h.at)}
                  </Text>{' '}
                  {h.from
                    ? t('view.historyChange', {
                        from: historyValue(t, h.field, h.from),
                        to: historyValue(t, h.field, h.to),
                      })
                    : t('view.historyFirst', { to: historyValue(t, h.field, h.to) })}
                  {h.reason ? ` (${historyReason(h.reason)})` : ''}
                </List.Item>
              ))}
            </ListSection>
            {doc.direction === 'out' && (doc.documentKind === 'invoice' || doc.documentKind === 'credit_note') ? (
              <KsefSubmission documentId={doc.id} />
            ) : null}
            <DocumentChain id={doc.id} />
            <ListSection id="doc-links" title={t('view.links')} empty={t('view.noLinks')} testId="document-links">
              {doc.links.map((link) => (
                <List.Item key={`${link.documentId}-${link.kind}-${link.side}`}>
                  <Anchor
                    renderRoot={(props) => <Link {...props} to="/documents/$id" params={{ id: link.documentId }} />}
                  >
                    {linkText(t, link)}
                  </Anchor>
                </List.Item>
              ))}
            </ListSection>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="original" pt="md">
          <DocumentOriginal id={doc.id} version={doc.version} standard={doc.standard} codes={codes} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** A status value of the history by its label; other fields' values as stored. */
/** A history row's reason: the platform's own codes in words; a reason a user typed, as typed. */
function historyReason(reason: string): string {
  return findText(`documents:view.reason.${reason}`) ?? reason;
}

function historyValue(t: TFunction<'documents'>, field: string, value: string | null): string {
  if (value === null) return '—';
  if (field === 'status' && ['received', 'read', 'sent', 'error', 'waiting'].includes(value))
    return t(`status.${value as 'received'}`);
  if (
    field === 'additionalStatus' &&
    ['cancelled', 'partially_completed', 'completed', 'printed', 'enriched'].includes(value)
  )
    return t(`additionalStatus.${value as 'cancelled'}`);
  if (field === 'businessStatus') return businessStatusLabel(t, value);
  if (field === 'response' && (value === 'accepted' || value === 'rejected')) return t(`response.value.${value}`);
  if (field === 'acknowledgement' && (value === 'acknowledged' || value === 'rejected')) {
    return t(`acknowledgement.${value}`);
  }
  return value;
}

/** What the other document is to this one: the other company's copy, or a document a reference number links. */
function linkText(t: TFunction<'documents'>, link: { kind: string; side: 'from' | 'to' }): string {
  if (link.kind === 'copy') return t('view.link.copy');
  if (link.kind === 'reference') return t(link.side === 'from' ? 'view.link.referenceFrom' : 'view.link.referenceTo');
  return t('view.link.other', { kind: link.kind });
}

/** `Allowance · DI · Discount · 10 % · 0.52`: a line's allowance or charge with its reason, percentage and amount. */
function allowanceText(
  t: TFunction<'documents'>,
  allowance: ViewLine['allowances'][number],
  reason: string | undefined,
): string {
  const amount = allowance.amounts[0]?.value;
  return [
    t(`view.allowance.${allowance.type}`),
    allowance.reasonCode ? codeText(allowance.reasonCode, reason) : undefined,
    allowance.percentage !== undefined ? `${allowance.percentage} %` : undefined,
    amount,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** PAT 4279 types with a name in the catalogs: basic, fixed date, discount. */
const KNOWN_TERMS = ['1', '3', '22'] as const;

/** The payment terms (PAT with its DTM and PCD), the payment means (PAI) and the payee's bank account (FII). */
function PaymentSection({ body, nameOf }: { body: ViewBody; nameOf: CodeNames }) {
  const { t, i18n } = useTranslation('documents');
  const accounts = body.parties.flatMap((p) => p.accounts.filter((a) => a.account));
  if (!body.paymentTerms.length && !body.paymentMeans && !accounts.length) return null;
  return (
    <section aria-labelledby="doc-payment">
      <Title order={3} size="h4" id="doc-payment" mb="xs">
        {t('view.payment.title')}
      </Title>
      <Stack component="dl" gap={4} m={0} data-testid="document-payment">
        {body.paymentTerms.map((term, i) => {
          const due = term.dates.find((d) => d.qualifier === '13');
          const days = term.timeReference === '5' && term.periodUnit === 'D' ? term.periodCount : undefined;
          const value = [
            days ? t('view.payment.days', { days }) : undefined,
            due ? t('view.payment.due', { date: dateText(i18n.language, due.value) }) : undefined,
            term.percentage ? t('view.payment.discount', { percentage: term.percentage }) : undefined,
          ]
            .filter(Boolean)
            .join(' · ');
          return (
            <Term
              key={i}
              label={labelOf(
                t,
                KNOWN_TERMS,
                term.type ?? '',
                (k) => `view.payment.terms.${k}`,
                'view.payment.terms.other',
                nameOf('4279', term.type),
              )}
              code={term.type ? <CodeHint code={term.type} name={nameOf('4279', term.type)} /> : undefined}
              value={value}
            />
          );
        })}
        {body.paymentMeans ? (
          <Term
            label={t('view.payment.means')}
            value={codeText(body.paymentMeans, nameOf('4461', body.paymentMeans))}
          />
        ) : null}
        {accounts.map((a, i) => (
          <Term key={`account-${i}`} label={t('view.payment.account')} value={a.account} ltr />
        ))}
      </Stack>
    </section>
  );
}

function Term({ label, value, ltr, code }: { label: string; value: ReactNode; ltr?: boolean; code?: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text component="dt" size="sm" c="dimmed" miw="45%">
        {label}
        {code}
      </Text>
      <Text component="dd" size="sm" m={0} dir={ltr ? 'ltr' : undefined}>
        {value}
      </Text>
    </Group>
  );
}

/** A titled section of the view: its items as a list, or a dimmed line saying there are none. */
function ListSection(props: { id: string; title: string; empty: string; testId: string; children: React.ReactNode[] }) {
  return (
    <section aria-labelledby={props.id}>
      <Title order={3} size="h4" id={props.id} mb="xs">
        {props.title}
      </Title>
      {props.children.length === 0 ? (
        <Text c="dimmed">{props.empty}</Text>
      ) : (
        <List spacing={4} size="sm" data-testid={props.testId}>
          {props.children}
        </List>
      )}
    </section>
  );
}
