import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ANSWERABLE_DOCUMENT_KINDS,
  DOCUMENT_RESPONSE_REASON_MAX,
  type DocumentDetail,
  type DocumentResponseDecision,
} from '@portal/contracts';
import { ApiError } from '../../../lib/api-error.ts';
import { showFailure } from '../../../lib/error-text.ts';
import { findText } from '../../../i18n/dynamic-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useRespond } from '../api/document-actions.ts';

/** The answer a document's history records (`accepted`, `rejected`), or null when it has none (or it was withdrawn). */
export function answerOf(doc: Pick<DocumentDetail, 'history'>): 'accepted' | 'rejected' | null {
  const last = doc.history.filter((h) => h.field === 'response').at(-1);
  return last?.to === 'accepted' || last?.to === 'rejected' ? last.to : null;
}

const ANSWERABLE: readonly string[] = ANSWERABLE_DOCUMENT_KINDS;

/**
 * Accept or reject a received order, response, despatch advice, invoice, credit note or receiving advice: the portal
 * sends its sender an APERAK. A rejection asks its reason in a dialog. Shown to a user with inbox modify; once the
 * document is answered, the buttons stay disabled and say what the answer was.
 */
export function DocumentResponseActions({ doc }: { doc: DocumentDetail }) {
  const { t } = useTranslation('documents');
  const { can } = usePermissions();
  const respond = useRespond(doc.id);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  /** The reason's error: required, or the server's (a letter the partner's character set lacks, too long). */
  const [reasonError, setReasonError] = useState<string | undefined>();
  if (doc.direction !== 'in' || !ANSWERABLE.includes(doc.documentKind) || !can('INBOX_MODIFY')) return null;
  const answered = answerOf(doc);

  const send = (decision: DocumentResponseDecision) =>
    respond.mutate(decision === 'reject' ? { decision, reason: reason.trim() } : { decision }, {
      onSuccess: () => {
        showSuccess({ message: t(decision === 'accept' ? 'response.accepted' : 'response.rejected') });
        setRejecting(false);
        setReason('');
      },
      onError: (error) => {
        const detail = error instanceof ApiError ? error.details.find((d) => d.field === 'reason') : undefined;
        if (decision === 'reject' && detail) {
          setReasonError(
            findText(`documents:fieldErrors.${detail.code}`, detail.params) ??
              findText(`validation:${detail.code}`, detail.params) ??
              t('response.reasonRequired'),
          );
        } else showFailure(error, 'documents');
      },
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setReasonError(t('response.reasonRequired'));
      return;
    }
    send('reject');
  };

  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={t('response.title')} data-testid="document-response">
      {answered ? (
        <Text size="sm" c="dimmed" data-testid="document-answered">
          {t(answered === 'accepted' ? 'response.answeredAccepted' : 'response.answeredRejected')}
        </Text>
      ) : null}
      {/* The default variant with a green icon: the light green variant's text is too faint for WCAG contrast. */}
      <Button
        variant="default"
        leftSection={<IconCircleCheck size={18} aria-hidden color="var(--mantine-color-green-8)" />}
        disabled={!!answered}
        loading={respond.isPending && !rejecting}
        onClick={() => send('accept')}
      >
        {t('response.accept')}
      </Button>
      <Button
        variant="light"
        color="red"
        leftSection={<IconCircleX size={18} aria-hidden />}
        disabled={!!answered || respond.isPending}
        aria-haspopup="dialog"
        onClick={() => {
          setReasonError(undefined);
          setRejecting(true);
        }}
      >
        {t('response.reject')}
      </Button>
      <Modal opened={rejecting} onClose={() => setRejecting(false)} title={t('response.rejectTitle')}>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Textarea
              label={t('response.reason')}
              description={t('response.reasonHint')}
              required
              minRows={3}
              data-autofocus
              maxLength={DOCUMENT_RESPONSE_REASON_MAX}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonError(undefined);
              }}
              error={reasonError}
            />
            <Text size="xs" c="dimmed" ta="end" aria-live="polite" data-testid="response-counter">
              {t('response.counter', { count: reason.length, max: DOCUMENT_RESPONSE_REASON_MAX })}
            </Text>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setRejecting(false)}>
                {t('response.cancel')}
              </Button>
              <Button type="submit" color="red" loading={respond.isPending}>
                {t('response.confirmReject')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Group>
  );
}
