import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ValidateEdifactResponse } from '@portal/contracts';
import { MessageStatusBadge } from './severity-badge.tsx';

type MessageSummary = ValidateEdifactResponse['messages'][number];

/** One row per message of the document (UNH..UNT) with its verdict. */
export function MessageList({
  messages,
  onSelectLine,
}: {
  messages: readonly MessageSummary[];
  onSelectLine: (line: number) => void;
}) {
  const { t, i18n } = useTranslation('edifact');
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table withTableBorder verticalSpacing="xs" fz="sm" aria-label={t('messages.title')} data-testid="message-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('messages.reference')}</Table.Th>
            <Table.Th>{t('messages.type')}</Table.Th>
            <Table.Th>{t('messages.version')}</Table.Th>
            <Table.Th>{t('messages.association')}</Table.Th>
            <Table.Th>{t('messages.documentNumber')}</Table.Th>
            <Table.Th>{t('messages.line')}</Table.Th>
            <Table.Th>{t('messages.status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {messages.map((m, index) => (
            <Table.Tr
              key={`${m.reference}-${String(index)}`}
              tabIndex={0}
              style={{ cursor: 'pointer' }}
              onClick={() => onSelectLine(m.line)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') onSelectLine(m.line);
              }}
            >
              <Table.Td>{m.reference}</Table.Td>
              <Table.Td>{m.type}</Table.Td>
              <Table.Td>{m.version}</Table.Td>
              <Table.Td>{m.association}</Table.Td>
              <Table.Td>{m.documentNumber}</Table.Td>
              <Table.Td>{number(m.line)}</Table.Td>
              <Table.Td>
                <MessageStatusBadge status={m.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
