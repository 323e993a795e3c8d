import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Divider, Fieldset, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Controller, useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CompanyProfileUpdateSchema,
  TAXPAYER_KINDS,
  TAXPAYER_TYPES,
  TAX_SYSTEMS,
  type CompanyProfile,
  type CompanyProfileUpdate,
} from '@portal/contracts';
import type { z } from 'zod';
import { useCountryOptions } from '../../../components/country-select.tsx';
import { PageLoader } from '../../../components/page-loader.tsx';
import { ApiKeysSection } from '../../api-keys/index.ts';
import { CompanyLocationsSection } from '../../company-locations/index.ts';
import { KsefSection, useKsefAvailable } from '../../ksef/index.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { applyServerDetails, fieldErrorText, showFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useSaveCompanyProfileMutation } from '../api/profile-mutations.ts';
import { companyProfileQuery } from '../api/profile-queries.ts';
import type { PanelProps } from './panel-props.ts';

type CompanyForm = z.input<typeof CompanyProfileUpdateSchema>;
type TextField = Exclude<keyof CompanyForm, 'country' | 'taxSystem' | 'taxpayerKind' | 'taxpayerType'>;

const TEXT_FIELDS: readonly TextField[] = [
  'name',
  'vatId',
  'taxId',
  'street',
  'postalCode',
  'city',
  'bankAccount',
  'electronicAddress',
  'electronicAddressScheme',
  'signerPost',
  'signerName',
  'signerCode',
  'companyPrefix',
  'legalForm',
];
const ALL_FIELDS: readonly Path<CompanyForm>[] = [
  ...TEXT_FIELDS,
  'country',
  'taxSystem',
  'taxpayerKind',
  'taxpayerType',
];

function toForm(profile: CompanyProfile): CompanyForm {
  const form: CompanyForm = {
    name: profile.name,
    country: profile.country,
    taxSystem: profile.taxSystem,
    taxpayerKind: profile.taxpayerKind,
    taxpayerType: profile.taxpayerType,
  };
  for (const field of TEXT_FIELDS) form[field] = profile[field] ?? '';
  return form;
}

/** Empty texts are sent as null ("not set"). */
function toRequest(values: CompanyProfileUpdate): CompanyProfileUpdate {
  const request: CompanyProfileUpdate = { ...values };
  for (const field of TEXT_FIELDS) if (field !== 'name' && !request[field]) request[field] = null;
  if (!request.country) request.country = null;
  return request;
}

/** Every company profile field (`GET/PUT /api/company/profile`); read-only without COMPANY_PROFILE_MODIFY. */
export function CompanySettingsPanel({ canEdit, onDirtyChange }: PanelProps) {
  const api = useApi();
  const query = useQuery(companyProfileQuery(api));
  const hasKsef = useKsefAvailable();
  // Two forms on one panel: it has unsaved changes when either has.
  const [dirty, setDirty] = useState({ company: false, ksef: false });
  const reportCompany = useCallback(
    (value: boolean) => setDirty((prev) => (prev.company === value ? prev : { ...prev, company: value })),
    [],
  );
  const reportKsef = useCallback(
    (value: boolean) => setDirty((prev) => (prev.ksef === value ? prev : { ...prev, ksef: value })),
    [],
  );
  const anyDirty = dirty.company || dirty.ksef;
  useEffect(() => onDirtyChange(anyDirty), [anyDirty, onDirtyChange]);
  if (!query.data) return <PageLoader />;
  return (
    <Stack gap="xl">
      <CompanySettingsForm profile={query.data} canEdit={canEdit} onDirtyChange={reportCompany} />
      <Divider maw={960} />
      <div style={{ maxWidth: 960 }}>
        <CompanyLocationsSection path="/company/locations" canEdit={canEdit} />
      </div>
      {/* Keys act for the whole company: only its administrators (COMPANY_PROFILE_MODIFY) see and manage them. */}
      {canEdit ? (
        <>
          <Divider maw={960} />
          <div style={{ maxWidth: 960 }}>
            <ApiKeysSection />
          </div>
        </>
      ) : null}
      {/* The KSeF login holds the company's secrets: company administrators, in a company with KSeF. */}
      {canEdit && hasKsef ? (
        <>
          <Divider maw={960} />
          <div style={{ maxWidth: 960 }}>
            <KsefSection onDirtyChange={reportKsef} />
          </div>
        </>
      ) : null}
    </Stack>
  );
}

