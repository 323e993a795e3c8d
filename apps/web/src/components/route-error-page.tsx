import { Button, Center, Stack, Text, Title } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ChunkLoadError } from '../lib/lazy-import.ts';

/** Shown when a route fails, most often a script chunk that could not be loaded after a new release. */
export function RouteErrorPage({ error }: ErrorComponentProps) {
  const { t } = useTranslation('common');
  const isChunk = error instanceof ChunkLoadError;
  return (
    <Center component="main" mih="60vh" p="md">
      <Stack align="center" maw={480} ta="center">
        <Title order={1} size="h2">
          {t(isChunk ? 'routeError.chunkTitle' : 'routeError.title')}
        </Title>
        <Text>{t(isChunk ? 'routeError.chunkText' : 'routeError.text')}</Text>
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
      </Stack>
    </Center>
  );
}
