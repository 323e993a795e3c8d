import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, SimpleGrid, Stack } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ChangePasswordRequestSchema, type ChangePasswordMessage } from '@portal/contracts';
import { z } from 'zod';
import { ApiError } from '../../../lib/api-error.ts';
import { applyServerDetails, fieldErrorText, findErrorText } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { PasswordChecklist } from '../../../components/password-checklist.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { useChangePasswordMutation } from '../api/profile-mutations.ts';

/** The request's fields plus the repeated password; the new one must differ from the current (section 5). */
export const PasswordFormSchema = ChangePasswordRequestSchema.pick({ currentPassword: true, newPassword: true })
  .extend({ repeatPassword: z.string().min(1, 'required') })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ['newPassword'], message: 'passwordSameAsCurrent' })
  .refine((v) => v.newPassword === v.repeatPassword, { path: ['repeatPassword'], message: 'passwordMismatch' });
type PasswordForm = z.input<typeof PasswordFormSchema>;

type Result = { kind: 'success' } | { kind: 'error'; text: string };

const EMPTY: PasswordForm = { currentPassword: '', newPassword: '', repeatPassword: '' };

/** Current, new (with the live checklist) and repeated password (`POST /api/users/changePassword`). */
export function PasswordPanel({ onDirtyChange }: { onDirtyChange: (dirty: boolean) => void }) {
  const { t } = useTranslation(['profile', 'auth', 'validation']);
  const session = useSession();
  const change = useChangePasswordMutation();
  const [result, setResult] = useState<Result | undefined>();
  const form = useForm<PasswordForm, unknown, z.output<typeof PasswordFormSchema>>({
    resolver: zodResolver(PasswordFormSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });

  /** The description's messages (section 8) for the `message` of a failed change. */
  function failureText(message: ChangePasswordMessage | undefined): string {
    if (message === 'CURRENT_PASSWORD_INCORRECT') return t('profile:password.currentIncorrect');
    return t('profile:messages.unknownError');
  }

  function onValid(values: z.output<typeof PasswordFormSchema>) {
    setResult(undefined);
    const state = session.getState();
    const refreshToken = state.status === 'authenticated' ? state.stored.refreshToken : undefined;
    change.mutate(
      {
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
        ...(refreshToken ? { refreshToken } : {}),
      },
      {
        onSuccess: (response) => {
          if (!response.success) {
            setResult({ kind: 'error', text: failureText(response.message) });
            return;
          }
          form.reset(EMPTY);
          setResult({ kind: 'success' });
          showSuccess({ message: t('profile:messages.success') });
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) {
            setResult({ kind: 'error', text: t('profile:messages.unknownError') });
            return;
          }
          const body = error.body as { message?: ChangePasswordMessage } | undefined;
          if (error.code === 'auth.current_password_incorrect' || body?.message === 'CURRENT_PASSWORD_INCORRECT') {
            form.setError(
              'currentPassword',
              { type: 'server', message: 'currentPasswordIncorrect' },
              { shouldFocus: true },
            );
            setResult({ kind: 'error', text: t('profile:password.currentIncorrect') });
          } else if (error.code === 'auth.password_same_as_current') {
            form.setError('newPassword', { type: 'server', message: 'passwordSameAsCurrent' }, { shouldFocus: true });
            setResult({ kind: 'error', text: t('profile:fieldErrors.passwordSameAsCurrent') });
          } else if (error.code === 'auth.too_many_password_attempts' || error.status === 429) {
            setResult({ kind: 'error', text: t('profile:password.tooManyAttempts') });
          } else if (error.code === 'auth.forbidden') {
            setResult({ kind: 'error', text: findErrorText(error.code) ?? t('profile:messages.unknownError') });
          } else {
            const matched =
              error.status === 400 &&
              error.code === 'validation.failed' &&
              applyServerDetails(error.details, ['currentPassword', 'newPassword'], form.setError);
            if (!matched) setResult({ kind: 'error', text: failureText(body?.message) });
          }
        },
      },
    );
  }

  const toggle = { 'aria-label': t('auth:password.toggle') };
  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} aria-label={t('profile:panels.password')}>
      <Stack gap="md" maw={720}>
        {result ? (
          <Alert
            role={result.kind === 'error' ? 'alert' : 'status'}
            color={result.kind === 'error' ? 'red' : 'green'}
            variant="light"
            icon={result.kind === 'error' ? <IconAlertCircle size={20} /> : <IconCircleCheck size={20} />}
            data-testid="password-result"
          >
            {result.kind === 'error' ? result.text : t('profile:messages.success')}
          </Alert>
        ) : null}
        <PasswordInput
          label={t('profile:password.current')}
          autoComplete="current-password"
          required
          visibilityToggleButtonProps={toggle}
          error={fieldErrorText(errors.currentPassword?.message, 'profile')}
          {...form.register('currentPassword')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PasswordInput
            label={t('profile:password.new')}
            autoComplete="new-password"
            required
            visibilityToggleButtonProps={toggle}
            aria-describedby="profile-password-checklist"
            error={fieldErrorText(errors.newPassword?.message, 'profile')}
            {...form.register('newPassword')}
          />
          <PasswordInput
            label={t('profile:password.repeat')}
            autoComplete="new-password"
            required
            visibilityToggleButtonProps={toggle}
            error={fieldErrorText(errors.repeatPassword?.message, 'profile')}
            {...form.register('repeatPassword')}
          />
        </SimpleGrid>
        <PasswordChecklist password={newPassword} id="profile-password-checklist" />
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            {t('profile:password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
