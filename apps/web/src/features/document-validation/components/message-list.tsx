import { Group, Paper, Stack, Table, Text } from '@mantine/core';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ValidateEdifactResponse } from '@portal/contracts';
import { useResultCards } from './findings-table.tsx';
import classes from './findings-table.module.css';
import { MessageStatusBadge } from './severity-badge.tsx';

type MessageSummary = ValidateEdifactResponse['messages'][number];

/** One row per message of the document (UNH..UNT) with its verdict; a card each on a phone. */
export function MessageList({
  messages,
  onSelectLine,
}: {
  messages: readonly MessageSummary[];
  onSelectLine: (line: number) => void;
}) {
  const { t, i18n } = useTranslation('edifact');
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  const cards = useResultCards();
  if (cards) {
    return (
      <Stack
        component="ul"
        gap="sm"
        className={classes.cards}
        aria-label={t('messages.title')}
        data-testid="message-list"
      >
        {messages.map((m, index) => (
          <Paper
            component="li"
            key={`${m.reference}-${String(index)}`}
            withBorder
            p="sm"
            tabIndex={0}
            className={classes.card}
            onClick={() => onSelectLine(m.line)}
            onKeyDown={(event: KeyboardEvent<HTMLElement>) => {
              if (event.key === 'Enter') onSelectLine(m.line);
            }}
          >
            <Group gap="xs" wrap="wrap">
              <MessageStatusBadge status={m.status} />
              <Text size="sm" fw={600}>
                {[m.type, m.version, m.association].filter(Boolean).join(' ')}
              </Text>
            </Group>
            <dl className={classes.lines}>
              {(
                [
                  ['reference', m.reference],
                  ['documentNumber', m.documentNumber],
                  ['line', number(m.line)],
                ] as const
              ).map(([key, value]) =>
                value ? (
                  <div key={key} className={classes.line}>
                    <Text component="dt" size="sm" c="gray.7">
                      {t(`messages.${key}`)}
                    </Text>
                    <Text component="dd" size="sm">
                      {value}
                    </Text>
                  </div>
                ) : null,
              )}
            </dl>
          </Paper>
        ))}
      </Stack>
    );
  }
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
