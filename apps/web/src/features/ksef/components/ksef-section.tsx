import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Center,
  Fieldset,
  FileInput,
  Group,
  Loader,
  PasswordInput,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconCertificate,
  IconCircleCheck,
  IconDownload,
  IconInfoCircle,
  IconPlugConnected,
  IconUpload,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  KSEF_AUTH_METHODS,
  KSEF_CERTIFICATE_MAX_BYTES,
  KSEF_ENVIRONMENT_NAMES,
  KsefSettingsUpdateSchema,
  type FeatureToggle,
  type KsefConnectionTest,
  type KsefConnectionView,
  type KsefSettingsUpdate,
} from '@portal/contracts';
import type { z } from 'zod';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { fieldErrorText, showFailure, showSaveFailure } from '../../../lib/error-text.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import {
  useReceiveKsefInvoicesMutation,
  useSaveKsefSettingsMutation,
  useTestKsefConnectionMutation,
  useUploadKsefCertificateMutation,
} from '../api/ksef-mutations.ts';
import { ksefSettingsQuery } from '../api/ksef-queries.ts';

/** The company toggles that bring KSeF (the server refuses its API with 403 without one of them). */
export const KSEF_TOGGLES: readonly FeatureToggle[] = ['KSEF', 'DEMO_KSEF'];

/** Whether the signed-in user's company has KSeF. */
export function useKsefAvailable(): boolean {
  return usePermissions().isOn(KSEF_TOGGLES);
}

type KsefForm = z.input<typeof KsefSettingsUpdateSchema>;
type KsefValues = z.output<typeof KsefSettingsUpdateSchema>;

const FIELDS: readonly Path<KsefForm>[] = ['nip', 'environment', 'baseUrl', 'authMethod', 'token'];

/** A certificate this close to its end gets a warning. */
const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

function toForm(settings: KsefConnectionView): KsefForm {
  return {
    nip: settings.nip ?? '',
    // Nothing saved yet: the simulator, where nothing reaches the Ministry.
    environment: settings.environment ?? 'simulator',
    baseUrl: settings.environment === 'custom' ? (settings.baseUrl ?? '') : '',
    authMethod: settings.authMethod ?? 'token',
    token: '',
  };
}

/** The base URL only for another address; the token only when one was typed (an absent token keeps the saved one). */
function toRequest(values: KsefValues): KsefSettingsUpdate {
  return {
    nip: values.nip,
    environment: values.environment,
    authMethod: values.authMethod,
    ...(values.environment === 'custom' ? { baseUrl: values.baseUrl } : {}),
    ...(values.authMethod === 'token' && values.token ? { token: values.token } : {}),
  };
}

/**
 * The company's KSeF connection (issue 13, part 3) on the profile's company panel: NIP, environment, login by KSeF
 * token or by certificate, and a connection test. Shown only in a company with the KSEF or DEMO_KSEF toggle; the
 * caller shows it only to company administrators (COMPANY_PROFILE_MODIFY).
 */
export function KsefSection({ onDirtyChange }: { onDirtyChange?: (dirty: boolean) => void }) {
  const available = useKsefAvailable();
  return available ? <KsefSettingsSection onDirtyChange={onDirtyChange} /> : null;
}

