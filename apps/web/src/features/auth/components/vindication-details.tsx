import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { VindicationInfoResponse } from '@portal/contracts';
import { formatDateTime, formatMinutes, splitHoursMinutes } from '../../../lib/format.ts';

/** The restriction facts of a blocked or limited company, shown behind the More button (description, section 4). */
export function VindicationDetails({ vindication }: { vindication: VindicationInfoResponse | undefined }) {
  const { t, i18n } = useTranslation('auth');
  const info = vindication?.vindicationInfo;
  const none = t('vindication.none');
  const delay = splitHoursMinutes(vindication?.hoursDelayLogout ?? 0);
  const rows: { label: string; value: string; testId: string }[] = [
    {
      label: t('vindication.waitTime'),
      value: info?.restrictionWaitTime != null ? formatMinutes(i18n.language, info.restrictionWaitTime) : none,
      testId: 'vindication-wait-time',
    },
    {
      label: t('vindication.workingStart'),
      value: info?.restrictionWorkingStart ? formatDateTime(i18n.language, info.restrictionWorkingStart) : none,
      testId: 'vindication-working-start',
    },
    {
      label: t('vindication.delay'),
      value: vindication?.hoursDelayLogout ? t('vindication.hoursMinutes', delay) : none,
      testId: 'vindication-delay',
    },
  ];
  return (
    <>
      <Table variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.testId}>
              <Table.Th w="45%">{row.label}</Table.Th>
              <Table.Td data-testid={row.testId}>{row.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text fw={600} mt="md" size="sm">
        {t('vindication.message')}
      </Text>
      {/* Plain text from the server: React escapes it. */}
      <Text size="sm" data-testid="vindication-message" style={{ whiteSpace: 'pre-line' }}>
        {info?.restrictionMessage || none}
      </Text>
    </>
  );
}
