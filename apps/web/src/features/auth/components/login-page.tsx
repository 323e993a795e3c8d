import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { Link, getRouteApi, useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  LoginRequestSchema,
  REGISTRATION_TOKEN_COOKIE,
  REGISTRATION_TOKEN_TTL_SECONDS,
  TOAST_DURATION_MS,
  isLanguage,
  type LoginMessage,
  type LoginRequest,
  type VindicationInfoResponse,
} from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { setCookie } from '../../../lib/cookies.ts';
import { findErrorText, validationText } from '../../../lib/error-text.ts';
import { splitHoursMinutes, formatMinutes } from '../../../lib/format.ts';
import { showSuccess, closeLabel } from '../../../lib/notify.ts';
import { syncUserLanguage, useLoginMutation } from '../api/auth-mutations.ts';
import { useResendVerification } from '../api/resend-verification.ts';
import { LOGIN_TOAST_ID } from '../../../app/session/session-watcher.tsx';
import type { LoginOutcome } from '../api/login-flow.ts';
import { safeReturnUrl } from '../../../app/session/guards.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { AccountShell } from './account-shell.tsx';
import { PasswordField } from './password-field.tsx';
import { BlockedAlert } from './blocked-alert.tsx';
import { LegacyPrompt } from './legacy-prompt.tsx';
import { VindicationDetails } from './vindication-details.tsx';

const loginRouteApi = getRouteApi('/login');

type FailedOutcome = Exclude<LoginOutcome, { kind: 'success' } | { kind: 'legacy' }>;

