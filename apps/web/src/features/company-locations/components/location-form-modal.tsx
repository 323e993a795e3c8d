import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { Controller, useForm, useWatch, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  COMPANY_LOCATION_KINDS,
  COUNTRY_CODES,
  CompanyLocationRequestSchema,
  type CompanyLocation,
  type CompanyLocationRequest,
  type CompanyLocationValues,
} from '@portal/contracts';
import { FormActions } from '../../../components/form-actions.tsx';
import { fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { intlLocale } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useSaveLocationMutation } from '../api/company-locations-mutations.ts';
import type { LocationsPath } from '../api/company-locations-queries.ts';

type LocationForm = CompanyLocationRequest;
const TEXT_FIELDS = ['gln', 'name', 'street', 'postalCode', 'city', 'code'] as const;
const FIELDS: readonly Path<LocationForm>[] = [...TEXT_FIELDS, 'kind', 'country'];

function toForm(location: CompanyLocation | undefined): LocationForm {
  return {
    gln: location?.gln ?? '',
    kind: location?.kind ?? 'delivery_point',
    name: location?.name ?? '',
    street: location?.street ?? '',
    postalCode: location?.postalCode ?? '',
    city: location?.city ?? '',
    country: location?.country ?? null,
    code: location?.code ?? '',
  };
}

/** Adds a GLN or delivery point, or edits one (its GLN too); the server's refusals land on their fields. */
export function LocationFormModal(props: { path: LocationsPath; location?: CompanyLocation; onClose: () => void }) {
  const { t, i18n } = useTranslation(['profile', 'validation']);
  const save = useSaveLocationMutation(props.path);
  const form = useForm<LocationForm, unknown, CompanyLocationValues>({
    resolver: zodResolver(CompanyLocationRequestSchema),
    defaultValues: toForm(props.location),
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const countries = useMemo(() => {
    const locale = intlLocale(i18n.language);
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
      a.label.localeCompare(b.label, locale),
    );
  }, [i18n.language]);

  function onValid(values: CompanyLocationValues) {
    save.mutate(
      { gln: props.location?.gln, body: values },
      {
        onSuccess: (saved) => {
          showSuccess({ message: t('profile:locations.saved', { gln: saved.gln }) });
          props.onClose();
        },
        onError: (error) => showSaveFailure(error, 'profile', { fields: FIELDS, setError: form.setError }),
      },
    );
  }

  const text = (field: (typeof TEXT_FIELDS)[number], extra: { required?: boolean; ltr?: boolean } = {}) => (
    <TextInput
      label={t(`profile:locations.fields.${field}`)}
      required={extra.required}
      dir={extra.ltr ? 'ltr' : undefined}
      autoComplete="off"
      error={fieldErrorText(errors[field]?.message, 'profile')}
      {...form.register(field)}
    />
  );
  const isPoint = useWatch({ control: form.control, name: 'kind' }) === 'delivery_point';

  return (
    <Modal
      opened
      onClose={props.onClose}
      size="lg"
      title={
        props.location
          ? t('profile:locations.editTitle', { gln: props.location.gln })
          : t('profile:locations.createTitle')
      }
    >
      <form noValidate onSubmit={form.handleSubmit(onValid)} data-testid="location-form">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('profile:locations.fields.gln')}
              required
              data-autofocus
              dir="ltr"
              inputMode="numeric"
              autoComplete="off"
              error={fieldErrorText(errors.gln?.message, 'profile')}
              {...form.register('gln')}
            />
            <Controller
              control={form.control}
              name="kind"
              render={({ field }) => (
                <Select
                  label={t('profile:locations.fields.kind')}
                  required
                  allowDeselect={false}
                  data={COMPANY_LOCATION_KINDS.map((kind) => ({
                    value: kind,
                    label: t(`profile:locations.kinds.${kind}`),
                  }))}
                  value={field.value}
                  onChange={(v) => field.onChange(v)}
                  onBlur={field.onBlur}
                  error={fieldErrorText(errors.kind?.message, 'profile')}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
            {text('name', { required: true })}
            {text('code', { ltr: true })}
            {text('street', { required: isPoint })}
            {text('postalCode')}
            {text('city', { required: isPoint })}
            <Controller
              control={form.control}
              name="country"
              render={({ field }) => (
                <Select
                  label={t('profile:locations.fields.country')}
                  required={isPoint}
                  searchable
                  clearable
                  data={countries}
                  nothingFoundMessage={t('profile:company.nothingFound')}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v)}
                  onBlur={field.onBlur}
                  error={fieldErrorText(errors.country?.message, 'profile')}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
          </SimpleGrid>
          <FormActions onCancel={props.onClose} saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
