import { Alert, Badge, Button, FileInput, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconPaperclip, IconSignature, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ETTN_SUPPORTING_DOCUMENT_MAX_BYTES,
  ETTN_SUPPORTING_DOCUMENT_TYPES,
  type EttnSupportingDocument,
  type EttnView as EttnViewData,
} from '@portal/contracts';
import { errorText } from '../../../lib/error-text.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import {
  useAttachSupportingDocument,
  useSupportingDocumentAction,
  useSupportingDocumentFile,
} from '../api/ettn-mutations.ts';
import {
  findMyRole,
  foldRole,
  isPartyRole,
  type EttnPartyRole,
  type EttnSupportingDocumentType,
} from '../ettn-roles.ts';
import { ActingRoleSelect } from './ettn-actions.tsx';
import { roleLabel, supportingTypeLabel } from './ettn-labels.ts';

const STATUS_COLOR: Record<EttnSupportingDocument['status'], string> = {
  DRAFT: 'gray',
  SIGNATURE_PENDING: 'yellow',
  SIGNED: 'green',
  CANCELED: 'red',
};
const isSupportingType = (value: string): value is EttnSupportingDocumentType =>
  (ETTN_SUPPORTING_DOCUMENT_TYPES as readonly string[]).includes(value);
const MAX_MB = ETTN_SUPPORTING_DOCUMENT_MAX_BYTES / (1024 * 1024);

type Failure = { id: string; error: unknown };

