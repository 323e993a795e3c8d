import { Badge, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EttnStatusCode } from '@portal/contracts';

/** One colour per status: grey before registration, blue to teal on the road, green signed, red cancelled or failed. */
export const ETTN_STATUS_COLORS: Record<EttnStatusCode, MantineColor> = {
  NULL: 'gray',
  PENDING: 'gray',
  SIGNATURE_PENDING: 'yellow',
  REGISTRATION_PENDING: 'orange',
  PLANNED: 'blue',
  PICKUP: 'indigo',
  ONSTORAGE: 'violet',
  ARRIVED: 'teal',
  SIGNED: 'green',
  CANCELED: 'red',
  ERROR: 'red',
};

/** A note's status as a light badge with dark text (readable on every colour: axe colour-contrast). */
export function EttnStatusBadge({ status }: { status: EttnStatusCode }) {
  const { t } = useTranslation('ettn');
  return (
    <Badge
      color={ETTN_STATUS_COLORS[status]}
      c="dark.7"
      variant="light"
      tt="none"
      // Whole, never cut to "Pla…" when a table column is narrow.
      miw="max-content"
      data-testid={`ettn-status-${status}`}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
