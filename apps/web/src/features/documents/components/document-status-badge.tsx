import { Badge } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_BUSINESS_STATUSES,
  type DocumentAdditionalStatus,
  type DocumentBusinessStatus,
  type DocumentStatus,
} from '@portal/contracts';

/** Each status its colour; the text stays near-black on the light background for AA contrast (striped rows too). */
export const STATUS_COLORS: Record<DocumentStatus, string> = {
  received: 'blue',
  read: 'gray',
  sent: 'green',
  error: 'red',
  waiting: 'yellow',
};

export const ADDITIONAL_COLORS: Record<DocumentAdditionalStatus, string> = {
  cancelled: 'red',
  partially_completed: 'orange',
  completed: 'teal',
  printed: 'grape',
  enriched: 'indigo',
};

export function DocumentStatusBadge({ status }: { status: DocumentStatus }) {
  const { t } = useTranslation('documents');
  return (
    <Badge color={STATUS_COLORS[status]} c="dark.7" variant="light" tt="none" data-testid={`document-status-${status}`}>
      {t(`status.${status}`)}
    </Badge>
  );
}

export function AdditionalStatusBadge({ status }: { status: DocumentAdditionalStatus }) {
  const { t } = useTranslation('documents');
  return (
    <Badge
      color={ADDITIONAL_COLORS[status]}
      c="dark.7"
      variant="light"
      tt="none"
      data-testid={`document-additional-status-${status}`}
    >
      {t(`additionalStatus.${status}`)}
    </Badge>
  );
}

/** The business statuses' colours: blue for new, teal and green as the order goes well, red when it does not. */
export const BUSINESS_COLORS: Record<DocumentBusinessStatus, string> = {
  new_order: 'blue',
  confirmed: 'teal',
  rejected: 'red',
  modified_awaiting_validation: 'orange',
  modified_awaiting_despatch: 'orange',
  suspended_before_dispatch: 'yellow',
  suspended_after_dispatch: 'yellow',
  cancellation_requested: 'pink',
  cancelled: 'red',
  collection_confirmed: 'cyan',
  dispatched: 'indigo',
  sent: 'green',
  delivered: 'green',
  anomaly_reported: 'red',
  partly_invoiced: 'violet',
  invoiced: 'grape',
};

const isBusinessStatus = (value: string): value is DocumentBusinessStatus =>
  DOCUMENT_BUSINESS_STATUSES.some((s) => s === value);

/** The label of a business status; one the list does not know, as sent. */
export function businessStatusLabel(t: TFunction<'documents'>, status: string): string {
  return isBusinessStatus(status) ? t(`businessStatus.${status}`) : status;
}

/** A business status as a badge; one a later standard sends that the list does not know, as sent. */
export function BusinessStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('documents');
  if (!isBusinessStatus(status)) return <>{status}</>;
  return (
    <Badge
      color={BUSINESS_COLORS[status]}
      c="dark.7"
      variant="light"
      tt="none"
      data-testid={`document-business-status-${status}`}
    >
      {t(`businessStatus.${status}`)}
    </Badge>
  );
}
