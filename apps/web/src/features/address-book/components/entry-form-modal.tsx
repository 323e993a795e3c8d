import { zodResolver } from '@hookform/resolvers/zod';
import { Fieldset, Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  ADDRESS_BOOK_FIELDS,
  AddressBookEntryRequestSchema,
  type AddressBookEntry,
  type AddressBookEntryRequest,
  type AddressBookEntryValues,
} from '@portal/contracts';
import { CountrySelect } from '../../../components/country-select.tsx';
import { FormActions } from '../../../components/form-actions.tsx';
import { fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useSaveEntryMutation } from '../api/address-book-mutations.ts';
import { useEntryChoices } from './entry-labels.ts';

type EntryForm = AddressBookEntryRequest;
type TextField = Exclude<(typeof ADDRESS_BOOK_FIELDS)[number], 'personType' | 'residenceType' | 'country'>;

function toForm(entry: AddressBookEntry | undefined): EntryForm {
  return {
    name: entry?.name ?? '',
    displayedName: entry?.displayedName ?? '',
    gln: entry?.gln ?? '',
    personType: entry?.personType ?? 'J',
    taxId: entry?.taxId ?? '',
    residenceType: entry?.residenceType ?? null,
    phone: entry?.phone ?? '',
    street: entry?.street ?? '',
    postalCode: entry?.postalCode ?? '',
    city: entry?.city ?? '',
    province: entry?.province ?? '',
    accountNumber: entry?.accountNumber ?? '',
    country: entry?.country ?? '',
  };
}

/**
 * Creates or edits an address book entry: every field of the description's entry, checked by the contracts' schema
 * as the server checks it (GLN check digit, country from the list, IBAN checksum, NIP for Poland); what the server
 * refuses still (a GLN already in the book) lands on its field.
 */
export function EntryFormModal({ entry, onClose }: { entry?: AddressBookEntry; onClose: () => void }) {
  const { t } = useTranslation('address-book');
  const save = useSaveEntryMutation();
  const choices = useEntryChoices();
  const form = useForm<EntryForm, unknown, AddressBookEntryValues>({
    resolver: zodResolver(AddressBookEntryRequestSchema),
    defaultValues: toForm(entry),
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const error = (field: (typeof ADDRESS_BOOK_FIELDS)[number]) => fieldErrorText(errors[field]?.message, 'address-book');

  function onValid(values: AddressBookEntryValues) {
    save.mutate(
      { entryId: entry?.id, entry: values },
      {
        onSuccess: (saved) => {
          showSuccess({ message: t('form.saved', { name: saved.name }) });
          onClose();
        },
        onError: (failure) =>
          showSaveFailure(failure, 'address-book', { fields: ADDRESS_BOOK_FIELDS, setError: form.setError }),
      },
    );
  }

  const text = (
    field: TextField,
    extra: { required?: boolean; ltr?: boolean; autoComplete?: string; description?: string } = {},
  ) => (
    <TextInput
      label={t(`fields.${field}`)}
      description={extra.description}
      required={extra.required}
      autoComplete={extra.autoComplete ?? 'off'}
      dir={extra.ltr ? 'ltr' : undefined}
      error={error(field)}
      data-autofocus={field === 'name' ? true : undefined}
      {...form.register(field)}
    />
  );

  return (
    <Modal
      opened
      onClose={onClose}
      title={entry ? t('form.editTitle', { name: entry.name }) : t('form.createTitle')}
      size="xl"
    >
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="md">
          <Fieldset legend={t('form.identity')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {text('name', { required: true, autoComplete: 'organization' })}
              {text('displayedName')}
              {text('gln', { ltr: true, description: t('hints.gln') })}
              {text('taxId', { ltr: true, description: t('hints.taxId') })}
              <Controller
                control={form.control}
                name="personType"
                render={({ field }) => (
                  <Select
                    label={t('fields.personType')}
                    required
                    data={choices.personTypes}
                    allowDeselect={false}
                    value={field.value}
                    onChange={(value) => field.onChange(value)}
                    onBlur={field.onBlur}
                    error={error('personType')}
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="residenceType"
                render={({ field }) => (
                  <Select
                    label={t('fields.residenceType')}
                    placeholder={t('notSet')}
                    data={choices.residenceTypes}
                    clearable
                    value={field.value ?? null}
                    onChange={(value) => field.onChange(value)}
                    onBlur={field.onBlur}
                    error={error('residenceType')}
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
              />
            </SimpleGrid>
          </Fieldset>
          <Fieldset legend={t('form.address')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {text('street', { autoComplete: 'street-address' })}
              {text('postalCode', { autoComplete: 'postal-code' })}
              {text('city', { autoComplete: 'address-level2' })}
              {text('province', { autoComplete: 'address-level1' })}
              <Controller
                control={form.control}
                name="country"
                render={({ field }) => (
                  <CountrySelect
                    label={t('fields.country')}
                    required
                    nothingFoundMessage={t('nothingFound')}
                    value={field.value || null}
                    onChange={(value) => field.onChange(value ?? '')}
                    onBlur={field.onBlur}
                    error={error('country')}
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
              />
            </SimpleGrid>
          </Fieldset>
          <Fieldset legend={t('form.contact')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {text('phone', { ltr: true, autoComplete: 'tel' })}
              {text('accountNumber', { ltr: true })}
            </SimpleGrid>
          </Fieldset>
          <FormActions onCancel={onClose} saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
