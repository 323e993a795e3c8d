import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CreateCompanyRequestSchema, type AdminCompany, type CreateCompanyRequest } from '@portal/contracts';
import type { z } from 'zod';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { applyErrorDetails, errorText, fieldErrorText } from '../../../lib/error-text.ts';
import { useUpdateCompany } from '../api/admin-mutations.ts';
import { CountrySelect } from '../../../components/country-select.tsx';

// The basics are the creation fields; every one is sent, empty ones clear.
type ProfileForm = z.input<typeof CreateCompanyRequestSchema>;
const FIELDS = ['name', 'vatId', 'taxId', 'country'] as const;

export function CompanyProfileForm({ company }: { company: AdminCompany }) {
  const { t } = useTranslation(['admin', 'validation']);
  const update = useUpdateCompany(company.id);
  const form = useForm<ProfileForm, unknown, CreateCompanyRequest>({
    resolver: zodResolver(CreateCompanyRequestSchema),
    defaultValues: {
      name: company.name,
      vatId: company.vatId ?? '',
      taxId: company.taxId ?? '',
      country: company.country,
    },
  });
  const { errors, isDirty } = form.formState;

  async function onValid(values: CreateCompanyRequest) {
    try {
      await update.mutateAsync({
        name: values.name,
        vatId: values.vatId || null,
        taxId: values.taxId || null,
        country: values.country || null,
      });
      showSuccess({ message: t('admin:saved') });
    } catch (error) {
      if (!applyErrorDetails(error, FIELDS, form.setError)) showError({ message: errorText(error, 'admin') });
    }
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)}>
      <Stack>
        <TextInput
          label={t('admin:companies.fields.name')}
          required
          error={fieldErrorText(errors.name?.message, 'admin')}
          {...form.register('name')}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('admin:companies.fields.vatId')}
            error={fieldErrorText(errors.vatId?.message, 'admin')}
            {...form.register('vatId')}
          />
          <TextInput
            label={t('admin:companies.fields.taxId')}
            error={fieldErrorText(errors.taxId?.message, 'admin')}
            {...form.register('taxId')}
          />
          <Controller
            control={form.control}
            name="country"
            render={({ field }) => (
              <CountrySelect
                label={t('admin:companies.fields.country')}
                value={field.value ?? null}
                onChange={(value) => field.onChange(value)}
                onBlur={field.onBlur}
                error={fieldErrorText(errors.country?.message, 'admin')}
              />
            )}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} disabled={!isDirty}>
            {t('admin:actions.saveProfile')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
