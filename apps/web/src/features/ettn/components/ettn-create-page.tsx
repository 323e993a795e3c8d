import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconFileImport, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useFieldArray, useForm, type FieldErrors, type Path, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  ETTN_COMPOSE_MAX_ITEMS,
  ETTN_PARTY_ROLE_CODES,
  EttnComposeFormSchema,
  type EttnComposeDraft,
  type EttnComposeForm,
} from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { applyErrorDetails, errorText, fieldErrorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useEttnCompose, useEttnComposeDraft, useEttnRegister } from '../api/ettn-mutations.ts';
import { ettnDespatchAdvicesQuery } from '../api/ettn-queries.ts';
import { isPartyRole, type EttnPartyRole } from '../ettn-roles.ts';
import { roleLabel } from './ettn-labels.ts';

/** What the form holds: every field a string, as typed; empty optional fields are left out when sent. */
type PartyValues = { edrpou: string; name: string; address: string };
type ItemValues = {
  name: string;
  uktzed: string;
  quantity: string;
  packageType: string;
  grossWeightKg: string;
  amount: string;
};
export type ComposeValues = {
  number: string;
  issueDate: string;
  consignee: PartyValues;
  carrier: PartyValues;
  driverName: string;
  driverRnokpp: string;
  driverLicence: string;
  vehicle: string;
  vehicleBrand: string;
  vehicleModel: string;
  loadingAddress: string;
  loadingKatottg: string;
  loadingGln: string;
  unloadingAddress: string;
  unloadingKatottg: string;
  unloadingGln: string;
  items: ItemValues[];
  despatchAdviceId: string;
};

const ITEM_FIELDS = ['name', 'uktzed', 'quantity', 'packageType', 'grossWeightKg', 'amount'] as const;
const PARTY_FIELDS = ['edrpou', 'name', 'address'] as const;
const OPTIONAL_ITEM_FIELDS = ['uktzed', 'packageType', 'amount'] as const;
/** The driver, the truck and the two places: each a group of the form, and the fields a draft may fill. */
const TRANSPORT_FIELDS = [
  'driverName',
  'driverRnokpp',
  'driverLicence',
  'vehicle',
  'vehicleBrand',
  'vehicleModel',
  'loadingAddress',
  'loadingKatottg',
  'loadingGln',
  'unloadingAddress',
  'unloadingKatottg',
  'unloadingGln',
] as const;

const emptyItem = (): ItemValues => ({
  name: '',
  uktzed: '',
  quantity: '',
  packageType: '',
  grossWeightKg: '',
  amount: '',
});
const emptyParty = (): PartyValues => ({ edrpou: '', name: '', address: '' });
const today = () => new Date().toISOString().slice(0, 10);

export const emptyComposeValues = (): ComposeValues => ({
  number: '',
  issueDate: today(),
  consignee: emptyParty(),
  carrier: emptyParty(),
  driverName: '',
  driverRnokpp: '',
  driverLicence: '',
  vehicle: '',
  vehicleBrand: '',
  vehicleModel: '',
  loadingAddress: '',
  loadingKatottg: '',
  loadingGln: '',
  unloadingAddress: '',
  unloadingKatottg: '',
  unloadingGln: '',
  items: [emptyItem()],
  despatchAdviceId: '',
});

/** The request of the form's values: optional fields left empty are not sent (the schema takes them as absent). */
export function composeRequest(values: ComposeValues): Record<string, unknown> {
  const { despatchAdviceId, items, loadingGln, ...rest } = values;
  return {
    ...rest,
    // The loading place's GLN is optional: left out, the server names the company's own.
    ...(loadingGln.trim() ? { loadingGln } : {}),
    items: items.map((item) => {
      const out: Record<string, string> = { ...item };
      for (const key of OPTIONAL_ITEM_FIELDS) if (!item[key].trim()) delete out[key];
      return out;
    }),
    ...(despatchAdviceId ? { despatchAdviceId } : {}),
  };
}

