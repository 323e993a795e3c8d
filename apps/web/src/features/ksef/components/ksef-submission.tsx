import { Badge, Button, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isKsefPortalCode, type KsefSubmissionView } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { attachmentFilename, saveBlob, sendAuthorized } from '../../../lib/api-files.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { findTextWith } from '../../../i18n/dynamic-text.ts';
import { showFailure } from '../../../lib/error-text.ts';
import { ksefSubmissionQuery } from '../api/ksef-queries.ts';

const STATE_COLOR: Record<KsefSubmissionView['state'], string> = {
  queued: 'gray',
  sending: 'blue',
  accepted: 'teal',
  rejected: 'red',
  failed: 'red',
};

/**
 * An outbox invoice's KSeF panel in the document view (issue 13, part 3): its state as the job moves it, the KSeF
 * list labels (KSeF reference number, acquisition timestamp, session number, element number, token), the Ministry's
 * reasons of a refusal, and the UPO download. Nothing for a document never submitted.
 *
 * A code with a sentence in the catalogs (KSeF's invoice status codes a refusal can carry, and the portal's own,
 * `KSEF_PORTAL_CODES`) leads with that sentence in the user's language; the details below it stay as they came (the
 * Ministry's reasons are the original text, in Polish). A KSeF code keeps its "Reasons (KSeF code N)" heading above
 * them; a portal code's details (the corrected invoice, its own check's reasons) follow its sentence.
 */
export function KsefSubmission({ documentId }: { documentId: string }) {
  const { t, i18n } = useTranslation('ksef');
  const api = useApi();
  const session = useSession();
  const query = useQuery(ksefSubmissionQuery(api, documentId));
  const upo = useMutation({
    mutationFn: async (fallback: string) => {
      const response = await sendAuthorized(session, `/documents/${encodeURIComponent(documentId)}/ksef/upo`);
      saveBlob(await response.blob(), attachmentFilename(response.headers.get('content-disposition'), fallback));
    },
    onError: (error) => showFailure(error, 'ksef'),
  });
  const submission = query.data;
  if (!submission) return null;
  const code = submission.errorCode;
  const lead =
    code === null
      ? undefined
      : findTextWith({ t, exists: (key) => i18n.exists(key, { ns: 'ksef' }) }, `submission.code.${code}`);
  const portalCode = code !== null && isKsefPortalCode(code);
  const field = (label: string, value: string | null, testId: string) => (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" dir="ltr" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value ?? '—'}
      </Text>
    </div>
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="ksef-submission-title" data-testid="ksef-submission">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Title order={3} size="h5" id="ksef-submission-title">
              {t('submission.title')}
            </Title>
            <Badge color={STATE_COLOR[submission.state]} variant="light" c="dark.7" data-testid="ksef-submission-state">
              {t(`submission.state.${submission.state}`)}
            </Badge>
          </Group>
          {submission.hasUpo ? (
            <Button
              variant="default"
              size="xs"
              loading={upo.isPending}
              onClick={() => upo.mutate(`UPO_${submission.ksefNumber ?? documentId}.xml`)}
              data-testid="ksef-submission-upo"
            >
              {t('submission.downloadUpo')}
            </Button>
          ) : null}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {field(t('submission.ksefNumber'), submission.ksefNumber, 'ksef-submission-number')}
          {field(
            t('submission.acquisitionDate'),
            submission.acquisitionDate ? formatDateTime(i18n.language, submission.acquisitionDate) : null,
            'ksef-submission-acquired',
          )}
          {field(t('submission.sessionReference'), submission.sessionReference, 'ksef-submission-session')}
          {field(t('submission.elementReference'), submission.elementReference, 'ksef-submission-element')}
          {field(t('submission.tokenReference'), submission.tokenReference, 'ksef-submission-token')}
        </SimpleGrid>
        {lead || submission.errorDetails.length > 0 ? (
          <Stack gap={4} data-testid="ksef-submission-reasons">
            {lead ? (
              <Text size="sm" fw={600} data-testid="ksef-submission-lead">
                {lead}
              </Text>
            ) : null}
            {submission.errorDetails.length > 0 && !(portalCode && lead) ? (
              <Text size="sm" fw={lead ? undefined : 600}>
                {code !== null && !portalCode ? t('submission.reasonsWithCode', { code }) : t('submission.reasons')}
              </Text>
            ) : null}
            {submission.errorDetails.length > 0 ? (
              <List size="sm" data-testid="ksef-submission-details">
                {submission.errorDetails.map((reason, i) => (
                  <List.Item key={i} dir="auto">
                    {reason}
                  </List.Item>
                ))}
              </List>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
