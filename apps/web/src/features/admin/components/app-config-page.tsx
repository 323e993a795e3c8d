import type { ReactElement } from 'react';
import { Alert, Center, Loader, Paper, Tabs } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@portal/contracts';
import { LOCALES } from '@portal/i18n';
import { useApi } from '../../../lib/api-context.tsx';
import { paymentReminderQuery } from '../api/admin-queries.ts';
import { AdminPage } from './admin-page.tsx';
import { PaymentReminderForm } from './payment-reminder-form.tsx';

/** App config: the payment reminder's texts, one tab per language. */
export function AppConfigPage(): ReactElement {
  const { t } = useTranslation('admin');
  const api = useApi();
  const query = useQuery(paymentReminderQuery(api));

  return (
    <AdminPage title={t('appConfig.title')} description={t('appConfig.description')}>
      {query.isLoading ? (
        <Center py="xl">
          <Loader aria-label={t('list.loading')} />
        </Center>
      ) : query.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert">
          {t('list.failed')}
        </Alert>
      ) : (
        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
          <Tabs defaultValue="en" keepMounted={false}>
            <Tabs.List aria-label={t('appConfig.languages')}>
              {LANGUAGES.map((lang) => (
                <Tabs.Tab key={lang} value={lang} lang={lang} dir={LOCALES[lang].dir}>
                  {LOCALES[lang].name}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {LANGUAGES.map((lang) => (
              <Tabs.Panel key={lang} value={lang} pt="lg">
                <PaymentReminderForm lang={lang} entry={query.data?.find((e) => e.lang === lang)?.content} />
              </Tabs.Panel>
            ))}
          </Tabs>
        </Paper>
      )}
    </AdminPage>
  );
}
