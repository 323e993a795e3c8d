import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Select, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  FILE_ENCODINGS,
  FILE_NAMING_FORMATS,
  UserSettingsSchema,
  VAT_ALGORITHMS,
  type UserSettings,
} from '@portal/contracts';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { showSuccess } from '../../../lib/notify.ts';
import { useSaveUserSettingsMutation } from '../api/profile-mutations.ts';
import { userSettingsQuery } from '../api/profile-queries.ts';
import { fieldErrorText, showFailure } from '../../../lib/error-text.ts';
import type { PanelProps } from './panel-props.ts';

/** File encoding, VAT calculation algorithm and saved-file naming format (`GET/PUT /api/users/settings`). */
export function AdditionalSettingsPanel({ canEdit, onDirtyChange }: PanelProps) {
  const api = useApi();
  const query = useQuery(userSettingsQuery(api));
  if (!query.data) return <PageLoader />;
  return <AdditionalSettingsForm settings={query.data} canEdit={canEdit} onDirtyChange={onDirtyChange} />;
}

function AdditionalSettingsForm({ settings, canEdit, onDirtyChange }: PanelProps & { settings: UserSettings }) {
  const { t } = useTranslation(['profile', 'validation']);
  const save = useSaveUserSettingsMutation();
  const form = useForm<UserSettings>({ resolver: zodResolver(UserSettingsSchema), defaultValues: settings });
  const { errors, isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  function onValid(values: UserSettings) {
    save.mutate(values, {
      onSuccess: (saved) => {
        form.reset(saved);
        showSuccess({ message: t('profile:messages.success') });
      },
      onError: (error) => showFailure(error, 'profile'),
    });
  }

  const encodings = FILE_ENCODINGS.map((value) => ({ value, label: value }));
  const algorithms = VAT_ALGORITHMS.map((value) => ({ value, label: t(`profile:settings.vatAlgorithms.${value}`) }));
  const formats = FILE_NAMING_FORMATS.map((value) => ({ value, label: t(`profile:settings.namingFormats.${value}`) }));

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} aria-label={t('profile:panels.additional-settings')}>
      <Stack gap="md" maw={720}>
        <Controller
          control={form.control}
          name="fileEncoding"
          render={({ field }) => (
            <Select
              label={t('profile:settings.fileEncoding')}
              data={encodings}
              allowDeselect={false}
              readOnly={!canEdit}
              value={field.value}
              onChange={(v) => field.onChange(v ?? field.value)}
              onBlur={field.onBlur}
              error={fieldErrorText(errors.fileEncoding?.message, 'profile')}
            />
          )}
        />
        <Controller
          control={form.control}
          name="vatAlgorithm"
          render={({ field }) => (
            <Select
              label={t('profile:settings.vatAlgorithm')}
              data={algorithms}
              allowDeselect={false}
              readOnly={!canEdit}
              value={field.value}
              onChange={(v) => field.onChange(v ?? field.value)}
              onBlur={field.onBlur}
              error={fieldErrorText(errors.vatAlgorithm?.message, 'profile')}
            />
          )}
        />
        <Controller
          control={form.control}
          name="fileNamingFormat"
          render={({ field }) => (
            <Select
              label={t('profile:settings.fileNamingFormat')}
              description={t('profile:settings.fileNamingFormatHint')}
              data={formats}
              allowDeselect={false}
              readOnly={!canEdit}
              value={field.value}
              onChange={(v) => field.onChange(v ?? field.value)}
              onBlur={field.onBlur}
              error={fieldErrorText(errors.fileNamingFormat?.message, 'profile')}
            />
          )}
        />
        {canEdit ? (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!isDirty}>
              {t('profile:actions.save')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}
