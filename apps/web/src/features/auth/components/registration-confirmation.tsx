import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useResendVerification } from '../api/resend-verification.ts';
import { AccountShell } from './account-shell.tsx';

/** 'Confirm your e-mail address / Check your e-mail box' after a registration (description, section 2). */
export function RegistrationConfirmation({ userId, email }: { userId: string; email: string }) {
  const { t } = useTranslation('auth');
  const verification = useResendVerification();
  return (
    <AccountShell
      title={t('register.confirmTitle')}
      subtitle={t('register.confirmSubtitle')}
      busy={verification.isPending}
    >
      <Stack gap="md" data-testid="registration-confirmation">
        <ThemeIcon size={56} radius="xl" variant="light" color="green.8" mx="auto" aria-hidden>
          <IconMailCheck size={30} />
        </ThemeIcon>
        <Text ta="center">{t('register.confirmText', { email })}</Text>
        <Button variant="light" fullWidth loading={verification.isPending} onClick={() => verification.resend(userId)}>
          {t('register.resend')}
        </Button>
        <Button component={Link} to="/login" fullWidth>
          {t('register.backToLoginPage')}
        </Button>
      </Stack>
    </AccountShell>
  );
}
