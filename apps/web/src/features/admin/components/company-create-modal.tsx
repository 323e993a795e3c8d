import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CreateCompanyRequestSchema, type CreateCompanyRequest } from '@portal/contracts';
import type { z } from 'zod';
import { FormActions } from '../../../components/form-actions.tsx';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { applyErrorDetails, errorText, fieldErrorText } from '../../../lib/error-text.ts';
import { useCreateCompany } from '../api/admin-mutations.ts';
import { CountrySelect } from '../../../components/country-select.tsx';

type CompanyForm = z.input<typeof CreateCompanyRequestSchema>;
const FIELDS = ['name', 'vatId', 'taxId', 'country'] as const;

export function CompanyCreateModal(props: { opened: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const { t } = useTranslation(['admin', 'validation']);
  const create = useCreateCompany();
  const form = useForm<CompanyForm, unknown, CreateCompanyRequest>({
    resolver: zodResolver(CreateCompanyRequestSchema),
    defaultValues: { name: '', vatId: '', taxId: '', country: null },
  });
  const { errors } = form.formState;

  function close() {
    form.reset();
    props.onClose();
  }

  async function onValid(values: CreateCompanyRequest) {
    try {
      const company = await create.mutateAsync({
        name: values.name,
        vatId: values.vatId || null,
        taxId: values.taxId || null,
        country: values.country || null,
      });
      showSuccess({ message: t('admin:companies.created', { name: company.name }) });
      close();
      props.onCreated(company.id);
    } catch (error) {
      if (!applyErrorDetails(error, FIELDS, form.setError)) showError({ message: errorText(error, 'admin') });
    }
  }

  return (
    <Modal opened={props.opened} onClose={close} title={t('admin:companies.createTitle')} size="lg">
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack>
          <TextInput
            label={t('admin:companies.fields.name')}
            required
            data-autofocus
            error={fieldErrorText(errors.name?.message, 'admin')}
            {...form.register('name')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
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
          </SimpleGrid>
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
          <FormActions onCancel={close} saving={create.isPending} submitLabel={t('admin:companies.create')} />
        </Stack>
      </form>
    </Modal>
  );
}
