import { DirectionProvider, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_DURATION_MS } from '@portal/contracts';
import { ApiProvider } from '../lib/api-context.tsx';
import { SessionProvider } from './session/session-context.tsx';
import type { Services } from './services.ts';
import { themeWithCloseLabel } from './theme.ts';

export function AppProviders({
  services,
  dir,
  env,
  children,
}: {
  services: Services;
  dir: 'ltr' | 'rtl';
  /** 'test' turns off Mantine transitions and portals in component tests. */
  env?: 'default' | 'test';
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  const closeLabel = t('close');
  const theme = useMemo(() => themeWithCloseLabel(closeLabel), [closeLabel]);
  return (
    <DirectionProvider initialDirection={dir} detectDirection={false}>
      <MantineProvider theme={theme} env={env}>
        <QueryClientProvider client={services.queryClient}>
          <ApiProvider api={services.api}>
            <SessionProvider session={services.session}>
              <ModalsProvider>
                <Notifications position="bottom-right" autoClose={TOAST_DURATION_MS} />
                {children}
              </ModalsProvider>
            </SessionProvider>
          </ApiProvider>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
