import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { documentTypeLabel } from '../../../i18n/document-type-label.ts';
import type { Partner, PartnerStatus } from '@portal/contracts';

const STATUS_COLOR: Record<PartnerStatus, string> = { active: 'green', new: 'blue', blocked: 'red' };

/** The partner's status, and "Test" when exchange with it is in test mode (colour behind near-black text, for AA). */
export function PartnerBadges({ partner }: { partner: Pick<Partner, 'status' | 'testMode'> }) {
  const { t } = useTranslation('partners');
  const color = STATUS_COLOR[partner.status];
  return (
    <Group gap={4} wrap="wrap">
      <Badge variant="light" color={color} c="dark.7" tt="none" data-testid="partner-status">
        {t(`status.${partner.status}`)}
      </Badge>
      {partner.testMode ? (
        <Badge variant="light" color="orange" c="dark.7" tt="none" data-testid="partner-test-mode">
          {t('testMode.badge')}
        </Badge>
      ) : null}
    </Group>
  );
}

/** The document types exchanged with the partner, one line per direction. */
export function PartnerDocTypes({ partner }: { partner: Pick<Partner, 'docTypesIn' | 'docTypesOut'> }) {
  const { t } = useTranslation('partners');
  const { t: common } = useTranslation('common');
  const line = (label: string, codes: readonly string[]) => (
    <Text size="sm">
      <Text span fw={600} size="sm">
        {label}:
      </Text>{' '}
      {codes.length ? codes.map((code) => documentTypeLabel(common, code)).join(', ') : t('docTypes.none')}
    </Text>
  );
  return (
    <Stack gap={2}>
      {line(t('docTypes.in'), partner.docTypesIn)}
      {line(t('docTypes.out'), partner.docTypesOut)}
    </Stack>
  );
}
