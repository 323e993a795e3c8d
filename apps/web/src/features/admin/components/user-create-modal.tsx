import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, MultiSelect, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CreateUserRequestSchema, LANGUAGES, type CreateUserRequest } from '@portal/contracts';
import { LOCALES } from '@portal/i18n';
import type { z } from 'zod';
import { FormActions } from '../../../components/form-actions.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { applyErrorDetails, errorText, fieldErrorText } from '../../../lib/error-text.ts';
import { useCreateUser } from '../api/admin-mutations.ts';
import { companyQuery } from '../api/admin-queries.ts';
import { CompanyPicker } from './company-picker.tsx';
import { RoleCheckboxes } from './user-roles-modal.tsx';

type UserForm = z.input<typeof CreateUserRequestSchema>;
const FIELDS = [
  'email',
  'firstName',
  'lastName',
  'companyId',
  'roles',
  'language',
  'groupIds',
  'sendInvitation',
] as const;
const LANGUAGE_OPTIONS = LANGUAGES.map((code) => ({ value: code, label: LOCALES[code].name }));

/** Create a user in a company (or a platform admin without one), optionally e-mailing an invitation. */
export function UserCreateModal(props: { opened: boolean; onClose: () => void; defaultCompanyId: string | null }) {
  const { t, i18n } = useTranslation(['admin', 'validation']);
  const api = useApi();
  const create = useCreateUser();
  const defaults = (): UserForm => ({
    email: '',
    firstName: '',
    lastName: '',
    companyId: props.defaultCompanyId,
    roles: [],
    language: LANGUAGES.find((l) => l === i18n.language) ?? 'en',
    groupIds: [],
    sendInvitation: true,
  });
  const form = useForm<UserForm, unknown, CreateUserRequest>({
    resolver: zodResolver(CreateUserRequestSchema),
    defaultValues: defaults(),
  });
  const { errors } = form.formState;
  const companyId = useWatch({ control: form.control, name: 'companyId' });
  const company = useQuery({ ...companyQuery(api, companyId ?? ''), enabled: Boolean(companyId) && props.opened });
  const groups = (company.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }));

  function close() {
    form.reset(defaults());
    props.onClose();
  }

  async function onValid(values: CreateUserRequest) {
    try {
      const user = await create.mutateAsync(values);
      showSuccess({
        message: t(values.sendInvitation ? 'admin:users.createdInvited' : 'admin:users.created', { email: user.email }),
      });
      close();
    } catch (error) {
      if (!applyErrorDetails(error, FIELDS, form.setError)) showError({ message: errorText(error, 'admin') });
    }
  }

  return (
    <Modal opened={props.opened} onClose={close} title={t('admin:users.createTitle')} size="lg">
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack>
          <TextInput
            label={t('admin:users.fields.email')}
            type="email"
            required
            data-autofocus
            autoComplete="off"
            error={fieldErrorText(errors.email?.message, 'admin')}
            {...form.register('email')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('admin:users.fields.firstName')}
              required
              error={fieldErrorText(errors.firstName?.message, 'admin')}
              {...form.register('firstName')}
            />
            <TextInput
              label={t('admin:users.fields.lastName')}
              required
              error={fieldErrorText(errors.lastName?.message, 'admin')}
              {...form.register('lastName')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="companyId"
              render={({ field }) => (
                <CompanyPicker
                  label={t('admin:users.fields.company')}
                  noneLabel={t('admin:users.noCompanyOption')}
                  value={field.value}
                  onChange={(value) => {
                    field.onChange(value);
                    form.setValue('groupIds', []);
                  }}
                  error={
                    errors.companyId?.message === 'required'
                      ? t('admin:users.companyRequired')
                      : fieldErrorText(errors.companyId?.message, 'admin')
                  }
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="language"
              render={({ field }) => (
                <Select
                  label={t('admin:users.fields.language')}
                  data={LANGUAGE_OPTIONS}
                  value={field.value ?? 'en'}
                  onChange={(value) => field.onChange(value ?? 'en')}
                  allowDeselect={false}
                  error={fieldErrorText(errors.language?.message, 'admin')}
                />
              )}
            />
          </SimpleGrid>
          {companyId ? (
            <Controller
              control={form.control}
              name="groupIds"
              render={({ field }) => (
                <MultiSelect
                  label={t('admin:users.fields.groups')}
                  description={t('admin:users.fields.groupsHelp')}
                  data={groups}
                  value={field.value ?? []}
                  onChange={field.onChange}
                  error={fieldErrorText(errors.groupIds?.message, 'admin')}
                />
              )}
            />
          ) : null}
          <Controller
            control={form.control}
            name="roles"
            render={({ field }) => (
              <RoleCheckboxes
                value={field.value ?? []}
                onChange={field.onChange}
                error={fieldErrorText(errors.roles?.message, 'admin')}
              />
            )}
          />
          <Controller
            control={form.control}
            name="sendInvitation"
            render={({ field }) => (
              <Switch
                label={t('admin:users.fields.sendInvitation')}
                description={t('admin:users.fields.sendInvitationHelp')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          <FormActions onCancel={close} saving={create.isPending} submitLabel={t('admin:users.create')} />
        </Stack>
      </form>
    </Modal>
  );
}