/** The form's values filled from a despatch advice's draft; what it lacks stays empty for the user. */
function fromDraft(draft: EttnComposeDraft, documentId: string, current: ComposeValues): ComposeValues {
  const party = (p: Partial<PartyValues> | undefined, fallback: PartyValues): PartyValues => ({
    edrpou: p?.edrpou ?? fallback.edrpou,
    name: p?.name ?? fallback.name,
    address: p?.address ?? fallback.address,
  });
  return {
    number: draft.number ?? current.number,
    issueDate: draft.issueDate ?? current.issueDate,
    consignee: party(draft.consignee, current.consignee),
    carrier: party(draft.carrier, current.carrier),
    ...(Object.fromEntries(TRANSPORT_FIELDS.map((f) => [f, draft[f] ?? current[f]])) as Pick<
      ComposeValues,
      (typeof TRANSPORT_FIELDS)[number]
    >),
    items: draft.items.length
      ? draft.items.map((item) => ({
          ...emptyItem(),
          ...Object.fromEntries(Object.entries(item).filter(([, v]) => v)),
        }))
      : current.items,
    despatchAdviceId: draft.despatchAdviceId ?? documentId,
  };
}

/**
 * The shared schema checks the request the values make (empty optional fields left out), as the server will. The
 * request has the form's shape, so its errors land on the form's paths (`consignee.edrpou`, `items.0.quantity`).
 */
const schemaResolver = zodResolver(EttnComposeFormSchema);
type ComposeResolver = Resolver<ComposeValues, unknown, EttnComposeForm>;
const composeResolver: ComposeResolver = async (values, context, options) => {
  const request = composeRequest(values) as z.input<typeof EttnComposeFormSchema>;
  const result = await schemaResolver(request, context, options as never);
  return result as unknown as Awaited<ReturnType<ComposeResolver>>;
};

/** Every field a server's detail may name (`consignee.edrpou`, `items.0.quantity`). */
function formFields(itemCount: number): Path<ComposeValues>[] {
  return [
    'number',
    'issueDate',
    ...(['consignee', 'carrier'] as const).flatMap((p) => PARTY_FIELDS.map((f) => `${p}.${f}` as const)),
    ...TRANSPORT_FIELDS,
    'items',
    ...Array.from({ length: itemCount }, (_, i) => ITEM_FIELDS.map((f) => `items.${i}.${f}` as const)).flat(),
    'despatchAdviceId',
  ];
}

