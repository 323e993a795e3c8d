import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SendResetPasswordEmailRequestSchema } from '@portal/contracts';
import type { z } from 'zod';
import { validationText } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useSendResetPasswordEmailMutation } from '../api/auth-mutations.ts';
import { AccountShell } from './account-shell.tsx';

type ResetForm = z.input<typeof SendResetPasswordEmailRequestSchema>;

export function PasswordResetPage() {
  const { t } = useTranslation(['auth', 'common']);
  const reset = useSendResetPasswordEmailMutation();
  const form = useForm<ResetForm>({
    resolver: zodResolver(SendResetPasswordEmailRequestSchema),
    defaultValues: { email: '' },
    mode: 'onTouched',
  });

  function onValid(values: z.output<typeof SendResetPasswordEmailRequestSchema>) {
    reset.mutate(values.email, {
      onSuccess: () => {
        showSuccess({ title: t('auth:passwordReset.sentTitle'), message: t('auth:passwordReset.sentText') });
        form.reset();
      },
    });
  }

  return (
    <AccountShell
      title={t('auth:passwordReset.title')}
      subtitle={t('auth:passwordReset.subtitle')}
      busy={reset.isPending}
    >
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="md">
          <TextInput
            label={t('auth:passwordReset.email')}
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            error={validationText(form.formState.errors.email?.message)}
            {...form.register('email')}
          />
          <Button type="submit" fullWidth loading={reset.isPending}>
            {t('auth:passwordReset.submit')}
          </Button>
          <Group justify="center">
            <Anchor component={Link} to="/login" size="sm" fw={600}>
              <Group gap={4} component="span">
                <IconArrowLeft size={16} aria-hidden className="mirror-rtl" />
                {t('auth:passwordReset.backToLoginPage')}
              </Group>
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AccountShell>
  );
}
