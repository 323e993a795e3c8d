import { Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import {
  DOCUMENT_KIND_CODES,
  type DocumentColumn,
  type DocumentDirection,
  type DocumentListItem,
} from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import type { DocumentsSearch } from '../documents-search.ts';
import { formatDateTime, formatDay } from '../../../lib/format.ts';
import { AdditionalStatusBadge, BusinessStatusBadge, DocumentStatusBadge } from './document-status-badge.tsx';

const ltr = (value: string | null): ReactNode =>
  value ? (
    <Text span size="sm" dir="ltr">
      {value}
    </Text>
  ) : null;

/** The label of a business kind; an unknown one (a later standard's) as sent. */
export function kindLabel(t: TFunction<'documents'>, kind: string): string {
  const known = DOCUMENT_KIND_CODES.find((k) => k === kind);
  return known ? t(`kind.${known}`) : kind;
}

const day = (language: string, value: string | null): string => (value ? formatDay(language, value) : '');

/**
 * The list's columns by their description name (section 3). The document number links to the document view, so
 * a click on it (or Enter on it) opens the document over the list.
 */
export function documentColumn(
  column: DocumentColumn,
  t: TFunction<'documents'>,
  language: string,
  direction: DocumentDirection,
  search: DocumentsSearch,
): DataColumn<DocumentListItem> {
  const header = t(`columns.${column}`);
  const base = { key: column, header };
  switch (column) {
    case 'DocumentNumber':
      return {
        ...base,
        card: 'title',
        cellProps: { fw: 600 },
        cell: (row) => (
          <Link
            to={direction === 'in' ? '/documents/in/$id' : '/documents/out/$id'}
            params={{ id: row.id }}
            search={search}
            data-testid="document-link"
          >
            <span dir="ltr">{row.documentNumber ?? t('view.noNumber')}</span>
          </Link>
        ),
      };
    case 'DocumentReferenceNumber':
      return { ...base, cell: (row) => ltr(row.documentReferenceNumber) };
    case 'DocumentType':
      return { ...base, cell: (row) => kindLabel(t, row.documentKind) };
    case 'Direction':
      return { ...base, cell: (row) => t(`direction.${row.direction}`) };
    case 'PartnerName':
      return { ...base, cell: (row) => row.partnerName ?? ltr(row.partnerGln) };
    case 'DeliveryPoint':
      return { ...base, cell: (row) => row.deliveryPointName };
    case 'DeliveryPointIln':
      return { ...base, cell: (row) => ltr(row.deliveryPointGln) };
    case 'ExpectedDeliveryDate':
      return { ...base, cell: (row) => day(language, row.expectedDeliveryDate) };
    case 'DocumentBusinessDate':
      return { ...base, cell: (row) => day(language, row.businessDate) };
    case 'WebDocumentTimeStamp':
      return { ...base, cell: (row) => formatDateTime(language, row.timestamp) };
    case 'Status':
      return { ...base, cell: (row) => <DocumentStatusBadge status={row.status} /> };
    case 'ProcessingStatus':
      return { ...base, cell: (row) => t(`processingStatus.${row.processingStatus}`) };
    case 'BusinessStatus':
      return {
        ...base,
        cell: (row) => (row.businessStatus ? <BusinessStatusBadge status={row.businessStatus} /> : null),
      };
    case 'AdditionalStatus':
      return {
        ...base,
        cell: (row) => (row.additionalStatus ? <AdditionalStatusBadge status={row.additionalStatus} /> : null),
      };
    case 'Standard':
      return { ...base, cell: (row) => t(`standard.${row.standard}`) };
    case 'Version':
      return { ...base, cell: (row) => ltr(row.version) };
    case 'TestOut':
      return { ...base, cell: (row) => (row.test ? t('yes') : t('no')) };
    case 'KsefNumber':
      // Sent (accepted by KSeF) and received KSeF invoices alike.
      return { ...base, cell: (row) => ltr(row.ksefNumber) };
  }
}