export function LoginPage() {
  const { t, i18n } = useTranslation(['auth', 'common', 'errors']);
  const search = loginRouteApi.useSearch();
  const navigate = loginRouteApi.useNavigate();
  const router = useRouter();
  const session = useSession();
  const api = useApi();
  const login = useLoginMutation();
  const [failure, setFailure] = useState<FailedOutcome | undefined>();
  const [formInvalid, setFormInvalid] = useState(false);
  const [legacyOpen, setLegacyOpen] = useState(false);

  const form = useForm<LoginRequest>({
    resolver: zodResolver(LoginRequestSchema),
    defaultValues: { login: '', password: '' },
    mode: 'onTouched',
  });

  useArrivalMessage(search.msgType, search.msgText, () =>
    navigate({ search: (prev) => ({ returnUrl: prev.returnUrl }), replace: true }),
  );

  // After the timed logout of a limited company, the blocked error explains why (description, section 4).
  useEffect(() => {
    const last = session.takeLastLogout();
    // Read once from the session (an external store) when the page opens; it cannot be derived during render.
    if (last?.reason === 'limited') {
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setFailure({ kind: 'blocked', code: 'auth.account_blocked', vindication: last.vindication });
    }
  }, [session]);

  async function onValid(values: LoginRequest) {
    setFormInvalid(false);
    setFailure(undefined);
    let outcome: LoginOutcome;
    try {
      outcome = await login.mutateAsync(values);
    } catch {
      return; // The API client has already shown the error toast.
    }
    if (outcome.kind === 'legacy') {
      setCookie(REGISTRATION_TOKEN_COOKIE, outcome.registrationToken, REGISTRATION_TOKEN_TTL_SECONDS / 86_400);
      setLegacyOpen(true);
      return;
    }
    if (outcome.kind !== 'success') {
      setFailure(outcome);
      return;
    }
    if (!session.signIn(outcome.tokens, outcome.vindication)) {
      setFailure({ kind: 'error', code: 'auth.token_invalid', status: 200 });
      return;
    }
    showSuccess({ id: LOGIN_TOAST_ID, message: t('auth:login.success') });
    if (outcome.vindication?.vindicationInfo.loginStatus === 'OK_LIMITED' && outcome.vindication.hoursDelayLogout > 0) {
      showLimitedWarning(outcome.vindication);
    }
    if (isLanguage(i18n.language)) void syncUserLanguage(api, i18n.language);
    router.history.push(safeReturnUrl(search.returnUrl));
  }

  function showLimitedWarning(vindication: VindicationInfoResponse) {
    const id = 'session-limited';
    notifications.show({
      ...closeLabel(),
      id,
      color: 'yellow',
      autoClose: TOAST_DURATION_MS,
      message: (
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm">{t('auth:limited.warning', splitHoursMinutes(vindication.hoursDelayLogout))}</Text>
          <Button
            size="compact-sm"
            variant="outline"
            onClick={() => {
              notifications.hide(id);
              modals.open({
                title: t('auth:vindication.title'),
                centered: true,
                closeButtonProps: { 'aria-label': t('common:close') },
                children: <VindicationDetails vindication={vindication} />,
              });
            }}
          >
            {t('auth:login.more')}
          </Button>
        </Group>
      ),
    });
  }

  return (
    <AccountShell title={t('auth:login.title')} subtitle={t('auth:login.subtitle')} busy={login.isPending}>
      <form
        noValidate
        onSubmit={form.handleSubmit(onValid, () => {
          setFailure(undefined);
          setFormInvalid(true);
        })}
      >
        <Stack gap="md">
          {formInvalid ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={20} />}
              role="alert"
              data-testid="login-form-error"
            >
              {t('auth:login.provideCredentials')}
            </Alert>
          ) : null}
          <FailureMessage failure={failure} />
          <TextInput
            label={t('auth:login.email')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            error={validationText(form.formState.errors.login?.message)}
            {...form.register('login')}
          />
          <PasswordField
            label={t('auth:login.password')}
            autoComplete="current-password"
            error={validationText(form.formState.errors.password?.message)}
            {...form.register('password')}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/password-reset" size="sm">
              {t('auth:login.forgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={login.isPending}>
            {t('auth:login.submit')}
          </Button>
          <Text size="sm" ta="center">
            {t('auth:login.noAccount')}{' '}
            <Anchor component={Link} to="/register" fw={600}>
              {t('auth:login.createAccount')}
            </Anchor>
          </Text>
        </Stack>
      </form>
      <LegacyPrompt opened={legacyOpen} onClose={() => setLegacyOpen(false)} />
    </AccountShell>
  );
}

/** Shows the `msgType`/`msgText` notification once on arrival, then drops them from the URL so a reload is quiet. */
function useArrivalMessage(
  msgType: 'error' | 'success' | undefined,
  msgText: LoginMessage | undefined,
  clear: () => void,
): void {
  const { t } = useTranslation('auth');
  const shown = useRef(false);
  useEffect(() => {
    if (!msgText || shown.current) return;
    shown.current = true;
    const isError = msgType
      ? msgType === 'error'
      : ['actionExpired', 'actionError', 'sessionExpired'].includes(msgText);
    notifications.show({
      ...closeLabel(),
      color: isError ? 'red' : 'green',
      autoClose: TOAST_DURATION_MS,
      message: t(`loginMessages.${msgText}`),
    });
    clear();
  }, [msgType, msgText, t, clear]);
}

function FailureMessage({ failure }: { failure: FailedOutcome | undefined }) {
  const { t, i18n } = useTranslation(['auth', 'errors']);
  const verification = useResendVerification();
  if (!failure) return null;
  switch (failure.kind) {
    case 'invalid':
      return (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert" data-testid="login-error">
          {t('auth:login.invalidCredentials')}
        </Alert>
      );
    case 'blocked':
      return <BlockedAlert code={failure.code} vindication={failure.vindication} />;
    case 'notVerified':
      return (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconMailForward size={20} />}
          role="alert"
          data-testid="login-not-verified"
        >
          <Text size="sm">{t('errors:auth.email_not_verified')}</Text>
          {failure.userId ? (
            <Button
              mt="xs"
              size="xs"
              variant="outline"
              loading={verification.isPending}
              onClick={() => {
                if (failure.userId) verification.resend(failure.userId);
              }}
            >
              {t('auth:register.resend')}
            </Button>
          ) : null}
        </Alert>
      );
    case 'tooManyAttempts':
    case 'accountLocked':
      return (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert" data-testid="login-error">
          {t(failure.kind === 'accountLocked' ? 'auth:login.accountLocked' : 'auth:login.tooManyAttempts', {
            duration: formatMinutes(i18n.language, Math.max(1, Math.ceil(failure.retryAfterSeconds / 60))),
          })}
        </Alert>
      );
    case 'error':
      // Server failures already raised an `Error <code>` toast.
      if (failure.status === 0 || failure.status >= 500) return null;
      return (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert" data-testid="login-error">
          {findErrorText(failure.code) ?? t('errors:http.generic')}
        </Alert>
      );
  }
}