function CompanySettingsForm({ profile, canEdit, onDirtyChange }: PanelProps & { profile: CompanyProfile }) {
  const { t } = useTranslation(['profile', 'validation']);
  const save = useSaveCompanyProfileMutation();
  const countries = useCountryOptions();
  const form = useForm<CompanyForm, unknown, CompanyProfileUpdate>({
    resolver: zodResolver(CompanyProfileUpdateSchema),
    defaultValues: toForm(profile),
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  function onValid(values: CompanyProfileUpdate) {
    save.mutate(toRequest(values), {
      onSuccess: (saved) => {
        form.reset(toForm(saved));
        showSuccess({ message: t('profile:messages.success') });
      },
      onError: (error) => {
        const matched =
          error instanceof ApiError &&
          error.status === 400 &&
          applyServerDetails(error.details, ALL_FIELDS, form.setError);
        if (!matched) showFailure(error, 'profile');
      },
    });
  }

  const text = (field: TextField, extra: { required?: boolean; ltr?: boolean; autoComplete?: string } = {}) => (
    <TextInput
      label={t(`profile:company.fields.${field}`)}
      required={canEdit && extra.required}
      readOnly={!canEdit}
      autoComplete={extra.autoComplete ?? 'off'}
      dir={extra.ltr ? 'ltr' : undefined}
      error={fieldErrorText(errors[field]?.message, 'profile')}
      {...form.register(field)}
    />
  );

  const select = (
    field: 'country' | 'taxSystem' | 'taxpayerKind' | 'taxpayerType',
    data: { value: string; label: string }[],
    searchable = false,
  ) => (
    <Controller
      control={form.control}
      name={field}
      render={({ field: f }) => (
        <Select
          label={t(`profile:company.fields.${field}`)}
          data={data}
          searchable={searchable}
          clearable={canEdit}
          readOnly={!canEdit}
          nothingFoundMessage={t('profile:company.nothingFound')}
          value={f.value ?? null}
          onChange={(v) => f.onChange(v)}
          onBlur={f.onBlur}
          error={fieldErrorText(errors[field]?.message, 'profile')}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} aria-label={t('profile:panels.company-settings')}>
      <Stack gap="lg" maw={960}>
        <Fieldset legend={t('profile:company.sections.identity')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('name', { required: true, autoComplete: 'organization' })}
            {text('legalForm')}
            {text('vatId', { ltr: true })}
            {text('taxId', { ltr: true })}
            {text('companyPrefix', { ltr: true })}
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('profile:company.sections.address')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('street', { autoComplete: 'street-address' })}
            {text('postalCode', { autoComplete: 'postal-code' })}
            {text('city', { autoComplete: 'address-level2' })}
            {select('country', countries, true)}
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('profile:company.sections.payment')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('bankAccount', { ltr: true })}
            {text('electronicAddress', { ltr: true })}
            {text('electronicAddressScheme', { ltr: true })}
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('profile:company.sections.signer')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('signerName')}
            {text('signerPost')}
            {text('signerCode', { ltr: true })}
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('profile:company.sections.tax')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {select(
              'taxSystem',
              TAX_SYSTEMS.map((code) => ({ value: code, label: code })),
            )}
            {select(
              'taxpayerKind',
              TAXPAYER_KINDS.map((kind) => ({ value: kind, label: t(`profile:company.taxpayerKinds.${kind}`) })),
            )}
            {select(
              'taxpayerType',
              TAXPAYER_TYPES.map((type) => ({ value: type, label: t(`profile:company.taxpayerTypes.${type}`) })),
            )}
          </SimpleGrid>
        </Fieldset>
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
