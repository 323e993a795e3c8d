import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordSchema } from '@portal/contracts';
import { z } from 'zod';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { applyServerDetails, validationText } from '../../../lib/error-text.ts';
import { actionTokenQuery } from '../api/auth-queries.ts';
import { useSetPasswordMutation } from '../api/auth-mutations.ts';
import { AccountShell } from './account-shell.tsx';
import { PasswordField } from './password-field.tsx';
import { PasswordChecklist } from '../../../components/password-checklist.tsx';

const setPasswordRouteApi = getRouteApi('/set-password');

const SetPasswordFormSchema = z
  .object({ password: PasswordSchema, repeat: z.string().min(1, 'required') })
  .refine((v) => v.password === v.repeat, { message: 'passwordMismatch', path: ['repeat'] });
type SetPasswordForm = z.input<typeof SetPasswordFormSchema>;

type LinkProblem = 'auth.link_expired' | 'auth.link_invalid';

/** The page of an e-mailed one-time link: a password reset or an invitation (`purpose`). */
export function SetPasswordPage() {
  const { t } = useTranslation('auth');
  const { token } = setPasswordRouteApi.useSearch();
  const api = useApi();
  const check = useQuery({ ...actionTokenQuery(api, token ?? ''), enabled: Boolean(token) });
  const [problem, setProblem] = useState<LinkProblem | undefined>();

  if (token && check.isPending) {
    return (
      <AccountShell title={t('setPassword.title')}>
        <PageLoader />
      </AccountShell>
    );
  }
  const reason: LinkProblem | undefined =
    problem ??
    (!token || check.isError || !check.data?.valid
      ? check.data?.reason === 'auth.link_expired'
        ? 'auth.link_expired'
        : 'auth.link_invalid'
      : undefined);
  if (reason || !token || !check.data) return <LinkProblemView reason={reason ?? 'auth.link_invalid'} />;
  return (
    <SetPasswordForm
      token={token}
      purpose={check.data.purpose ?? 'reset'}
      email={check.data.email}
      onLinkProblem={setProblem}
    />
  );
}

/** 'Action expired.' or 'An error occurred, please login again through your application.' (section 8). */
function LinkProblemView({ reason }: { reason: LinkProblem }) {
  const { t } = useTranslation('auth');
  return (
    <AccountShell title={t('setPassword.title')}>
      <Stack gap="md">
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={20} />}
          role="alert"
          data-testid="set-password-link-problem"
        >
          {t(reason === 'auth.link_expired' ? 'loginMessages.actionExpired' : 'loginMessages.actionError')}
        </Alert>
        <Button component={Link} to="/login" fullWidth>
          {t('passwordReset.backToLoginPage')}
        </Button>
      </Stack>
    </AccountShell>
  );
}

function SetPasswordForm(props: {
  token: string;
  purpose: 'reset' | 'invite';
  email: string | undefined;
  onLinkProblem: (reason: LinkProblem) => void;
}) {
  const { t } = useTranslation(['auth', 'common']);
  const navigate = useNavigate();
  const setPassword = useSetPasswordMutation();
  const form = useForm<SetPasswordForm>({
    resolver: zodResolver(SetPasswordFormSchema),
    defaultValues: { password: '', repeat: '' },
    mode: 'onTouched',
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const { errors } = form.formState;

  function onValid(values: z.output<typeof SetPasswordFormSchema>) {
    setPassword.mutate(
      { token: props.token, password: values.password },
      {
        onSuccess: () =>
          void navigate({
            to: '/login',
            search: {
              msgType: 'success',
              msgText: props.purpose === 'invite' ? 'invitationAccepted' : 'passwordChanged',
            },
          }),
        onError: (error) => {
          if (!(error instanceof ApiError)) return;
          if (error.code === 'auth.link_expired' || error.code === 'auth.link_invalid') props.onLinkProblem(error.code);
          else if (error.status === 400) applyServerDetails(error.details, ['password'], form.setError);
        },
      },
    );
  }

  const title = props.purpose === 'invite' ? t('auth:setPassword.inviteTitle') : t('auth:setPassword.title');
  return (
    <AccountShell title={title} subtitle={t('auth:setPassword.subtitle')} busy={setPassword.isPending}>
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="md">
          {props.email ? (
            <Text size="sm">
              {t('auth:setPassword.forAccount')} <strong>{props.email}</strong>
            </Text>
          ) : null}
          <PasswordField
            label={t('auth:setPassword.password')}
            autoComplete="new-password"
            error={validationText(errors.password?.message)}
            {...form.register('password')}
          />
          <PasswordField
            label={t('auth:setPassword.repeat')}
            autoComplete="new-password"
            error={validationText(errors.repeat?.message)}
            {...form.register('repeat')}
          />
          <PasswordChecklist password={password} id="set-password-checklist" />
          <Button type="submit" fullWidth loading={setPassword.isPending}>
            {t('common:save')}
          </Button>
          <Group justify="center">
            <Anchor component={Link} to="/login" size="sm" fw={600}>
              {t('auth:passwordReset.backToLoginPage')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AccountShell>
  );
}
