import { Badge } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type Severity = 'error' | 'warning' | 'info';
export type MessageStatus = 'valid' | 'warning' | 'error';

// Light badges with the darkest shade of text: the colour says it at a glance, the word says it to everyone, whole
// (a narrow table column must not cut it to an ellipsis).
const SEVERITY_LOOK = {
  error: { color: 'red', text: 'red.9', Icon: IconCircleX },
  warning: { color: 'yellow', text: 'dark.8', Icon: IconAlertTriangle },
  info: { color: 'blue', text: 'blue.9', Icon: IconInfoCircle },
} as const;

export function SeverityBadge({ severity }: { severity: Severity }) {
  const { t } = useTranslation('edifact');
  const look = SEVERITY_LOOK[severity];
  return (
    <Badge
      variant="light"
      color={look.color}
      c={look.text}
      leftSection={<look.Icon size={14} aria-hidden />}
      tt="none"
      miw="max-content"
      data-severity={severity}
    >
      {t(`severity.${severity}`)}
    </Badge>
  );
}

const STATUS_LOOK = {
  valid: { color: 'green', text: 'green.9', Icon: IconCircleCheck },
  warning: SEVERITY_LOOK.warning,
  error: SEVERITY_LOOK.error,
} as const;

export function MessageStatusBadge({ status }: { status: MessageStatus }) {
  const { t } = useTranslation('edifact');
  const look = STATUS_LOOK[status];
  return (
    <Badge
      variant="light"
      color={look.color}
      c={look.text}
      leftSection={<look.Icon size={14} aria-hidden />}
      tt="none"
      miw="max-content"
    >
      {t(`messageStatus.${status}`)}
    </Badge>
  );
}
