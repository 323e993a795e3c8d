import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Center,
  Checkbox,
  Fieldset,
  Loader,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconInfoCircle, IconLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { documentTypeLabel } from '../../../i18n/document-type-label.ts';
import type { z } from 'zod';
import {
  CreatePartnerRequestSchema,
  DOCUMENT_TYPE_CODES,
  EANCOM_DIRECTORIES,
  PARTNER_SENDING_DEFAULTS,
  PARTNER_STATUSES,
  SYNTAX_IDENTIFIERS,
  isValidGln,
  type CreatePartnerRequest,
  type DocumentTypeCode,
  type EancomDirectory,
  type PartnerDetail,
  type PartnerStatus,
  type SyntaxIdentifier,
} from '@portal/contracts';
import { FormActions } from '../../../components/form-actions.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { errorText, fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useCreatePartnerMutation, useUpdatePartnerMutation } from '../api/partners-mutations.ts';
import { partnerLookupQuery, partnerQuery } from '../api/partners-queries.ts';
import { useCountryOptions } from './use-country-options.ts';

type PartnerForm = z.input<typeof CreatePartnerRequestSchema>;

const FIELDS = [
  'gln',
  'name',
  'vatId',
  'country',
  'contactName',
  'contactEmail',
  'contactPhone',
  'status',
  'testMode',
  'edifactDirectory',
  'syntaxIdentifier',
  'una',
  'docTypesIn',
  'docTypesOut',
] as const;

const isDocumentType = (v: string): v is DocumentTypeCode => DOCUMENT_TYPE_CODES.some((c) => c === v);
const isStatus = (v: string | null): v is PartnerStatus => PARTNER_STATUSES.some((s) => s === v);
const isDirectory = (v: string | null): v is EancomDirectory => EANCOM_DIRECTORIES.some((d) => d === v);
const isSyntax = (v: string | null): v is SyntaxIdentifier => SYNTAX_IDENTIFIERS.some((s) => s === v);

function toForm(partner: PartnerDetail | undefined): PartnerForm {
  return {
    gln: partner?.gln ?? '',
    name: partner?.name ?? '',
    vatId: partner?.vatId ?? '',
    country: partner?.country ?? null,
    contactName: partner?.contactName ?? '',
    contactEmail: partner?.contactEmail ?? '',
    contactPhone: partner?.contactPhone ?? '',
    status: partner?.status ?? 'active',
    testMode: partner?.testMode ?? false,
    edifactDirectory: partner?.edifactDirectory ?? PARTNER_SENDING_DEFAULTS.edifactDirectory,
    syntaxIdentifier: partner?.syntaxIdentifier ?? PARTNER_SENDING_DEFAULTS.syntaxIdentifier,
    una: partner?.una ?? PARTNER_SENDING_DEFAULTS.una,
    docTypesIn: partner?.docTypesIn ?? [],
    docTypesOut: partner?.docTypesOut ?? [],
  };
}

/** What adding this GLN would do: link to a platform company, or add a party off the platform. */
function GlnLookup({ gln }: { gln: string }) {
  const { t } = useTranslation('partners');
  const api = useApi();
  const [debounced] = useDebouncedValue(gln.trim(), 300);
  const valid = isValidGln(debounced);
  const lookup = useQuery({ ...partnerLookupQuery(api, debounced), enabled: valid });
  if (!valid) return null;
  if (lookup.isPending) return <Loader size="xs" aria-label={t('form.lookup.checking')} />;
  if (!lookup.data) return null;
  if (lookup.data.partnerId)
    return (
      <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="gln-lookup">
        {t('form.lookup.exists')}
      </Alert>
    );
  if (lookup.data.company)
    return (
      <Alert color="green" variant="light" icon={<IconLink size={18} aria-hidden />} data-testid="gln-lookup">
        {t('form.lookup.linked', { company: lookup.data.company.name })}
      </Alert>
    );
  return (
    <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="gln-lookup">
      {t('form.lookup.offPlatform')}
    </Alert>
  );
}

