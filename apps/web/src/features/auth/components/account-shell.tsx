import { Box, List, LoadingOverlay, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowsExchange, IconFileInvoice, IconShieldLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../../components/language-select.tsx';
import classes from './account-shell.module.css';

export const BRAND_NAME = 'Open EDI Portal';

export type AccountShellProps = {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Shows the spinner overlay over the card while a request is under way. */
  busy?: boolean;
  children: ReactNode;
};

/** The frame shared by /login, /register, /password-reset and /set-password. */
export function AccountShell({ title, subtitle, busy = false, children }: AccountShellProps) {
  const { t } = useTranslation('common');
  return (
    <div className={classes.page}>
      <header className={classes.header}>
        <a href="/" className={classes.brand}>
          <span className={classes.logo} aria-hidden>
            <IconArrowsExchange size={20} stroke={2.2} />
          </span>
          {BRAND_NAME}
        </a>
        <LanguageSelect />
      </header>
      <main className={classes.main}>
        <Box className={classes.intro}>
          <Text fw={700} fz={28} lh={1.25} c="blue.9">
            {t('shell.headline')}
          </Text>
          <Text mt="md">{t('shell.lead')}</Text>
          <List mt="lg" spacing="sm" center>
            <List.Item icon={<FeatureIcon icon={<IconArrowsExchange size={14} />} />}>
              {t('shell.featureExchange')}
            </List.Item>
            <List.Item icon={<FeatureIcon icon={<IconFileInvoice size={14} />} />}>
              {t('shell.featureInvoices')}
            </List.Item>
            <List.Item icon={<FeatureIcon icon={<IconShieldLock size={14} />} />}>{t('shell.featureSecure')}</List.Item>
          </List>
        </Box>
        <Paper className={classes.card} withBorder shadow="md" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
          <LoadingOverlay
            visible={busy}
            zIndex={10}
            overlayProps={{ radius: 'lg', blur: 1 }}
            data-testid="busy-overlay"
          />
          <Stack gap={6} mb="lg">
            <Title order={1} size="h2">
              {title}
            </Title>
            {subtitle ? <Text c="dimmed">{subtitle}</Text> : null}
          </Stack>
          {children}
        </Paper>
      </main>
      <footer className={classes.footer}>
        <Text size="sm" c="dimmed">
          {t('shell.footer', { brand: BRAND_NAME })}
        </Text>
      </footer>
    </div>
  );
}

function FeatureIcon({ icon }: { icon: ReactNode }) {
  return (
    <ThemeIcon size={28} radius="xl" variant="light" color="blue" aria-hidden>
      {icon}
    </ThemeIcon>
  );
}
