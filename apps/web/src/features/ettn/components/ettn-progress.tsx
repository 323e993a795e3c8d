import { Alert, Box, Group, Text, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { EttnStatusCode } from '@portal/contracts';

/** The ordered progression of a note on the road (description: PLANNED … SIGNED; CANCELED ends it off the path). */
export const ETTN_PROGRESSION = ['PLANNED', 'PICKUP', 'ONSTORAGE', 'ARRIVED', 'SIGNATURE_PENDING', 'SIGNED'] as const;

/**
 * Where the note is in its progression: the steps passed are ticked, the current one is marked (`aria-current`).
 * A note that is cancelled, failed or not yet registered is off the path: said in words under it.
 */
export function EttnProgress({ status }: { status: EttnStatusCode }) {
  const { t } = useTranslation('ettn');
  const index = ETTN_PROGRESSION.findIndex((s) => s === status);
  return (
    <Box>
      <Text fw={600} size="sm" mb={4} id="ettn-progress-title">
        {t('view.progress')}
      </Text>
      <Group
        component="ol"
        gap="xs"
        aria-labelledby="ettn-progress-title"
        data-testid="ettn-progress"
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {ETTN_PROGRESSION.map((step, i) => {
          const done = index >= 0 && i < index;
          const current = i === index;
          return (
            <Group
              component="li"
              key={step}
              gap={4}
              wrap="nowrap"
              aria-current={current ? 'step' : undefined}
              data-state={current ? 'current' : done ? 'done' : 'todo'}
            >
              <ThemeIcon
                size="sm"
                radius="xl"
                variant={current || done ? 'filled' : 'light'}
                color={done ? 'green' : 'blue'}
                aria-hidden
              >
                {done ? <IconCheck size={12} /> : <Text size="xs">{i + 1}</Text>}
              </ThemeIcon>
              <Text size="sm" fw={current ? 700 : 400} c={current || done ? undefined : 'dimmed'}>
                {t(`status.${step}`)}
              </Text>
            </Group>
          );
        })}
      </Group>
      {index < 0 ? (
        <Alert mt="xs" color={status === 'CANCELED' || status === 'ERROR' ? 'red' : 'gray'} variant="light" p="xs">
          {t('view.progressOff', { status: t(`status.${status}`) })}
        </Alert>
      ) : null}
    </Box>
  );
}
