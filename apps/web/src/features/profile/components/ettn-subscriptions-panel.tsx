import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** e-TTN transport-event subscriptions; the e-TTN module brings them, until then an empty state. */
export function EttnSubscriptionsPanel() {
  const { t } = useTranslation('profile');
  return (
    <Stack align="center" gap="xs" py="xl" ta="center" data-testid="ettn-subscriptions-empty">
      <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
        <IconTruckDelivery size={28} />
      </ThemeIcon>
      <Title order={2} size="h4">
        {t('ettn.emptyTitle')}
      </Title>
      <Text c="dimmed" maw={480}>
        {t('ettn.emptyText')}
      </Text>
    </Stack>
  );
}
