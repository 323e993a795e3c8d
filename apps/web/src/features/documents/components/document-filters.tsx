import { Button, Group, MultiSelect, Paper, Select, SimpleGrid, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_ADDITIONAL_STATUSES,
  DOCUMENT_KIND_CODES,
  DOCUMENT_SORTS,
  DOCUMENT_STANDARDS,
  DOCUMENT_STATUSES,
  type DocumentAdditionalStatus,
  type DocumentColumn,
  type DocumentKindCode,
  type DocumentSort,
  type DocumentStatus,
} from '@portal/contracts';
import {
  DOCUMENT_DATE_RANGES,
  DOCUMENT_TEXT_FILTERS,
  validateDocumentsSearch,
  type DocumentsSearch,
} from '../documents-search.ts';
import { DateRangeFilter, DeliveryPointPicker, PartnerPicker } from './document-filter-pickers.tsx';

type Draft = Record<string, string | string[]>;

/** The column each sort of the server orders by, for its label. */
const SORT_COLUMN: Record<DocumentSort, DocumentColumn> = {
  timestamp: 'WebDocumentTimeStamp',
  number: 'DocumentNumber',
  referenceNumber: 'DocumentReferenceNumber',
  documentType: 'DocumentType',
  partnerName: 'PartnerName',
  deliveryPointGln: 'DeliveryPointIln',
  expectedDeliveryDate: 'ExpectedDeliveryDate',
  businessDate: 'DocumentBusinessDate',
  status: 'Status',
};

const toDraft = (search: DocumentsSearch): Draft => ({ ...search }) as Draft;

/** The free-text filters: the delivery point has its own picker. */
const TEXT_FILTERS = DOCUMENT_TEXT_FILTERS.filter((key) => key !== 'deliveryPointGln');

/**
 * Every search filter of the list (description, section 3), applied together with "Search" and kept in the address
 * by the page. Dates are ranges of the date picker; partners and delivery points are searchable pickers; lists of
 * codes are pickers with their labels.
 */
export function DocumentFilters(props: { search: DocumentsSearch; onApply: (search: DocumentsSearch) => void }) {
  const { t } = useTranslation('documents');
  const [draft, setDraft] = useState<Draft>(() => toDraft(props.search));
  // The address changed (back, forward, a shared link): the fields follow.
  const key = JSON.stringify(props.search);
  const [shown, setShown] = useState(key);
  if (shown !== key) {
    setShown(key);
    setDraft(toDraft(props.search));
  }
  const text = (key: string) => (typeof draft[key] === 'string' ? draft[key] : '');
  const list = (key: string) => (Array.isArray(draft[key]) ? draft[key] : []);
  const set = (key: string, value: string | string[] | null) => setDraft((d) => ({ ...d, [key]: value ?? '' }));

  function apply(event: FormEvent) {
    event.preventDefault();
    props.onApply(validateDocumentsSearch(draft));
  }

  function clear() {
    const order = { sort: props.search.sort, order: props.search.order };
    setDraft(toDraft(validateDocumentsSearch(order)));
    props.onApply(validateDocumentsSearch(order));
  }

  const any = { value: '', label: t('filters.any') };
  return (
    <Paper withBorder p="md" component="form" onSubmit={apply} aria-labelledby="document-filters-title" role="search">
      <Title order={2} size="h4" id="document-filters-title" mb="sm">
        {t('filters.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        {TEXT_FILTERS.map((key) => (
          <TextInput
            key={key}
            // The panel's pickers are "sm"; a text field at the app's "md" would stand taller beside them.
            size="sm"
            label={t(`filters.${key}`)}
            value={text(key)}
            maxLength={70}
            onChange={(e) => set(key, e.currentTarget.value)}
            name={key}
          />
        ))}
        <PartnerPicker value={list('partnerIds')} onChange={(glns) => set('partnerIds', glns)} />
        <DeliveryPointPicker value={text('deliveryPointGln')} onChange={(gln) => set('deliveryPointGln', gln)} />
        {DOCUMENT_DATE_RANGES.map((range) => (
          <DateRangeFilter
            key={range}
            range={range}
            from={text(`${range}From`)}
            to={text(`${range}To`)}
            onChange={(from, to) => setDraft((d) => ({ ...d, [`${range}From`]: from, [`${range}To`]: to }))}
          />
        ))}
        <MultiSelect
          label={t('filters.businessTypeIds')}
          data={DOCUMENT_KIND_CODES.map((k: DocumentKindCode) => ({ value: k, label: t(`kind.${k}`) }))}
          value={list('businessTypeIds')}
          onChange={(v) => set('businessTypeIds', v)}
          clearable
        />
        <MultiSelect
          label={t('filters.documentStatus')}
          data={DOCUMENT_STATUSES.map((s: DocumentStatus) => ({ value: s, label: t(`status.${s}`) }))}
          value={list('documentStatus')}
          onChange={(v) => set('documentStatus', v)}
          clearable
        />
        <MultiSelect
          label={t('filters.documentAdditionalStatus')}
          data={DOCUMENT_ADDITIONAL_STATUSES.map((s: DocumentAdditionalStatus) => ({
            value: s,
            label: t(`additionalStatus.${s}`),
          }))}
          value={list('documentAdditionalStatus')}
          onChange={(v) => set('documentAdditionalStatus', v)}
          clearable
        />
        <Select
          label={t('filters.standard')}
          data={[any, ...DOCUMENT_STANDARDS.map((s) => ({ value: s, label: t(`standard.${s}`) }))]}
          value={text('standard')}
          onChange={(v) => set('standard', v)}
          allowDeselect={false}
        />
        <Select
          label={t('filters.mode')}
          data={[any, ...(['test', 'production'] as const).map((m) => ({ value: m, label: t(`mode.${m}`) }))]}
          value={text('mode')}
          onChange={(v) => set('mode', v)}
          allowDeselect={false}
        />
        <Select
          label={t('filters.sort')}
          data={DOCUMENT_SORTS.map((sort) => ({ value: sort, label: t(`columns.${SORT_COLUMN[sort]}`) }))}
          value={text('sort') || 'timestamp'}
          onChange={(v) => set('sort', v === 'timestamp' ? '' : v)}
          allowDeselect={false}
        />
        <Select
          label={t('filters.order')}
          data={[
            { value: 'desc', label: t('filters.desc') },
            { value: 'asc', label: t('filters.asc') },
          ]}
          value={text('order') || 'desc'}
          onChange={(v) => set('order', v === 'desc' ? '' : v)}
          allowDeselect={false}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={clear}>
          {t('filters.clear')}
        </Button>
        <Button type="submit">{t('filters.apply')}</Button>
      </Group>
    </Paper>
  );
}
