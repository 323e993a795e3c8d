import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LoginStatus } from '@portal/contracts';

const STATUS_COLORS: Record<LoginStatus, string> = {
  OK: 'green',
  OK_LIMITED: 'yellow',
  BLOCKED: 'red',
  SYS_DISABLE: 'grape',
  ERROR: 'orange',
  NOTSET: 'gray',
};

/** A company's login status as a coloured label (dark text on a light fill, readable at AA contrast). */
export function StatusBadge({ status }: { status: LoginStatus }) {
  const { t } = useTranslation('admin');
  const color = STATUS_COLORS[status];
  return (
    <Badge variant="dot" color={color} data-testid="company-status">
      {t(`status.names.${status}`)}
    </Badge>
  );
}
