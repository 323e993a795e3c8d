import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Collapse,
  Fieldset,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DRAFT_ALLOWANCE_KINDS,
  DRAFT_NOTE_KINDS,
  INVOICE_TYPES,
  LINE_ACTIONS,
  PACKAGE_TYPES,
  ProductsPageSchema,
  RESPONSE_TYPES,
  draftProblems,
  type Draft,
  type DraftCheck,
  type DraftForm,
  type DraftKind,
  type DraftLine,
  type DraftFinding,
  type DraftParty,
} from '@portal/contracts';
import { computeTotals } from '@portal/documents/money';
import { moneyLinesOf } from '@portal/documents/authoring';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorText } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { describeFinding } from '../../document-validation/index.ts';
import { useUnsavedChanges } from '../../layout/index.ts';
import { AllowancesEditor } from './allowances-editor.tsx';
import { PartyPicker, type PartyRole, type PickedParty } from './party-picker.tsx';
import { PaymentFields } from './payment-fields.tsx';
import {
  draftKindsQuery,
  draftQuery,
  useCheckDraftMutation,
  useCopyDraftMutation,
  useDeleteDraftMutation,
  useSaveDraftMutation,
  useSendDraftMutation,
} from '../api/drafts-queries.ts';

const route = getRouteApi('/app/drafts/$id');

/** An engine finding in the user's language, worded as the Document validation screen words it. */
function useFindingWords(): (finding: DraftFinding) => string {
  const { i18n } = useTranslation(['drafts', 'edifact']);
  return useCallback(
    (finding: DraftFinding) =>
      describeFinding(
        {
          t: i18n.getFixedT(null, 'edifact') as unknown as TFunction<'edifact'>,
          exists: (key: string) => i18n.exists(key, { ns: 'edifact' }),
          isolate: i18n.dir() === 'rtl',
        },
        finding,
      ),
    [i18n],
  );
}
/** A save this long after the last keystroke. */
const AUTOSAVE_MS = 800;

const EMPTY_LINE: DraftLine = {
  gtin: '',
  buyerArticleNumber: '',
  supplierArticleNumber: '',
  description: '',
  quantity: '',
  expectedQuantity: '',
  unit: 'PCE',
  price: '',
  vatRate: '',
  orderLineNumber: '',
  packageNumber: '',
  allowances: [],
};

const PARTIES: Record<DraftKind, PartyRole[]> = {
  order: ['buyer', 'supplier', 'deliveryPoint'],
  order_response: ['buyer', 'supplier'],
  despatch_advice: ['buyer', 'supplier', 'deliveryPoint'],
  invoice: ['buyer', 'supplier', 'deliveryPoint', 'invoicee'],
  credit_note: ['buyer', 'supplier', 'deliveryPoint', 'invoicee'],
  receiving_advice: ['buyer', 'supplier', 'deliveryPoint'],
};

/** /drafts/$id: one draft's form, saved as the user types; Check and Send. */
export function DraftFormPage() {
  const { id } = route.useParams();
  const api = useApi();
  const { t } = useTranslation('drafts');
  const query = useQuery(draftQuery(api, id));
  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    return (
      <Stack p={{ base: 'sm', sm: 'lg' }}>
        <Alert color="red" role="alert">
          {query.error instanceof ApiError && query.error.status === 404
            ? t('problems.notFound')
            : errorText(query.error, 'documents')}
        </Alert>
      </Stack>
    );
  }
  // A new key per draft: its form state starts from that draft.
  return <DraftEditor key={query.data.id} draft={query.data} />;
}

type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed';

