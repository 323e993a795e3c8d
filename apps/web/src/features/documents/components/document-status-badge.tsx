import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DocumentAdditionalStatus, DocumentStatus } from '@portal/contracts';

/** Each status its colour; the text stays near-black on the light background for AA contrast (striped rows too). */
export const STATUS_COLORS: Record<DocumentStatus, string> = {
  received: 'blue',
  read: 'gray',
  sent: 'green',
  error: 'red',
  waiting: 'yellow',
};

const ADDITIONAL_COLORS: Record<DocumentAdditionalStatus, string> = {
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
    <Badge color={ADDITIONAL_COLORS[status]} c="dark.7" variant="light" tt="none">
      {t(`additionalStatus.${status}`)}
    </Badge>
  );
}
