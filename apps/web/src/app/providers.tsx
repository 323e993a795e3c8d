import { DirectionProvider, MantineProvider } from '@mantine/core';
import { DatesProvider, type DatesProviderSettings } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage, TOAST_DURATION_MS, type Language } from '@portal/contracts';
// The date pickers' month and weekday names, one dayjs locale for each language of the portal (English is built in).
import 'dayjs/locale/ar';
import 'dayjs/locale/de';
import 'dayjs/locale/es';
import 'dayjs/locale/fr';
import 'dayjs/locale/hu';
import 'dayjs/locale/it';
import 'dayjs/locale/ms';
import 'dayjs/locale/pl';
import 'dayjs/locale/th';
import 'dayjs/locale/uk';
import { ApiProvider } from '../lib/api-context.tsx';
import { SessionProvider } from './session/session-context.tsx';
import type { Services } from './services.ts';
import { cssVariablesResolver, themeWithCloseLabel } from './theme.ts';

/** The date pickers' calendar in a language: its dayjs locale, the first day of its week and its weekend. */
function datesSettings(language: Language): DatesProviderSettings {
  if (language === 'ar') return { locale: 'ar', firstDayOfWeek: 6, weekendDays: [5, 6] };
  if (language === 'th') return { locale: 'th', firstDayOfWeek: 0 };
  return { locale: language, firstDayOfWeek: 1 };
}

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
  const { t, i18n } = useTranslation('common');
  const closeLabel = t('close');
  const theme = useMemo(() => themeWithCloseLabel(closeLabel), [closeLabel]);
  const language = isLanguage(i18n.language) ? i18n.language : 'en';
  const dates = useMemo(() => datesSettings(language), [language]);
  return (
    <DirectionProvider initialDirection={dir} detectDirection={false}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={env}>
        <DatesProvider settings={dates}>
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
        </DatesProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