function DocumentCard({
  doc,
  myRoles,
  onFailure,
}: {
  doc: EttnSupportingDocument;
  myRoles: readonly string[];
  onFailure: (failure: Failure | null) => void;
}) {
  const { t, i18n } = useTranslation('ettn');
  const action = useSupportingDocumentAction();
  const file = useSupportingDocumentFile();
  const active = doc.status !== 'CANCELED';
  const signed = new Set(doc.signedBy.map(foldRole));
  const signAs = active ? myRoles.filter(isPartyRole).find((role) => !signed.has(foldRole(role))) : undefined;
  const cancelAs = active ? findMyRole(myRoles, [doc.attachedBy]) : undefined;
  const type = supportingTypeLabel(t, doc.type);

  function act(kind: 'sign' | 'cancel', role: EttnPartyRole) {
    onFailure(null);
    action.mutate(
      { id: doc.id, action: kind, signingPartyRoleCode: role },
      {
        onSuccess: () => showSuccess({ message: t(`supporting.done.${kind}`, { type }) }),
        onError: (error) => onFailure({ id: doc.id, error }),
      },
    );
  }

  return (
    <Paper component="li" withBorder p="sm" data-testid="ettn-supporting-document">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>{type}</Text>
          <Badge color={STATUS_COLOR[doc.status]} variant="light" c="dark.7" tt="none">
            {t(`supporting.status.${doc.status}`)}
          </Badge>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {doc.fileName}
        </Text>
        <Text size="sm" c="dimmed">
          {t('supporting.attachedBy', {
            role: roleLabel(t, doc.attachedBy),
            date: formatDateTime(i18n.language, doc.createdAt),
          })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('supporting.signedBy', {
            roles: doc.signedBy.length ? doc.signedBy.map((r) => roleLabel(t, r)).join(', ') : t('view.none'),
          })}
        </Text>
        <Group gap="xs" wrap="wrap" mt={4}>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={file.isPending}
            aria-label={t('supporting.downloadLabel', { name: doc.fileName })}
            onClick={() => {
              onFailure(null);
              file.mutate(
                { id: doc.id, fileName: doc.fileName },
                { onError: (error) => onFailure({ id: doc.id, error }) },
              );
            }}
            data-testid="ettn-supporting-download"
          >
            {t('supporting.download')}
          </Button>
          {signAs ? (
            <Button
              variant="light"
              size="xs"
              leftSection={<IconSignature size={16} aria-hidden />}
              loading={action.isPending && action.variables?.action === 'sign'}
              aria-label={t('supporting.signLabel', { type })}
              onClick={() => act('sign', signAs)}
              data-testid="ettn-supporting-sign"
            >
              {t('supporting.sign')}
            </Button>
          ) : null}
          {cancelAs ? (
            <Button
              variant="light"
              color="red"
              size="xs"
              leftSection={<IconX size={16} aria-hidden />}
              loading={action.isPending && action.variables?.action === 'cancel'}
              aria-label={t('supporting.cancelLabel', { type })}
              onClick={() => act('cancel', cancelAs)}
              data-testid="ettn-supporting-cancel"
            >
              {t('supporting.cancel')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

function AttachForm({ view }: { view: EttnViewData }) {
  const { t } = useTranslation('ettn');
  const attach = useAttachSupportingDocument();
  const roles = view.myRoles.filter(isPartyRole);
  const [role, setRole] = useState<EttnPartyRole | undefined>(roles[0]);
  const [type, setType] = useState<EttnSupportingDocumentType | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  function submit() {
    setProblem(null);
    if (!type || !role) return setProblem(t('supporting.chooseType'));
    if (!file) return setProblem(t('supporting.chooseFile'));
    const isPdf = file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
    if (!isPdf) return setProblem(t('supporting.notPdf'));
    if (file.size > ETTN_SUPPORTING_DOCUMENT_MAX_BYTES) return setProblem(t('supporting.tooLarge', { max: MAX_MB }));
    attach.mutate(
      { processId: view.processId, type, signingPartyRoleCode: role, file },
      {
        onSuccess: () => {
          setType(null);
          setFile(null);
          showSuccess({ message: t('supporting.done.attach', { type: supportingTypeLabel(t, type) }) });
        },
      },
    );
  }

  return (
    <Stack gap="xs" data-testid="ettn-supporting-attach">
      <Title order={4} size="h5">
        {t('supporting.attachTitle')}
      </Title>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <ActingRoleSelect roles={roles} value={role} onChange={setRole} testId="ettn-supporting-role" />
        <Select
          label={t('supporting.type')}
          searchable
          data={ETTN_SUPPORTING_DOCUMENT_TYPES.map((value) => ({ value, label: supportingTypeLabel(t, value) }))}
          value={type}
          onChange={(next) => setType(next && isSupportingType(next) ? next : null)}
          w={{ base: '100%', xs: 280 }}
          data-testid="ettn-supporting-type"
        />
        {/* A label and no placeholder: the placeholder's grey failed the contrast check (axe). */}
        <FileInput
          label={t('supporting.file')}
          description={t('supporting.fileHint', { max: MAX_MB })}
          accept="application/pdf,.pdf"
          clearable
          value={file}
          onChange={setFile}
          w={{ base: '100%', xs: 280 }}
          data-testid="ettn-supporting-file"
        />
      </Group>
      {problem ? (
        <Text size="sm" c="red.8" role="alert">
          {problem}
        </Text>
      ) : null}
      {attach.isError ? (
        <Alert color="red" role="alert" data-testid="ettn-supporting-error">
          {errorText(attach.error, 'ettn')}
        </Alert>
      ) : null}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPaperclip size={18} aria-hidden />}
          loading={attach.isPending}
          onClick={submit}
          data-testid="ettn-supporting-attach-button"
        >
          {t('supporting.attach')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The note's supporting documents (PDFs: orders, certificates, invoices…): type, status, file, who signed; the file to
 * download; countersign or withdraw where the company may; attach another as one of the company's roles.
 */
export function EttnSupportingDocuments({ view }: { view: EttnViewData }) {
  const { t } = useTranslation('ettn');
  const [failure, setFailure] = useState<Failure | null>(null);
  const canAttach = view.myRoles.some(isPartyRole) && view.status !== 'CANCELED';
  return (
    <Stack gap="xs" component="section" aria-labelledby="ettn-supporting-title" data-testid="ettn-supporting">
      <Title order={3} size="h4" id="ettn-supporting-title">
        {t('supporting.title')}
      </Title>
      {failure ? (
        <Alert color="red" role="alert" data-testid="ettn-supporting-action-error">
          {errorText(failure.error, 'ettn')}
        </Alert>
      ) : null}
      {view.supportingDocuments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('supporting.empty')}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('supporting.title')}>
          {view.supportingDocuments.map((doc) => (
            <DocumentCard key={doc.id} doc={doc} myRoles={view.myRoles} onFailure={setFailure} />
          ))}
        </Stack>
      )}
      {canAttach ? <AttachForm view={view} /> : null}
    </Stack>
  );
}
