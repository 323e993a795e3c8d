import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RegisterRequestSchema, REGISTRATION_TOKEN_COOKIE } from '@portal/contracts';
import type { z } from 'zod';
import { findCookieLanguage } from '../../../i18n/language.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { deleteCookie, getCookie } from '../../../lib/cookies.ts';
import { applyServerDetails, validationText } from '../../../lib/error-text.ts';
import { useRegisterMutation } from '../api/auth-mutations.ts';
import { AccountShell } from './account-shell.tsx';
import { PasswordField } from './password-field.tsx';
import { PasswordChecklist } from '../../../components/password-checklist.tsx';
import { RegistrationConfirmation } from './registration-confirmation.tsx';

const RegisterFormSchema = RegisterRequestSchema.pick({ firstName: true, lastName: true, email: true, password: true });
type RegisterForm = z.input<typeof RegisterFormSchema>;
const FIELDS = ['firstName', 'lastName', 'email', 'password'] as const;

type FormAlert = 'allRequired' | 'invalid' | undefined;

/** 'All fields are required' when any is empty, else 'Please fill form with valid data' (description, section 5). */
function alertFor(errors: FieldErrors<RegisterForm>): FormAlert {
  return FIELDS.some((f) => errors[f]?.message === 'required') ? 'allRequired' : 'invalid';
}

export function RegisterPage() {
  const { t } = useTranslation(['auth', 'common', 'errors']);
  const register = useRegisterMutation();
  const [formAlert, setFormAlert] = useState<FormAlert>();
  const [registered, setRegistered] = useState<{ id: string; email: string } | undefined>();
  // Read once: the cookie is deleted after the first attempt, the note should stay.
  const [fromLegacy] = useState(() => Boolean(getCookie(REGISTRATION_TOKEN_COOKIE)));

  const form = useForm<RegisterForm>({
    resolver: zodResolver(RegisterFormSchema),
    defaultValues: { firstName: '', lastName: '', email: '', password: '' },
    mode: 'onTouched',
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const { errors } = form.formState;

  async function onValid(values: z.output<typeof RegisterFormSchema>) {
    setFormAlert(undefined);
    const registrationToken = getCookie(REGISTRATION_TOKEN_COOKIE);
    const locale = findCookieLanguage();
    try {
      const result = await register.mutateAsync({
        ...values,
        ...(locale ? { locale } : {}),
        ...(registrationToken ? { registrationToken } : {}),
      });
      setRegistered({ id: result.id, email: values.email });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        applyServerDetails(error.details, FIELDS, form.setError);
        setFormAlert('invalid');
      }
    } finally {
      // The registration token is good for one attempt (description, section 4).
      deleteCookie(REGISTRATION_TOKEN_COOKIE);
    }
  }

  if (registered) return <RegistrationConfirmation userId={registered.id} email={registered.email} />;

  return (
    <AccountShell title={t('auth:register.title')} subtitle={t('auth:register.subtitle')} busy={register.isPending}>
      <form noValidate onSubmit={form.handleSubmit(onValid, (errs) => setFormAlert(alertFor(errs)))}>
        <Stack gap="md">
          {fromLegacy ? (
            <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} />} data-testid="register-legacy-note">
              {t('auth:register.legacyNote')}
            </Alert>
          ) : null}
          {formAlert ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={20} />}
              role="alert"
              data-testid="register-form-error"
            >
              {t(formAlert === 'allRequired' ? 'auth:register.allRequired' : 'auth:register.invalidForm')}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label={t('auth:register.firstName')}
              autoComplete="given-name"
              required
              error={validationText(errors.firstName?.message)}
              {...form.register('firstName')}
            />
            <TextInput
              label={t('auth:register.lastName')}
              autoComplete="family-name"
              required
              error={validationText(errors.lastName?.message)}
              {...form.register('lastName')}
            />
          </SimpleGrid>
          <TextInput
            label={t('auth:register.email')}
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            error={validationText(errors.email?.message)}
            {...form.register('email')}
          />
          <PasswordField
            label={t('auth:register.password')}
            autoComplete="new-password"
            error={validationText(errors.password?.message)}
            {...form.register('password')}
          />
          <PasswordChecklist password={password} id="register-password-checklist" />
          <Button type="submit" fullWidth loading={register.isPending}>
            {t('auth:register.submit')}
          </Button>
          <Group justify="center">
            <Text size="sm">
              {t('auth:register.haveAccount')}{' '}
              <Anchor component={Link} to="/login" fw={600}>
                {t('auth:register.backToLogin')}
              </Anchor>
            </Text>
          </Group>
        </Stack>
      </form>
    </AccountShell>
  );
}