/** Adds a partner by GLN (linked when the GLN is a platform company's) or edits one; the GLN is set once. */
export function PartnerFormModal({
  partner,
  onClose,
  onSaved,
}: {
  partner?: PartnerDetail;
  onClose: () => void;
  onSaved?: (saved: PartnerDetail) => void;
}) {
  const { t, i18n } = useTranslation(['partners', 'validation']);
  const { t: common } = useTranslation('common');
  const create = useCreatePartnerMutation();
  const update = useUpdatePartnerMutation();
  const countries = useCountryOptions(i18n.language);
  const form = useForm<PartnerForm, unknown, CreatePartnerRequest>({
    resolver: zodResolver(CreatePartnerRequestSchema),
    defaultValues: toForm(partner),
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const linked = partner?.linkedCompany ?? null;
  const gln = useWatch({ control: form.control, name: 'gln' });
  const err = (message: string | undefined) => fieldErrorText(message, 'partners');

  function onValid(values: CreatePartnerRequest) {
    const handlers = {
      onSuccess: (saved: PartnerDetail) => {
        showSuccess({ message: t('partners:form.saved', { name: saved.name }) });
        onClose();
        onSaved?.(saved);
      },
      onError: (error: unknown) =>
        showSaveFailure(error, 'partners', {
          fields: FIELDS,
          setError: form.setError,
          field: (path) => path.replace(/\.\d+$/, ''),
        }),
    };
    if (partner) {
      const { gln: _gln, ...body } = values;
      update.mutate({ partnerId: partner.id, body }, handlers);
    } else create.mutate(values, handlers);
  }

  const docTypes = DOCUMENT_TYPE_CODES.map((code) => ({ value: code, label: documentTypeLabel(common, code) }));
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={partner ? t('partners:form.editTitle', { name: partner.name }) : t('partners:form.addTitle')}
    >
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="md">
          {partner ? (
            <TextInput label={t('partners:fields.gln')} value={partner.gln} readOnly />
          ) : (
            <>
              <TextInput
                label={t('partners:fields.gln')}
                description={t('partners:form.glnHint')}
                required
                data-autofocus
                inputMode="numeric"
                maxLength={13}
                error={err(errors.gln?.message)}
                {...form.register('gln')}
              />
              <GlnLookup gln={gln} />
            </>
          )}
          {linked ? (
            <TextInput
              label={t('partners:fields.name')}
              description={t('partners:form.linkedNameHint')}
              value={linked.name}
              readOnly
            />
          ) : (
            <TextInput
              label={t('partners:fields.name')}
              description={partner ? undefined : t('partners:form.nameHint')}
              error={err(errors.name?.message)}
              {...form.register('name')}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('partners:fields.vatId')}
              error={err(errors.vatId?.message)}
              {...form.register('vatId')}
            />
            <Controller
              control={form.control}
              name="country"
              render={({ field }) => (
                <Select
                  label={t('partners:fields.country')}
                  data={countries}
                  searchable
                  clearable
                  value={field.value ?? null}
                  onChange={(value) => field.onChange(value)}
                  onBlur={field.onBlur}
                  error={err(errors.country?.message)}
                />
              )}
            />
            <TextInput
              label={t('partners:fields.contactName')}
              error={err(errors.contactName?.message)}
              {...form.register('contactName')}
            />
            <TextInput
              label={t('partners:fields.contactEmail')}
              type="email"
              error={err(errors.contactEmail?.message)}
              {...form.register('contactEmail')}
            />
            <TextInput
              label={t('partners:fields.contactPhone')}
              type="tel"
              error={err(errors.contactPhone?.message)}
              {...form.register('contactPhone')}
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <Select
                  label={t('partners:fields.status')}
                  data={PARTNER_STATUSES.map((s) => ({ value: s, label: t(`partners:status.${s}`) }))}
                  allowDeselect={false}
                  value={field.value ?? 'active'}
                  onChange={(value) => {
                    if (isStatus(value)) field.onChange(value);
                  }}
                  error={err(errors.status?.message)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="docTypesIn"
              render={({ field }) => (
                <MultiSelect
                  label={t('partners:fields.docTypesIn')}
                  data={docTypes}
                  value={field.value ?? []}
                  onChange={(next) => field.onChange(next.filter(isDocumentType))}
                  clearable
                  error={err(errors.docTypesIn?.message)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="docTypesOut"
              render={({ field }) => (
                <MultiSelect
                  label={t('partners:fields.docTypesOut')}
                  data={docTypes}
                  value={field.value ?? []}
                  onChange={(next) => field.onChange(next.filter(isDocumentType))}
                  clearable
                  error={err(errors.docTypesOut?.message)}
                />
              )}
            />
          </SimpleGrid>
          <Fieldset legend={t('partners:form.exchange')}>
            <Stack gap="md">
              <Controller
                control={form.control}
                name="testMode"
                render={({ field }) => (
                  <Switch
                    label={t('partners:fields.testMode')}
                    description={t('partners:form.testModeHint')}
                    checked={field.value ?? false}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                  />
                )}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Controller
                  control={form.control}
                  name="edifactDirectory"
                  render={({ field }) => (
                    <Select
                      label={t('partners:fields.edifactDirectory')}
                      description={t('partners:form.edifactDirectoryHint')}
                      data={EANCOM_DIRECTORIES.map((d) => ({ value: d, label: t(`partners:edifactDirectory.${d}`) }))}
                      allowDeselect={false}
                      value={field.value ?? PARTNER_SENDING_DEFAULTS.edifactDirectory}
                      onChange={(value) => {
                        if (isDirectory(value)) field.onChange(value);
                      }}
                      error={err(errors.edifactDirectory?.message)}
                    />
                  )}
                />
                <Controller
                  control={form.control}
                  name="syntaxIdentifier"
                  render={({ field }) => (
                    <Select
                      label={t('partners:fields.syntaxIdentifier')}
                      description={t('partners:form.syntaxIdentifierHint')}
                      data={SYNTAX_IDENTIFIERS.map((s) => ({ value: s, label: t(`partners:syntaxIdentifier.${s}`) }))}
                      allowDeselect={false}
                      value={field.value ?? PARTNER_SENDING_DEFAULTS.syntaxIdentifier}
                      onChange={(value) => {
                        if (isSyntax(value)) field.onChange(value);
                      }}
                      error={err(errors.syntaxIdentifier?.message)}
                    />
                  )}
                />
              </SimpleGrid>
              <Controller
                control={form.control}
                name="una"
                render={({ field }) => (
                  <Checkbox
                    label={t('partners:form.una')}
                    description={t('partners:form.unaHint')}
                    checked={field.value ?? false}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                    error={err(errors.una?.message)}
                  />
                )}
              />
            </Stack>
          </Fieldset>
          <FormActions
            onCancel={onClose}
            saving={create.isPending || update.isPending}
            submitLabel={partner ? undefined : t('partners:form.add')}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Edits the partner of a list row. The rows lack what the form also edits (the sending settings), and saving replaces
 * every field, so the form opens on the partner's detail.
 */
export function EditPartnerModal({
  partnerId,
  name,
  onClose,
}: {
  partnerId: string;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('partners');
  const { t: common } = useTranslation('common');
  const api = useApi();
  const detail = useQuery(partnerQuery(api, partnerId));
  if (detail.data) return <PartnerFormModal partner={detail.data} onClose={onClose} />;
  return (
    <Modal opened onClose={onClose} size="xl" title={t('form.editTitle', { name })}>
      {detail.isError ? (
        <Alert color="red" variant="light" icon={<IconInfoCircle size={18} aria-hidden />}>
          {errorText(detail.error, 'partners')}
        </Alert>
      ) : (
        <Center mih={120} role="status" aria-live="polite">
          <Loader aria-label={common('loading')} />
        </Center>
      )}
    </Modal>
  );
}