function KsefSettingsSection({ onDirtyChange }: { onDirtyChange?: (dirty: boolean) => void }) {
  const { t, ready } = useTranslation(['ksef', 'common']);
  const api = useApi();
  const query = useQuery(ksefSettingsQuery(api));
  // The catalog loads on first use: a select filled before it would keep showing its keys.
  if (!ready) return null;

  return (
    <Stack gap="md" component="section" aria-labelledby="ksef-title" data-testid="ksef">
      <div>
        <Title order={3} size="h4" id="ksef-title">
          {t('ksef:title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('ksef:description')}
        </Text>
      </div>
      {query.isError ? (
        <Alert color="red" icon={<IconAlertTriangle size={20} aria-hidden />}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('ksef:errors.load')}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
              {t('ksef:errors.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {query.isPending ? (
        <Center py="md" role="status" aria-live="polite">
          <Loader aria-label={t('common:loading')} />
        </Center>
      ) : null}
      {query.data ? <KsefForms settings={query.data} onDirtyChange={onDirtyChange} /> : null}
    </Stack>
  );
}

function KsefForms({
  settings,
  onDirtyChange,
}: {
  settings: KsefConnectionView;
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { t } = useTranslation('ksef');
  const [settingsDirty, setSettingsDirty] = useState(false);
  const [certificateDirty, setCertificateDirty] = useState(false);
  const dirty = settingsDirty || certificateDirty;
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  // Gone (the toggle switched off, the panel closed): nothing of this section is unsaved any more.
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);

  return (
    <>
      {settings.configured ? null : (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} aria-hidden />}>
          {t('notConfigured')}
        </Alert>
      )}
      <KsefSettingsForm
        settings={settings}
        onDirtyChange={setSettingsDirty}
        onCertificateDirtyChange={setCertificateDirty}
      />
      <ConnectionTest unsaved={settingsDirty} />
      {settings.configured ? <ReceiveInvoices receivedAt={settings.receivedAt} /> : null}
    </>
  );
}

function KsefSettingsForm({
  settings,
  onDirtyChange,
  onCertificateDirtyChange,
}: {
  settings: KsefConnectionView;
  onDirtyChange: (dirty: boolean) => void;
  onCertificateDirtyChange: (dirty: boolean) => void;
}) {
  const { t } = useTranslation(['ksef', 'validation']);
  const save = useSaveKsefSettingsMutation();
  const form = useForm<KsefForm, unknown, KsefValues>({
    resolver: zodResolver(KsefSettingsUpdateSchema),
    defaultValues: toForm(settings),
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  const environment = useWatch({ control: form.control, name: 'environment' });
  const authMethod = useWatch({ control: form.control, name: 'authMethod' });

  function onValid(values: KsefValues) {
    save.mutate(toRequest(values), {
      onSuccess: (saved) => {
        form.reset(toForm(saved));
        showSuccess({ message: t('ksef:saved') });
      },
      onError: (error) => showSaveFailure(error, 'ksef', { fields: FIELDS, setError: form.setError }),
    });
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} aria-label={t('ksef:formLabel')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('ksef:fields.nip')}
            description={t('ksef:fields.nipHint')}
            required
            dir="ltr"
            inputMode="numeric"
            autoComplete="off"
            error={fieldErrorText(errors.nip?.message, 'ksef')}
            {...form.register('nip')}
          />
          <Controller
            control={form.control}
            name="environment"
            render={({ field }) => (
              <Select
                ref={field.ref}
                label={t('ksef:fields.environment')}
                description={t(`ksef:environmentHints.${field.value}`)}
                required
                allowDeselect={false}
                data={KSEF_ENVIRONMENT_NAMES.map((name) => ({ value: name, label: t(`ksef:environments.${name}`) }))}
                value={field.value}
                onChange={(value) => {
                  const next = KSEF_ENVIRONMENT_NAMES.find((name) => name === value);
                  if (next) field.onChange(next);
                }}
                onBlur={field.onBlur}
                error={fieldErrorText(errors.environment?.message, 'ksef')}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
        </SimpleGrid>
        {environment === 'custom' ? (
          <TextInput
            label={t('ksef:fields.baseUrl')}
            description={t('ksef:fields.baseUrlHint')}
            required
            type="url"
            dir="ltr"
            autoComplete="url"
            error={fieldErrorText(errors.baseUrl?.message, 'ksef')}
            {...form.register('baseUrl')}
          />
        ) : null}
        <Controller
          control={form.control}
          name="authMethod"
          render={({ field }) => (
            <Radio.Group
              label={t('ksef:fields.authMethod')}
              required
              name="ksef-auth-method"
              value={field.value}
              onChange={(value) => {
                const next = KSEF_AUTH_METHODS.find((method) => method === value);
                if (next) field.onChange(next);
              }}
              error={fieldErrorText(errors.authMethod?.message, 'ksef')}
            >
              <Stack gap="sm" mt="xs">
                {KSEF_AUTH_METHODS.map((method) => (
                  <Radio
                    key={method}
                    value={method}
                    label={t(`ksef:authMethods.${method}`)}
                    description={t(`ksef:authMethodHints.${method}`)}
                    onBlur={field.onBlur}
                  />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />
        {authMethod === 'token' ? (
          <PasswordInput
            label={t('ksef:fields.token')}
            description={settings.hasToken ? t('ksef:fields.tokenSaved') : t('ksef:fields.tokenHint')}
            dir="ltr"
            autoComplete="off"
            visibilityToggleButtonProps={{ 'aria-label': t('ksef:fields.tokenToggle') }}
            error={fieldErrorText(errors.token?.message, 'ksef')}
            {...form.register('token')}
          />
        ) : (
          <CertificateUpload settings={settings} onDirtyChange={onCertificateDirtyChange} />
        )}
        <Group justify="flex-end">
          {/* Nothing saved yet: the defaults can be saved as they are. */}
          <Button type="submit" loading={save.isPending} disabled={settings.configured && !isDirty}>
            {t('ksef:actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type CertificateErrors = { file?: string; password?: string };

/**
 * The certificate and its private key, uploaded on their own (the key is sealed on the server, never read back). It
 * sits inside the settings form but is no form of its own: its button and Enter in its password upload, not save.
 */
function CertificateUpload({
  settings,
  onDirtyChange,
}: {
  settings: KsefConnectionView;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { t, i18n } = useTranslation(['ksef', 'validation']);
  const upload = useUploadKsefCertificateMutation();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<CertificateErrors>({});
  // The expiry warning is read when the block opens; a day more or less while it is open changes nothing.
  const [now] = useState(() => Date.now());
  const fileRef = useRef<HTMLButtonElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  useEffect(() => onDirtyChange(file !== null), [file, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  const showErrors = useCallback((next: CertificateErrors) => {
    setErrors(next);
    if (next.file) fileRef.current?.focus();
    else if (next.password) passwordRef.current?.focus();
  }, []);

  const errorOf = (code: string | undefined) =>
    code === 'required' ? t('ksef:certificate.fileRequired') : fieldErrorText(code, 'ksef');

  function submit() {
    if (!file) return showErrors({ file: 'required' });
    if (file.size > KSEF_CERTIFICATE_MAX_BYTES) return showErrors({ file: 'fileTooLarge' });
    setErrors({});
    upload.mutate(
      { file, password },
      {
        onSuccess: () => {
          setFile(null);
          setPassword('');
          showSuccess({ message: t('ksef:certificate.uploaded') });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400) {
            const next: CertificateErrors = {};
            for (const detail of error.details) {
              if (detail.field === 'file' || detail.field === 'password') next[detail.field] = detail.code;
            }
            if (next.file || next.password) return showErrors(next);
          }
          showFailure(error, 'ksef');
        },
      },
    );
  }

  const certificate = settings.certificate;
  const validTo = certificate ? Date.parse(certificate.validTo) : Number.NaN;
  const daysLeft = (validTo - now) / DAY_MS;
  const validToText = certificate ? formatDateTime(i18n.language, certificate.validTo) : '';

  return (
    <Fieldset legend={t('ksef:certificate.title')} data-testid="ksef-certificate">
      <Stack gap="sm">
        {certificate ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" m={0}>
            <div>
              <Text component="dt" size="xs" c="dimmed">
                {t('ksef:certificate.subject')}
              </Text>
              <Text
                component="dd"
                size="sm"
                m={0}
                dir="ltr"
                style={{ overflowWrap: 'anywhere' }}
                data-testid="ksef-certificate-subject"
              >
                {certificate.subject}
              </Text>
            </div>
            <div>
              <Text component="dt" size="xs" c="dimmed">
                {t('ksef:certificate.validTo')}
              </Text>
              <Text component="dd" size="sm" m={0} data-testid="ksef-certificate-valid-to">
                {validToText}
              </Text>
            </div>
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed">
            {t('ksef:certificate.none')}
          </Text>
        )}
        {certificate && daysLeft <= 0 ? (
          <Alert color="red" icon={<IconAlertTriangle size={20} aria-hidden />}>
            {t('ksef:certificate.expired', { date: validToText })}
          </Alert>
        ) : certificate && daysLeft <= EXPIRY_WARNING_DAYS ? (
          <Alert color="yellow" icon={<IconAlertTriangle size={20} aria-hidden />}>
            {t('ksef:certificate.expiresSoon', { date: validToText })}
          </Alert>
        ) : null}
        {settings.configured ? null : (
          <Text size="sm" c="dimmed" id="ksef-certificate-save-first">
            {t('ksef:certificate.saveFirst')}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FileInput
            ref={fileRef}
            label={t('ksef:certificate.file')}
            description={t('ksef:certificate.fileHint')}
            accept=".p12,.pfx,.pem,.crt,.key"
            leftSection={<IconCertificate size={18} aria-hidden />}
            clearable
            clearButtonProps={{ 'aria-label': t('ksef:certificate.clear') }}
            value={file}
            onChange={(next) => {
              setFile(next);
              setErrors((prev) => ({ ...prev, file: undefined }));
            }}
            disabled={!settings.configured}
            error={errorOf(errors.file)}
            data-testid="ksef-certificate-file"
          />
          <PasswordInput
            ref={passwordRef}
            label={t('ksef:certificate.password')}
            description={t('ksef:certificate.passwordHint')}
            autoComplete="off"
            dir="ltr"
            visibilityToggleButtonProps={{ 'aria-label': t('ksef:certificate.passwordToggle') }}
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setErrors((prev) => ({ ...prev, password: undefined }));
            }}
            onKeyDown={(event) => {
              // Enter here uploads the certificate; it must not submit the settings form around it.
              if (event.key === 'Enter') {
                event.preventDefault();
                submit();
              }
            }}
            disabled={!settings.configured}
            error={errorOf(errors.password)}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button
            type="button"
            variant="light"
            leftSection={<IconUpload size={18} aria-hidden />}
            loading={upload.isPending}
            disabled={!settings.configured}
            aria-describedby={settings.configured ? undefined : 'ksef-certificate-save-first'}
            onClick={submit}
          >
            {t('ksef:certificate.upload')}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}

/**
 * Receiving (decision 0039): when the company's purchase invoices were last fetched from KSeF, and "Receive invoices
 * now", which queues a run at once rather than waiting for the next period. Only with saved settings: without them
 * there is nothing to log in with.
 */
function ReceiveInvoices({ receivedAt }: { receivedAt: string | null }) {
  const { t, i18n } = useTranslation('ksef');
  const receive = useReceiveKsefInvoicesMutation();

  return (
    <Stack gap="xs" data-testid="ksef-receive">
      <Group gap="sm" wrap="wrap">
        <Button
          type="button"
          variant="default"
          leftSection={<IconDownload size={18} aria-hidden />}
          loading={receive.isPending}
          aria-describedby="ksef-received-at"
          onClick={() =>
            receive.mutate(undefined, {
              onSuccess: () => showSuccess({ message: t('receive.queued') }),
              onError: (error) => showFailure(error, 'ksef'),
            })
          }
        >
          {t('receive.action')}
        </Button>
        <Text size="sm" c="dimmed" id="ksef-received-at" data-testid="ksef-received-at">
          {receivedAt ? t('receive.lastAt', { date: formatDateTime(i18n.language, receivedAt) }) : t('receive.never')}
        </Text>
      </Group>
    </Stack>
  );
}

/** "Test connection": a login to the saved KSeF and out again; with unsaved changes it would test the old settings. */
function ConnectionTest({ unsaved }: { unsaved: boolean }) {
  const { t } = useTranslation('ksef');
  const test = useTestKsefConnectionMutation();
  const { reset } = test;
  // A result says nothing about settings changed since.
  useEffect(() => {
    if (unsaved) reset();
  }, [unsaved, reset]);
  const result = test.isPending ? undefined : test.data;

  return (
    <Stack gap="xs" data-testid="ksef-test">
      <Group gap="sm" wrap="wrap">
        <Button
          type="button"
          variant="default"
          leftSection={<IconPlugConnected size={18} aria-hidden />}
          loading={test.isPending}
          disabled={unsaved}
          aria-describedby="ksef-test-hint"
          onClick={() => test.mutate(undefined, { onError: (error) => showFailure(error, 'ksef') })}
        >
          {t('actions.test')}
        </Button>
        <Text size="sm" c="dimmed" id="ksef-test-hint">
          {unsaved ? t('test.saveFirst') : t('test.hint')}
        </Text>
      </Group>
      <div aria-live="polite">{result ? <ConnectionTestResult result={result} /> : null}</div>
    </Stack>
  );
}

function ConnectionTestResult({ result }: { result: KsefConnectionTest }) {
  const { t } = useTranslation('ksef');
  if (result.ok) {
    return (
      <Alert color="green" icon={<IconCircleCheck size={20} aria-hidden />} data-testid="ksef-test-result">
        {t('test.ok')}
      </Alert>
    );
  }
  if (result.message === 'not_configured') {
    return (
      <Alert color="yellow" icon={<IconInfoCircle size={20} aria-hidden />} data-testid="ksef-test-result">
        {t('test.notConfigured')}
      </Alert>
    );
  }
  return (
    <Alert color="red" icon={<IconAlertTriangle size={20} aria-hidden />} data-testid="ksef-test-result">
      {result.code !== null
        ? t('test.refused', { code: result.code, message: result.message ?? '' }).trim()
        : t('test.failed', { message: result.message ?? '' })}
    </Alert>
  );
}