function DraftEditor({ draft }: { draft: Draft }) {
  const { t, i18n } = useTranslation('drafts');
  const api = useApi();
  const navigate = useNavigate();
  const { can } = usePermissions();
  const kind = draft.kind;
  const [form, setForm] = useState<DraftForm>(draft.form);
  const [partnerId, setPartnerId] = useState<string | null>(draft.partnerId);
  const version = useRef(draft.version);
  const [saveState, setSaveState] = useState<SaveState>('saved');
  const [saveError, setSaveError] = useState<string | null>(null);
  const [checked, setChecked] = useState<DraftCheck | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [sent, setSent] = useState<string | null>(draft.state === 'sent' ? draft.sentDocumentId : null);
  const [preview, setPreview] = useState(false);
  const save = useSaveDraftMutation(draft.id);
  const check = useCheckDraftMutation(draft.id);
  const send = useSendDraftMutation(draft.id);
  const copy = useCopyDraftMutation();
  const remove = useDeleteDraftMutation();
  const kinds = useQuery({ ...draftKindsQuery(api), enabled: can('OUTBOX_CREATE') });
  const readOnly = sent !== null;
  const invoiceLike = kind === 'invoice' || kind === 'credit_note';
  useUnsavedChanges(saveState !== 'saved');

  // Autosave: the latest values, a moment after the last change; one save at a time.
  const latest = useRef({ form, partnerId });
  useEffect(() => {
    latest.current = { form, partnerId };
  }, [form, partnerId]);
  const saving = useRef<Promise<unknown> | null>(null);
  const persist = async (): Promise<boolean> => {
    if (saving.current) await saving.current.catch(() => undefined);
    const { form: values, partnerId: partner } = latest.current;
    setSaveState('saving');
    const run = save.mutateAsync({ version: version.current, partnerId: partner, form: values });
    saving.current = run;
    try {
      const saved = await run;
      version.current = saved.version;
      // Typed on while saving: still unsaved.
      setSaveState(latest.current.form === values && latest.current.partnerId === partner ? 'saved' : 'unsaved');
      setSaveError(null);
      return true;
    } catch (error) {
      setSaveState('failed');
      setSaveError(errorText(error, 'documents'));
      return false;
    } finally {
      saving.current = null;
    }
  };
  useEffect(() => {
    if (saveState !== 'unsaved') return;
    const timer = setTimeout(() => void persist(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- persist reads the latest values through a ref
  }, [form, partnerId, saveState]);

  const change = (next: DraftForm) => {
    setForm(next);
    setSaveState('unsaved');
  };
  const set = <K extends keyof DraftForm>(key: K, value: DraftForm[K]) => change({ ...form, [key]: value });
  const setParty = (
    role: keyof Pick<DraftForm, 'buyer' | 'supplier' | 'deliveryPoint' | 'invoicee'>,
    key: keyof DraftParty,
    value: string,
  ) => change({ ...form, [role]: { ...form[role], [key]: value } });
  // A picked party replaces the whole party; an invoice's payee account comes with the supplier when none is typed.
  const pickParty = (role: PartyRole, picked: PickedParty) =>
    change({
      ...form,
      [role]: picked.party,
      ...(role === 'supplier' && invoiceLike && picked.account && !form.payment.iban
        ? { payment: { ...form.payment, iban: picked.account } }
        : {}),
    });
  const setLine = (index: number, patch: Partial<DraftLine>) =>
    change({ ...form, lines: form.lines.map((line, i) => (i === index ? { ...line, ...patch } : line)) });

  // The problems show once the user asked for a check or a send; they follow the typing from then on.
  const problems = useMemo(() => (showProblems ? draftProblems(kind, form) : []), [showProblems, kind, form]);
  const words = useFindingWords();
  const problemAt = (field: string): string | undefined => {
    const problem = problems.find((p) => p.field === field);
    if (problem) return t(`problems.${problem.code}` as 'problems.required', { defaultValue: problem.code });
    const finding = checked?.findings.find((f) => f.field === field && f.severity === 'error');
    return finding ? words(finding) : undefined;
  };

  const partners = kinds.data?.kinds.find((k) => k.kind === kind)?.partners ?? [];
  const partnerOptions = partners.map((p) => ({ value: p.id, label: `${p.name} (${p.gln})` }));
  if (partnerId && draft.partnerName && !partners.some((p) => p.id === partnerId)) {
    partnerOptions.unshift({ value: partnerId, label: draft.partnerName });
  }

  const totals = useMemo(
    () =>
      invoiceLike ? computeTotals(moneyLinesOf(form), draft.vatAlgorithm === 'lines' ? 'lines' : 'summary') : null,
    [invoiceLike, form, draft.vatAlgorithm],
  );
  const money = useMemo(
    () => new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    [i18n.language],
  );

  const runCheck = async () => {
    setShowProblems(true);
    if (saveState !== 'saved' && !(await persist())) return;
    setChecked(await check.mutateAsync());
  };
  const runSend = async () => {
    setShowProblems(true);
    if (draftProblems(kind, form).length) return;
    if (saveState !== 'saved' && !(await persist())) return;
    try {
      const result = await send.mutateAsync(version.current);
      setSent(result.documentId);
      showSuccess({ message: t('form.sentBody') });
    } catch (error) {
      // The engine's errors come back with their fields: Check shows them where they belong.
      if (error instanceof ApiError && error.code === 'drafts.check_failed') setChecked(await check.mutateAsync());
    }
  };
  const runCopy = async () => {
    const created = await copy.mutateAsync(draft.id);
    showSuccess({ message: t('list.copied') });
    void navigate({ to: '/drafts/$id', params: { id: created.id } });
  };
  const runDelete = async () => {
    await remove.mutateAsync(draft.id);
    setSaveState('saved');
    showSuccess({ message: t('list.deleted') });
    void navigate({ to: '/documents/out' });
  };

  const { t: tDocuments } = useTranslation('documents');
  const calendar = {
    previousMonth: tDocuments('filters.calendar.previousMonth'),
    nextMonth: tDocuments('filters.calendar.nextMonth'),
    previousYear: tDocuments('filters.calendar.previousYear'),
    nextYear: tDocuments('filters.calendar.nextYear'),
    previousDecade: tDocuments('filters.calendar.previousDecade'),
    nextDecade: tDocuments('filters.calendar.nextDecade'),
  };
  const input = (field: keyof DraftForm, label: string, props: { type?: string; required?: boolean } = {}) =>
    props.type === 'date' ? (
      // The portal's date picker: in the user's language, from the keyboard; a later date never before the document's.
      <DatePickerInput
        label={label}
        value={(form[field] as string) || null}
        onChange={(day) => set(field, (day ?? '') as never)}
        valueFormat="YYYY-MM-DD"
        minDate={field === 'deliveryDate' || field === 'paymentDueDate' ? form.documentDate || undefined : undefined}
        clearable={!props.required}
        clearButtonProps={{ 'aria-label': t('form.clearDate', { field: label }) }}
        ariaLabels={calendar}
        error={problemAt(field)}
        readOnly={readOnly}
        required={props.required}
        data-testid={`draft-${field}`}
      />
    ) : (
      <TextInput
        label={label}
        value={form[field] as string}
        onChange={(e) => set(field, e.currentTarget.value as never)}
        error={problemAt(field)}
        readOnly={readOnly}
        required={props.required}
        data-testid={`draft-${field}`}
      />
    );

  const title = t('form.title', { kind: t(`kinds.${kind}`), number: form.number });
  const stateText = {
    saved: t('form.saved'),
    unsaved: t('form.unsaved'),
    saving: t('form.saving'),
    failed: t('form.saveFailed'),
  }[saveState];

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/documents/out" />}>
        {t('form.back')}
      </Anchor>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Title order={1}>{title}</Title>
          <Badge variant="light" color={readOnly ? 'green' : 'gray'}>
            {readOnly ? t('form.sent') : t('form.draft')}
          </Badge>
        </Group>
        {readOnly ? null : (
          <Text size="sm" c={saveState === 'failed' ? 'red' : 'dimmed'} role="status" data-testid="draft-save-state">
            {stateText}
          </Text>
        )}
      </Group>
      {saveError ? (
        <Alert color="red" role="alert">
          {saveError}
        </Alert>
      ) : null}
      {sent ? (
        <Alert color="green" title={t('form.sentTitle')} role="status" data-testid="draft-sent">
          <Stack gap="xs">
            <Text size="sm">{t('form.sentBody')}</Text>
            <Group gap="sm">
              <Anchor renderRoot={(props) => <Link {...props} to="/documents/$id" params={{ id: sent }} />}>
                {t('form.openSent')}
              </Anchor>
              {can('OUTBOX_CREATE') ? (
                <Button variant="light" size="xs" onClick={() => void runCopy()} loading={copy.isPending}>
                  {t('form.copyToNew')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </Alert>
      ) : null}

      <Fieldset legend={t('form.document')}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          <Select
            label={t('form.partner')}
            placeholder={t('form.partnerPlaceholder')}
            data={partnerOptions}
            value={partnerId}
            onChange={(value) => {
              setPartnerId(value);
              setSaveState('unsaved');
            }}
            error={
              problemAt('partnerId') ??
              (checked?.problems.some((p) => p.field === 'partnerId') ? t('problems.required') : undefined)
            }
            readOnly={readOnly}
            searchable
            required
            data-testid="draft-partner"
          />
          {input('number', t('form.number'), { required: true })}
          {input('documentDate', t('form.documentDate'), { type: 'date', required: true })}
          {input('deliveryDate', t(`form.deliveryDate.${kind}`), { type: 'date' })}
          {kind === 'order'
            ? null
            : input('orderNumber', t('form.orderNumber'), {
                required: kind === 'order_response' || kind === 'despatch_advice',
              })}
          {kind === 'order' ? null : input('orderDate', t('form.orderDate'), { type: 'date' })}
          {invoiceLike || kind === 'receiving_advice'
            ? input('despatchNumber', t('form.despatchNumber'), { required: kind === 'receiving_advice' })
            : null}
          {kind === 'credit_note' ? input('invoiceNumber', t('form.invoiceNumber'), { required: true }) : null}
          {kind === 'credit_note' ? input('invoiceDate', t('form.invoiceDate'), { type: 'date' }) : null}
          {kind === 'invoice' ? (
            <Select
              label={t('form.invoiceType')}
              data={INVOICE_TYPES.map((v) => ({ value: v, label: t(`form.invoiceTypes.${v}`) }))}
              value={form.invoiceType}
              onChange={(v) => v && set('invoiceType', v as DraftForm['invoiceType'])}
              readOnly={readOnly}
              allowDeselect={false}
            />
          ) : null}
          {kind === 'order_response' ? (
            <Select
              label={t('form.responseType')}
              data={RESPONSE_TYPES.map((v) => ({ value: v, label: t(`form.responseTypes.${v}`) }))}
              value={form.responseType}
              onChange={(v) => v && set('responseType', v as DraftForm['responseType'])}
              readOnly={readOnly}
              allowDeselect={false}
            />
          ) : null}
          {kind === 'despatch_advice' || kind === 'receiving_advice' ? null : input('currency', t('form.currency'))}
        </SimpleGrid>
        {DRAFT_NOTE_KINDS.includes(kind) ? (
          <Textarea
            mt="sm"
            label={t('form.note')}
            value={form.note}
            onChange={(e) => set('note', e.currentTarget.value)}
            error={problemAt('note')}
            readOnly={readOnly}
            maxLength={512}
            rows={3}
            data-testid="draft-note"
          />
        ) : null}
      </Fieldset>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {PARTIES[kind].map((role) => (
          <Fieldset key={role} legend={t(`form.parties.${role}`)} data-testid={`draft-party-${role}`}>
            {readOnly ? null : (
              <PartyPicker role={role} partnerId={partnerId} onPick={(picked) => pickParty(role, picked)} />
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {(['gln', 'name', 'street', 'postalCode', 'city', 'country', 'vatId'] as const).map((key) => (
                <TextInput
                  key={key}
                  label={t(`form.party.${key}`)}
                  value={form[role][key]}
                  onChange={(e) => setParty(role, key, e.currentTarget.value)}
                  error={problemAt(`${role}.${key}`) ?? (key === 'gln' ? problemAt(role) : undefined)}
                  readOnly={readOnly}
                  required={key === 'gln' && (role === 'buyer' || role === 'supplier')}
                  inputMode={key === 'gln' ? 'numeric' : undefined}
                />
              ))}
            </SimpleGrid>
          </Fieldset>
        ))}
      </SimpleGrid>

      <Fieldset legend={t('form.lines')}>
        <Stack gap="sm">
          {problemAt('lines') ? (
            <Text c="red" size="sm" role="alert">
              {problemAt('lines')}
            </Text>
          ) : null}
          {form.lines.length === 0 ? <Text c="dimmed">{t('form.noLines')}</Text> : null}
          {form.lines.map((line, index) => (
            <LineFields
              key={index}
              kind={kind}
              line={line}
              index={index}
              packages={form.packages.length}
              readOnly={readOnly}
              problemAt={problemAt}
              net={
                totals && !totals.invalidLines.includes(index)
                  ? money.format(Number(totals.lines[index]?.net))
                  : undefined
              }
              onChange={(patch) => setLine(index, patch)}
              onRemove={() => change({ ...form, lines: form.lines.filter((_, i) => i !== index) })}
            />
          ))}
          {readOnly ? null : (
            <Group gap="sm" align="flex-end" wrap="wrap">
              <Button
                variant="light"
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => change({ ...form, lines: [...form.lines, { ...EMPTY_LINE }] })}
              >
                {t('form.addLine')}
              </Button>
              <ProductPicker
                onPick={(line) => change({ ...form, lines: [...form.lines, { ...EMPTY_LINE, ...line }] })}
              />
            </Group>
          )}
        </Stack>
      </Fieldset>

      {kind === 'despatch_advice' ? (
        <Fieldset legend={t('form.packages')}>
          <Stack gap="sm">
            {problemAt('packages') ? (
              <Text c="red" size="sm" role="alert">
                {problemAt('packages')}
              </Text>
            ) : null}
            {form.packages.map((pkg, index) => (
              <Group key={index} align="flex-end" wrap="wrap" gap="sm">
                <TextInput
                  label={`${t('form.package', { number: index + 1 })}: ${t('form.sscc')}`}
                  value={pkg.sscc}
                  inputMode="numeric"
                  onChange={(e) =>
                    change({
                      ...form,
                      packages: form.packages.map((p, i) => (i === index ? { ...p, sscc: e.currentTarget.value } : p)),
                    })
                  }
                  error={problemAt(`packages.${index}.sscc`)}
                  readOnly={readOnly}
                  data-testid={`draft-sscc-${index}`}
                />
                <Select
                  label={t('form.packageType')}
                  data={PACKAGE_TYPES.map((v) => ({ value: v, label: t(`form.packageTypes.${v}`) }))}
                  value={pkg.type || '201'}
                  onChange={(v) =>
                    change({
                      ...form,
                      packages: form.packages.map((p, i) => (i === index ? { ...p, type: v ?? '201' } : p)),
                    })
                  }
                  readOnly={readOnly}
                  allowDeselect={false}
                />
                {readOnly ? null : (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('form.removePackage', { number: index + 1 })}
                    onClick={() => change({ ...form, packages: form.packages.filter((_, i) => i !== index) })}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
            ))}
            {readOnly ? null : (
              <Button
                variant="light"
                w="fit-content"
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => change({ ...form, packages: [...form.packages, { sscc: '', type: '201' }] })}
              >
                {t('form.addPackage')}
              </Button>
            )}
          </Stack>
        </Fieldset>
      ) : null}

      {invoiceLike ? (
        <PaymentFields
          payment={form.payment}
          dueDate={input('paymentDueDate', t('form.paymentDueDate'), {
            type: 'date',
            required: form.payment.terms === 'fixed_date',
          })}
          readOnly={readOnly}
          problemAt={problemAt}
          onChange={(payment) => set('payment', payment)}
        />
      ) : null}

      {totals ? (
        <Fieldset legend={t('form.totals')} data-testid="draft-totals">
          <Text size="sm" c="dimmed" mb="xs">
            {t(`form.algorithm.${draft.vatAlgorithm}`)}
          </Text>
          <Table fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('form.rate')}</Table.Th>
                <Table.Th ta="end">{t('form.net')}</Table.Th>
                <Table.Th ta="end">{t('form.vat')}</Table.Th>
                <Table.Th ta="end">{t('form.gross')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {totals.rates.map((rate) => (
                <Table.Tr key={rate.vatRate}>
                  <Table.Td>{rate.rate === undefined ? rate.vatRate : `${rate.rate} %`}</Table.Td>
                  <Table.Td ta="end">{money.format(Number(rate.net))}</Table.Td>
                  <Table.Td ta="end">{money.format(Number(rate.vat))}</Table.Td>
                  <Table.Td ta="end">{money.format(Number(rate.gross))}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr fw={700}>
                <Table.Td>{t('form.total')}</Table.Td>
                <Table.Td ta="end">{money.format(Number(totals.net))}</Table.Td>
                <Table.Td ta="end">{money.format(Number(totals.vat))}</Table.Td>
                <Table.Td ta="end" data-testid="draft-gross">
                  {money.format(Number(totals.gross))} {form.currency || 'PLN'}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Fieldset>
      ) : null}

      {checked ? (
        <CheckResult kind={kind} checked={checked} preview={preview} onPreview={() => setPreview((p) => !p)} />
      ) : null}

      {readOnly ? null : (
        <Group justify="flex-end" gap="sm" wrap="wrap">
          {can('OUTBOX_MODIFY') || can('OUTBOX_CREATE') ? (
            <Button variant="subtle" color="red" onClick={() => void runDelete()} loading={remove.isPending}>
              {t('form.delete')}
            </Button>
          ) : null}
          <Button variant="light" onClick={() => void runCheck()} loading={check.isPending} data-testid="draft-check">
            {t('form.check')}
          </Button>
          {can('OUTBOX_SEND') ? (
            <Button onClick={() => void runSend()} loading={send.isPending} data-testid="draft-send">
              {t('form.send')}
            </Button>
          ) : null}
        </Group>
      )}
    </Stack>
  );
}

function LineFields(props: {
  kind: DraftKind;
  line: DraftLine;
  index: number;
  packages: number;
  net?: string | undefined;
  readOnly: boolean;
  problemAt: (field: string) => string | undefined;
  onChange: (patch: Partial<DraftLine>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('drafts');
  const { kind, line, index, readOnly, problemAt, onChange } = props;
  const at = `lines.${index}`;
  const field = (
    key: Exclude<keyof DraftLine, 'allowances' | 'action'>,
    label: string,
    extra: { numeric?: boolean; required?: boolean } = {},
  ) => (
    <TextInput
      label={label}
      value={line[key] ?? ''}
      onChange={(e) => onChange({ [key]: e.currentTarget.value })}
      error={problemAt(`${at}.${key}`)}
      readOnly={readOnly}
      required={extra.required}
      inputMode={extra.numeric ? 'decimal' : undefined}
      data-testid={`draft-line-${index}-${key}`}
    />
  );
  const priced = kind !== 'despatch_advice' && kind !== 'receiving_advice';
  const answered = kind === 'order_response' || kind === 'despatch_advice' || kind === 'receiving_advice';
  const expectedLabel =
    kind === 'receiving_advice' ? t('form.expectedQuantity.receiving_advice') : t('form.expectedQuantity.other');
  return (
    <Fieldset
      legend={
        <Group gap="xs">
          <span>{t('form.line', { number: index + 1 })}</span>
          {readOnly ? null : (
            <ActionIcon
              variant="subtle"
              color="red"
              size="sm"
              aria-label={t('form.removeLine', { number: index + 1 })}
              onClick={props.onRemove}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          )}
        </Group>
      }
      data-testid={`draft-line-${index}`}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        {field('gtin', t('form.gtin'))}
        {field('description', t('form.description'))}
        {field('buyerArticleNumber', t('form.buyerArticleNumber'))}
        {field('supplierArticleNumber', t('form.supplierArticleNumber'))}
        {field('quantity', t(`form.quantity.${kind}`), { numeric: true, required: true })}
        {answered && line.expectedQuantity ? (
          <TextInput label={expectedLabel} value={line.expectedQuantity} readOnly variant="filled" />
        ) : null}
        {field('unit', t('form.unit'))}
        {priced ? field('price', t('form.price'), { numeric: true }) : null}
        {priced ? field('vatRate', t('form.vatRate')) : null}
        {kind === 'order_response' ? (
          <Select
            label={t('form.action')}
            data={LINE_ACTIONS.map((v) => ({ value: v, label: t(`form.actions.${v}`) }))}
            value={line.action ?? 'accepted'}
            onChange={(v) => onChange({ action: (v ?? 'accepted') as DraftLine['action'] })}
            readOnly={readOnly}
            allowDeselect={false}
          />
        ) : null}
        {kind === 'despatch_advice' ? (
          <Select
            label={t('form.packageNumber')}
            data={Array.from({ length: props.packages }, (_, i) => ({
              value: String(i + 1),
              label: t('form.package', { number: i + 1 }),
            }))}
            value={line.packageNumber || null}
            onChange={(v) => onChange({ packageNumber: v ?? '' })}
            error={problemAt(`${at}.packageNumber`)}
            readOnly={readOnly}
            required
          />
        ) : null}
      </SimpleGrid>
      {DRAFT_ALLOWANCE_KINDS.includes(kind) ? (
        <AllowancesEditor
          line={index}
          allowances={line.allowances}
          net={props.net}
          readOnly={readOnly}
          problemAt={problemAt}
          onChange={(allowances) => onChange({ allowances })}
        />
      ) : null}
    </Fieldset>
  );
}

/** Picks a product of the company's catalogue into a new line. */
function ProductPicker({ onPick }: { onPick: (line: Partial<DraftLine>) => void }) {
  const { t } = useTranslation('drafts');
  const api = useApi();
  const { can } = usePermissions();
  const [search, setSearch] = useState('');
  const products = useQuery({
    queryKey: ['products', 'picker', search],
    queryFn: ({ signal }) =>
      api.get('/products', ProductsPageSchema, { query: { limit: 20, search: search || undefined }, signal }),
    enabled: can('OUTBOX_CREATE'),
  });
  const items = products.data?.items ?? [];
  return (
    <Select
      label={t('form.addProduct')}
      placeholder={t('form.addProductPlaceholder')}
      data={items.map((p) => ({ value: p.id, label: [p.gtin, p.description].filter(Boolean).join(' · ') }))}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      value={null}
      onChange={(value) => {
        const product = items.find((p) => p.id === value);
        if (!product) return;
        onPick({
          gtin: product.gtin ?? '',
          description: product.description,
          buyerArticleNumber: product.buyerArticleNumber ?? '',
          supplierArticleNumber: product.supplierArticleNumber ?? '',
          unit: product.unit,
          price: product.price ?? '',
          vatRate: product.vatRate ?? '',
          quantity: '1',
        });
        setSearch('');
      }}
      miw={{ base: '100%', sm: 360 }}
      data-testid="draft-product-picker"
    />
  );
}

/** A form field's path (`lines.0.quantity`, `buyer.gln`, `number`) as the user reads it: "Line 1 · Quantity". */
function useFieldLabel(kind: DraftKind): (field: string | null) => string {
  const { t } = useTranslation('drafts');
  return (field) => {
    if (!field) return t('form.general');
    const [head, second, third, fourth, fifth] = field.split('.');
    const lineKeys: Record<string, string> = {
      gtin: t('form.gtin'),
      description: t('form.description'),
      buyerArticleNumber: t('form.buyerArticleNumber'),
      supplierArticleNumber: t('form.supplierArticleNumber'),
      quantity: t(`form.quantity.${kind}`),
      unit: t('form.unit'),
      price: t('form.price'),
      vatRate: t('form.vatRate'),
      packageNumber: t('form.packageNumber'),
      orderLineNumber: t('form.orderNumber'),
    };
    if (head === 'lines' && second !== undefined) {
      const line = t('form.line', { number: Number(second) + 1 });
      if (third === 'allowances' && fourth !== undefined) {
        const item = t('form.allowances.item', { number: Number(fourth) + 1 });
        const part =
          fifth === 'reason' ? t('form.allowances.reason') : fifth === 'value' ? t('form.allowances.value') : '';
        return [line, item, part].filter(Boolean).join(' · ');
      }
      return third ? `${line} · ${lineKeys[third] ?? third}` : line;
    }
    if (head === 'payment' && second) {
      return `${t('form.payment.title')} · ${t(`form.payment.${second as 'days'}`, { defaultValue: second })}`;
    }
    if (head === 'packages' && second !== undefined) {
      return `${t('form.package', { number: Number(second) + 1 })} · ${t('form.sscc')}`;
    }
    if (head === 'buyer' || head === 'supplier' || head === 'deliveryPoint' || head === 'invoicee') {
      const party = t(`form.parties.${head}`);
      return second ? `${party} · ${t(`form.party.${second as 'gln'}`, { defaultValue: second })}` : party;
    }
    if (head === 'deliveryDate') return t(`form.deliveryDate.${kind}`);
    const labels: Record<string, string> = {
      number: t('form.number'),
      documentDate: t('form.documentDate'),
      orderNumber: t('form.orderNumber'),
      orderDate: t('form.orderDate'),
      despatchNumber: t('form.despatchNumber'),
      invoiceNumber: t('form.invoiceNumber'),
      invoiceDate: t('form.invoiceDate'),
      currency: t('form.currency'),
      paymentDueDate: t('form.paymentDueDate'),
      note: t('form.note'),
      partnerId: t('form.partner'),
      lines: t('form.lines'),
    };
    return labels[field] ?? field;
  };
}

function CheckResult({
  kind,
  checked,
  preview,
  onPreview,
}: {
  kind: DraftKind;
  checked: DraftCheck;
  preview: boolean;
  onPreview: () => void;
}) {
  const { t } = useTranslation('drafts');
  const words = useFindingWords();
  const label = useFieldLabel(kind);
  const errors = checked.findings.filter((f) => f.severity === 'error');
  const ok = checked.ok && checked.problems.length === 0;
  return (
    <Alert
      color={ok ? (checked.findings.length ? 'yellow' : 'green') : 'red'}
      role={ok ? 'status' : 'alert'}
      data-testid="draft-check-result"
    >
      <Stack gap="xs">
        <Text fw={600}>
          {ok ? (checked.findings.length ? t('form.checkWarnings') : t('form.checkOk')) : t('form.checkErrors')}
        </Text>
        {checked.problems.slice(0, 20).map((p) => (
          <Text key={`${p.field}:${p.code}`} size="sm">
            {t('form.finding', {
              field: label(p.field),
              message: t(`problems.${p.code}` as 'problems.required', { defaultValue: p.code }),
            })}
          </Text>
        ))}
        {(errors.length ? errors : checked.findings).slice(0, 20).map((f, i) => (
          <Text key={i} size="sm">
            {t('form.finding', { field: label(f.field), message: words(f) })}
          </Text>
        ))}
        {checked.omitted.length ? (
          <Text size="sm">{t('form.omitted', { fields: checked.omitted.join(', ') })}</Text>
        ) : null}
        {checked.edifact ? (
          <>
            {/* Dark and underlined: the theme's link blue is too faint on the alert's tint. */}
            <Anchor
              component="button"
              type="button"
              size="sm"
              c="dark.9"
              underline="always"
              w="fit-content"
              onClick={onPreview}
              aria-expanded={preview}
            >
              {t('form.preview')}
            </Anchor>
            <Collapse expanded={preview}>
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="draft-edifact">
                {checked.edifact.replaceAll("'", "'\n")}
              </Code>
            </Collapse>
          </>
        ) : null}
      </Stack>
    </Alert>
  );
}
