import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { Link, useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { NavLabel } from '../navigation.ts';

/** Areas whose pages arrive with later work; their links must never end on "page not found" inside the app. */
const AREAS: readonly { path: string; label: NavLabel }[] = [
  { path: '/documents/out', label: 'outbox' },
  { path: '/ettn/pending', label: 'ettnPending' },
  { path: '/ettn', label: 'ettn' },
];

/** "<Area> is not available yet": a shared page for the areas still being built. */
export function ComingSoonPage() {
  const { t } = useTranslation('layout');
  const pathname = useLocation({ select: (location) => location.pathname });
  const area = AREAS.find((a) => pathname === a.path || pathname.startsWith(`${a.path}/`));
  const name = area ? t(`nav.${area.label}`) : t('brand');
  return (
    <Center mih="60vh">
      <Paper withBorder radius="lg" p="xl" maw={560} data-testid="coming-soon">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            <IconTools size={30} />
          </ThemeIcon>
          <Title order={1} size="h2">
            {t('comingSoon.title', { area: name })}
          </Title>
          <Text c="dimmed">{t('comingSoon.text')}</Text>
          <Button component={Link} to="/" variant="light" mt="sm">
            {t('comingSoon.back')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