/** "Fill from a despatch advice": the company's newest despatch advices, and the server's prefill of the form. */
function DespatchAdvicePrefill({ onFilled }: { onFilled: (draft: EttnComposeDraft, documentId: string) => void }) {
  const { t, i18n } = useTranslation('ettn');
  const api = useApi();
  const advices = useQuery(ettnDespatchAdvicesQuery(api));
  const [documentId, setDocumentId] = useState<string | null>(null);
  const prefill = useEttnComposeDraft();
  const fill = (id: string) =>
    prefill.mutate(id, {
      onSuccess: (draft) => {
        onFilled(draft, id);
        showSuccess({ message: t('create.prefill.done') });
      },
    });
  const options = (advices.data?.items ?? []).map((doc) => ({
    value: doc.id,
    label: [
      doc.documentNumber ?? t('noNumber'),
      doc.partnerName,
      doc.businessDate ? formatDay(i18n.language, doc.businessDate.slice(0, 10)) : null,
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  return (
    <Paper withBorder p="sm" data-testid="ettn-prefill">
      <Stack gap="xs">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('create.prefill.label')}
            description={advices.isSuccess && options.length === 0 ? t('create.prefill.none') : undefined}
            data={options}
            value={documentId}
            onChange={setDocumentId}
            searchable
            disabled={!advices.isSuccess || options.length === 0}
            w={{ base: '100%', sm: 420 }}
            data-testid="ettn-prefill-select"
          />
          <Button
            variant="light"
            leftSection={<IconFileImport size={18} aria-hidden />}
            disabled={!documentId}
            loading={prefill.isPending}
            onClick={() => documentId && fill(documentId)}
            data-testid="ettn-prefill-button"
          >
            {t('create.prefill.button')}
          </Button>
        </Group>
        {prefill.isError || advices.isError ? (
          <Alert color="red" role="alert" data-testid="ettn-prefill-error">
            {errorText(prefill.error ?? advices.error, 'ettn')}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

function ComposeForm() {
  const { t } = useTranslation(['ettn', 'common']);
  const navigate = useNavigate();
  const compose = useEttnCompose();
  const form = useForm<ComposeValues, unknown, EttnComposeForm>({
    resolver: composeResolver,
    defaultValues: emptyComposeValues(),
    mode: 'onTouched',
  });
  const items = useFieldArray({ control: form.control, name: 'items' });
  const { errors } = form.formState;
  const err = (message: string | undefined) => fieldErrorText(message, 'ettn');
  const [failure, setFailure] = useState<string | null>(null);

  function onValid(values: EttnComposeForm) {
    setFailure(null);
    compose.mutate(values, {
      onSuccess: ({ id }) => {
        showSuccess({ message: t('create.done') });
        void navigate({ to: '/ettn/pending/$id', params: { id }, search: {} });
      },
      // A 400's details go onto their fields (consignee.edrpou, items.0.quantity); any other refusal is said above
      // the buttons in its e-TTN code's words.
      onError: (error) => {
        if (!applyErrorDetails(error, formFields(items.fields.length), form.setError))
          setFailure(errorText(error, 'ettn'));
      },
    });
  }

  const text = (name: Path<ComposeValues>, label: string, error: string | undefined, extra: object = {}) => (
    <TextInput label={label} required error={err(error)} {...extra} {...form.register(name)} />
  );

  /** A group of fields with its legend (a party, the driver, the truck, a place). */
  const group = (testId: string, legend: string, children: ReactNode) => (
    <Paper withBorder p="sm" component="fieldset" data-testid={testId} style={{ minWidth: 0 }}>
      <Text component="legend" fw={600} px={4}>
        {legend}
      </Text>
      <Stack gap="xs">{children}</Stack>
    </Paper>
  );
  const code = { dir: 'ltr', autoComplete: 'off' } as const;
  const place = (which: 'loading' | 'unloading') =>
    group(
      `ettn-create-${which}`,
      t(`create.${which}Place`),
      <>
        {text(`${which}Address`, t(`create.${which}Address`), errors[`${which}Address`]?.message)}
        {text(`${which}Katottg`, t('create.katottg'), errors[`${which}Katottg`]?.message, {
          ...code,
          description: t('create.katottgHint'),
          maxLength: 19,
        })}
        <TextInput
          label={t('create.placeGln')}
          description={t(`create.${which}GlnHint`)}
          required={which === 'unloading'}
          inputMode="numeric"
          maxLength={13}
          {...code}
          error={err(errors[`${which}Gln`]?.message)}
          {...form.register(`${which}Gln`)}
        />
      </>,
    );

  const party = (which: 'consignee' | 'carrier') => {
    const e: FieldErrors<PartyValues> | undefined = errors[which];
    return (
      <Paper withBorder p="sm" component="fieldset" data-testid={`ettn-create-${which}`} style={{ minWidth: 0 }}>
        <Text component="legend" fw={600} px={4}>
          {t(`create.${which}`)}
        </Text>
        <Stack gap="xs">
          {text(`${which}.edrpou`, t('create.edrpou'), e?.edrpou?.message, {
            description: t('subscriptions.edrpouHint'),
            inputMode: 'numeric',
            maxLength: 8,
            dir: 'ltr',
            autoComplete: 'off',
          })}
          {text(`${which}.name`, t('create.name'), e?.name?.message)}
          {text(`${which}.address`, t('create.address'), e?.address?.message)}
        </Stack>
      </Paper>
    );
  };

  return (
    <Stack gap="md">
      <DespatchAdvicePrefill
        onFilled={(draft, id) => form.reset(fromDraft(draft, id, form.getValues()), { keepDefaultValues: true })}
      />
      <form noValidate onSubmit={form.handleSubmit(onValid)} aria-label={t('create.formTitle')}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {text('number', t('create.number'), errors.number?.message, { maxLength: 50 })}
            {text('issueDate', t('create.issueDate'), errors.issueDate?.message, { type: 'date' })}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            {party('consignee')}
            {party('carrier')}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            {group(
              'ettn-create-driver',
              t('create.driver'),
              <>
                {text('driverName', t('create.driverName'), errors.driverName?.message)}
                {text('driverRnokpp', t('create.driverRnokpp'), errors.driverRnokpp?.message, {
                  ...code,
                  description: t('create.driverRnokppHint'),
                  inputMode: 'numeric',
                  maxLength: 10,
                })}
                {text('driverLicence', t('create.driverLicence'), errors.driverLicence?.message, {
                  ...code,
                  description: t('create.driverLicenceHint'),
                  maxLength: 9,
                })}
              </>,
            )}
            {group(
              'ettn-create-vehicle',
              t('create.vehicleGroup'),
              <>
                {text('vehicle', t('create.vehicle'), errors.vehicle?.message, {
                  description: t('create.vehicleHint'),
                  maxLength: 20,
                  dir: 'ltr',
                })}
                {text('vehicleBrand', t('create.vehicleBrand'), errors.vehicleBrand?.message, { maxLength: 100 })}
                {text('vehicleModel', t('create.vehicleModel'), errors.vehicleModel?.message, { maxLength: 100 })}
              </>,
            )}
            {place('loading')}
            {place('unloading')}
          </SimpleGrid>

          <Stack gap="xs" component="section" aria-labelledby="ettn-create-items">
            <Title order={2} size="h4" id="ettn-create-items">
              {t('create.items')}
            </Title>
            {items.fields.map((row, index) => {
              const e = errors.items?.[index];
              const number = index + 1;
              return (
                <Paper withBorder p="sm" key={row.id} data-testid={`ettn-create-item-${index}`}>
                  <Group justify="space-between" mb={4}>
                    <Text fw={600}>{t('create.item.title', { number })}</Text>
                    <Tooltip label={t('create.item.remove', { number })}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        disabled={items.fields.length <= 1}
                        onClick={() => items.remove(index)}
                        aria-label={t('create.item.remove', { number })}
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
                    {text(`items.${index}.name`, t('create.item.name'), e?.name?.message)}
                    <TextInput
                      label={t('create.item.uktzed')}
                      description={t('create.item.uktzedHint')}
                      inputMode="numeric"
                      maxLength={10}
                      dir="ltr"
                      error={err(e?.uktzed?.message)}
                      {...form.register(`items.${index}.uktzed`)}
                    />
                    {text(`items.${index}.quantity`, t('create.item.quantity'), e?.quantity?.message, {
                      inputMode: 'decimal',
                      dir: 'ltr',
                    })}
                    <TextInput
                      label={t('create.item.packageType')}
                      description={t('create.item.packageTypeHint')}
                      maxLength={3}
                      dir="ltr"
                      error={err(e?.packageType?.message)}
                      {...form.register(`items.${index}.packageType`)}
                    />
                    {text(`items.${index}.grossWeightKg`, t('create.item.grossWeightKg'), e?.grossWeightKg?.message, {
                      inputMode: 'decimal',
                      dir: 'ltr',
                    })}
                    <TextInput
                      label={t('create.item.amount')}
                      inputMode="decimal"
                      dir="ltr"
                      error={err(e?.amount?.message)}
                      {...form.register(`items.${index}.amount`)}
                    />
                  </SimpleGrid>
                </Paper>
              );
            })}
            {errors.items?.message ? (
              <Text size="sm" c="red.8" role="alert">
                {err(errors.items.message)}
              </Text>
            ) : null}
            <Group>
              <Button
                variant="default"
                leftSection={<IconPlus size={16} aria-hidden />}
                disabled={items.fields.length >= ETTN_COMPOSE_MAX_ITEMS}
                onClick={() => items.append(emptyItem())}
                data-testid="ettn-create-add-item"
              >
                {t('create.item.add')}
              </Button>
            </Group>
          </Stack>

          {failure ? (
            <Alert color="red" role="alert" data-testid="ettn-create-error">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm" wrap="wrap">
            <Anchor renderRoot={(props) => <Link {...props} to="/ettn/pending" search={{}} />}>
              {t('common:cancel')}
            </Anchor>
            <Button
              type="submit"
              loading={compose.isPending}
              onMouseDown={(event) => event.preventDefault()}
              data-testid="ettn-create-submit"
            >
              {t('create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function UploadXml() {
  const { t } = useTranslation('ettn');
  const navigate = useNavigate();
  const register = useEttnRegister();
  const [file, setFile] = useState<File | null>(null);
  const [role, setRole] = useState<EttnPartyRole>('CZ');
  const [problem, setProblem] = useState<string | null>(null);

  function submit() {
    setProblem(null);
    if (!file) return setProblem(t('create.upload.chooseFile'));
    if (!/\.xml$/i.test(file.name) && !/xml/.test(file.type)) return setProblem(t('create.upload.notXml'));
    register.mutate(
      { file, signingPartyRoleCode: role },
      {
        onSuccess: ({ id }) => {
          showSuccess({ message: t('create.upload.done') });
          void navigate({ to: '/ettn/pending/$id', params: { id }, search: {} });
        },
      },
    );
  }

  return (
    <Stack gap="sm" data-testid="ettn-upload">
      <Text size="sm" c="dimmed">
        {t('create.upload.intro')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {/* A label and no placeholder: the placeholder's grey failed the contrast check (axe). */}
        <FileInput
          label={t('create.upload.file')}
          accept=".xml,application/xml,text/xml"
          required
          clearable
          value={file}
          onChange={setFile}
          data-testid="ettn-upload-file"
        />
        <Select
          label={t('create.upload.role')}
          data={ETTN_PARTY_ROLE_CODES.map((code) => ({ value: code, label: roleLabel(t, code) }))}
          value={role}
          onChange={(next) => {
            if (next && isPartyRole(next)) setRole(next);
          }}
          allowDeselect={false}
          data-testid="ettn-upload-role"
        />
      </SimpleGrid>
      {problem ? (
        <Text size="sm" c="red.8" role="alert">
          {problem}
        </Text>
      ) : null}
      {register.isError ? (
        <Alert color="red" role="alert" data-testid="ettn-upload-error">
          {errorText(register.error, 'ettn')}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button
          leftSection={<IconUpload size={18} aria-hidden />}
          loading={register.isPending}
          onClick={submit}
          data-testid="ettn-upload-submit"
        >
          {t('create.upload.submit')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * /ettn/new: a new note, by form (the server writes the XML, the company as consignor) or by uploading an XML. Either
 * way it becomes a pending upload, opened next for the consignor to sign and send.
 */
export function EttnCreatePage() {
  const { t } = useTranslation('ettn');
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }} maw={1200}>
      <Title order={1}>{t('create.title')}</Title>
      <Tabs defaultValue="form" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="form" data-testid="ettn-create-tab-form">
            {t('create.tabForm')}
          </Tabs.Tab>
          <Tabs.Tab value="upload" data-testid="ettn-create-tab-upload">
            {t('create.tabUpload')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="form" pt="md">
          <ComposeForm />
        </Tabs.Panel>
        <Tabs.Panel value="upload" pt="md">
          <UploadXml />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
