import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../../lib/notify.ts';
import { useSendVerifyEmailMutation } from '../api/auth-mutations.ts';
import { AccountShell } from './account-shell.tsx';

/** 'Confirm your e-mail address / Check your e-mail box' after a registration (description, section 2). */
export function RegistrationConfirmation({ userId, email }: { userId: string; email: string }) {
  const { t } = useTranslation('auth');
  const resend = useSendVerifyEmailMutation();
  return (
    <AccountShell title={t('register.confirmTitle')} subtitle={t('register.confirmSubtitle')} busy={resend.isPending}>
      <Stack gap="md" data-testid="registration-confirmation">
        <ThemeIcon size={56} radius="xl" variant="light" color="green.8" mx="auto" aria-hidden>
          <IconMailCheck size={30} />
        </ThemeIcon>
        <Text ta="center">{t('register.confirmText', { email })}</Text>
        <Button
          variant="light"
          fullWidth
          loading={resend.isPending}
          onClick={() =>
            resend.mutate(userId, { onSuccess: () => showSuccess({ message: t('register.activationSent') }) })
          }
        >
          {t('register.resend')}
        </Button>
        <Button component={Link} to="/login" fullWidth>
          {t('register.backToLoginPage')}
        </Button>
      </Stack>
    </AccountShell>
  );
}
