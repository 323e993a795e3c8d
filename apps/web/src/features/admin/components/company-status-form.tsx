import { Alert, Button, Group, NumberInput, Radio, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useCallback } from 'react';
import { Controller, useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CompanyStatusRequestSchema,
  LOGIN_STATUSES,
  type AdminCompany,
  type CompanyStatusRequest,
  type LoginStatus,
} from '@portal/contracts';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { applyErrorDetails, errorText, fieldErrorText } from '../../../lib/error-text.ts';
import { useSetCompanyStatus } from '../api/admin-mutations.ts';

export type StatusForm = {
  loginStatus: LoginStatus;
  restrictionWaitTime: number | string;
  restrictionWorkingTime: number | string;
  /** `datetime-local` value in the admin's time zone; '' for none. */
  restrictionWorkingStart: string;
  restrictionMessage: string;
};
const FIELDS = [
  'loginStatus',
  'restrictionWaitTime',
  'restrictionWorkingTime',
  'restrictionWorkingStart',
  'restrictionMessage',
] as const;

/** The order in which the statuses are offered: normal work first, then the restrictions by severity. */
const STATUS_ORDER: readonly LoginStatus[] = ['OK', 'OK_LIMITED', 'BLOCKED', 'SYS_DISABLE', 'ERROR', 'NOTSET'];

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp as a `datetime-local` value in the browser's time zone. */
export function isoToLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function toMinutes(value: number | string): number | undefined {
  if (typeof value === 'number') return value;
  return value.trim() === '' ? undefined : Number(value);
}

/**
 * The request of the form. The working start is sent only when the admin changed it: absent keeps the running
 * window, null starts a new window at the next login (docs/decisions/0003-company-status.md).
 */
export function toStatusRequest(values: StatusForm, initialStart: string): Record<string, unknown> {
  const start = values.restrictionWorkingStart;
  const startDate = new Date(start);
  return {
    loginStatus: values.loginStatus,
    restrictionWaitTime: toMinutes(values.restrictionWaitTime),
    restrictionWorkingTime: toMinutes(values.restrictionWorkingTime),
    restrictionWorkingStart:
      start === initialStart
        ? undefined
        : start === ''
          ? null
          : Number.isNaN(startDate.getTime())
            ? start
            : startDate.toISOString(),
    restrictionMessage: values.restrictionMessage.trim() || null,
  };
}

/** Checks the form with the shared schema (OK_LIMITED needs a working time above 0) and maps issues to fields. */
function useStatusResolver(initialStart: string): Resolver<StatusForm, unknown, CompanyStatusRequest> {
  return useCallback(
    (values: StatusForm) => {
      const parsed = CompanyStatusRequestSchema.safeParse(toStatusRequest(values, initialStart));
      if (parsed.success) return { values: parsed.data, errors: {} };
      const errors: FieldErrors<StatusForm> = {};
      for (const issue of parsed.error.issues) {
        const field = FIELDS.find((f) => f === issue.path[0]);
        if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message };
      }
      return { values: {}, errors };
    },
    [initialStart],
  );
}

export function CompanyStatusForm({ company }: { company: AdminCompany }) {
  const { t } = useTranslation(['admin', 'validation']);
  const save = useSetCompanyStatus(company.id);
  const initialStart = isoToLocalInput(company.restrictionWorkingStart);
  const form = useForm<StatusForm, unknown, CompanyStatusRequest>({
    resolver: useStatusResolver(initialStart),
    defaultValues: {
      loginStatus: company.loginStatus,
      restrictionWaitTime: company.restrictionWaitTime ?? 0,
      restrictionWorkingTime: company.restrictionWorkingTime ?? 0,
      restrictionWorkingStart: initialStart,
      restrictionMessage: company.restrictionMessage ?? '',
    },
  });
  const { errors } = form.formState;
  const status = useWatch({ control: form.control, name: 'loginStatus' });
  const workingTimeError =
    errors.restrictionWorkingTime?.message === 'positive'
      ? t('admin:status.workingTimePositive')
      : fieldErrorText(errors.restrictionWorkingTime?.message, 'admin');

  async function onValid(values: CompanyStatusRequest) {
    try {
      await save.mutateAsync(values);
      showSuccess({ message: t('admin:status.saved', { status: t(`admin:status.names.${values.loginStatus}`) }) });
    } catch (error) {
      if (!applyErrorDetails(error, FIELDS, form.setError)) showError({ message: errorText(error, 'admin') });
    }
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} data-testid="company-status-form">
      <Stack gap="lg">
        <Controller
          control={form.control}
          name="loginStatus"
          render={({ field }) => (
            <Radio.Group
              label={t('admin:status.loginStatus')}
              value={field.value}
              onChange={(value) => field.onChange(value as LoginStatus)}
              name="loginStatus"
            >
              <Stack gap="sm" mt="xs">
                {STATUS_ORDER.filter((s) => LOGIN_STATUSES.includes(s)).map((s) => (
                  <Radio
                    key={s}
                    value={s}
                    label={`${t(`admin:status.names.${s}`)} (${s})`}
                    description={t(`admin:status.explain.${s}`)}
                  />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />
        {status === 'OK_LIMITED' ? (
          <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} />}>
            {t('admin:status.limitedHint')}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={form.control}
            name="restrictionWorkingTime"
            render={({ field }) => (
              <NumberInput
                label={t('admin:status.workingTime')}
                description={t('admin:status.workingTimeHelp')}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                required={status === 'OK_LIMITED'}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={workingTimeError}
              />
            )}
          />
          <Controller
            control={form.control}
            name="restrictionWaitTime"
            render={({ field }) => (
              <NumberInput
                label={t('admin:status.waitTime')}
                description={t('admin:status.waitTimeHelp')}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldErrorText(errors.restrictionWaitTime?.message, 'admin')}
              />
            )}
          />
        </SimpleGrid>
        <TextInput
          type="datetime-local"
          label={t('admin:status.workingStart')}
          description={t('admin:status.workingStartHelp')}
          error={fieldErrorText(errors.restrictionWorkingStart?.message, 'admin')}
          {...form.register('restrictionWorkingStart')}
        />
        <Textarea
          label={t('admin:status.message')}
          description={t('admin:status.messageHelp')}
          rows={3}
          resize="vertical"
          error={fieldErrorText(errors.restrictionMessage?.message, 'admin')}
          {...form.register('restrictionMessage')}
        />
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('admin:status.immediate')}
          </Text>
          <Button type="submit" loading={save.isPending}>
            {t('admin:status.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
