import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UserStatus } from '@portal/contracts';

const COLORS: Record<UserStatus, string> = { active: 'green', invited: 'blue', disabled: 'gray' };

export function UserStatusBadge({ status }: { status: UserStatus }) {
  const { t } = useTranslation('user-management');
  return (
    // The colour is the background; the text stays near-black for AA contrast on striped rows too.
    <Badge color={COLORS[status]} c="dark.7" variant="light" data-testid={`status-${status}`}>
      {t(`users.status.${status}`)}
    </Badge>
  );
}
