import { Alert, Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconSignature, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ETTN_ACT_TYPES, type EttnView as EttnViewData } from '@portal/contracts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { errorText } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useEttnSignAndSend, type SignAndSendInput } from '../api/ettn-mutations.ts';
import { ETTN_CONSIGNOR_ROLE, findMyRole, isPartyRole, type EttnPartyRole } from '../ettn-roles.ts';
import { actTypeLabel, roleLabel } from './ettn-labels.ts';

const STEP_ACTIONS = ['consignor_send', 'send_preliminary', 'pickup_sign', 'arrival_sign'] as const;
const REASON_MAX = 500;
type ActType = (typeof ETTN_ACT_TYPES)[number];
const isActType = (value: string): value is ActType => (ETTN_ACT_TYPES as readonly string[]).includes(value);

/** The primary button's name for the note's next step: "Sign the pick-up", "Sign the arrival", … */
function useStepActionLabel() {
  const { t } = useTranslation('ettn');
  return (step: string | null) => {
    const known = STEP_ACTIONS.find((s) => s === step);
    return known ? t(`actions.step.${known}`) : t('actions.sign');
  };
}

/** The company's role to act as when it holds several on the note (a select), else its only one (nothing shown). */
export function ActingRoleSelect({
  roles,
  value,
  onChange,
  testId,
}: {
  roles: readonly EttnPartyRole[];
  value: EttnPartyRole | undefined;
  onChange: (role: EttnPartyRole) => void;
  testId: string;
}) {
  const { t } = useTranslation('ettn');
  if (roles.length < 2) return null;
  return (
    <Select
      label={t('actions.actAs')}
      data={roles.map((role) => ({ value: role, label: roleLabel(t, role) }))}
      value={value ?? null}
      onChange={(next) => {
        if (next && isPartyRole(next)) onChange(next);
      }}
      allowDeselect={false}
      w={{ base: '100%', xs: 260 }}
      data-testid={testId}
    />
  );
}

/** A refusal's optional reason and its confirmation, opened by the Refuse or Reject button. */
function ReasonForm({
  label,
  confirmLabel,
  testId,
  pending,
  onConfirm,
  onCancel,
}: {
  label: string;
  confirmLabel: string;
  testId: string;
  pending: boolean;
  onConfirm: (reason: string | undefined) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(['ettn', 'common']);
  const [reason, setReason] = useState('');
  return (
    <Stack gap="xs" w="100%">
      <Textarea
        label={label}
        rows={2}
        maxLength={REASON_MAX}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        data-testid={`${testId}-reason`}
      />
      <Group gap="xs" wrap="wrap">
        <Button
          color="red"
          loading={pending}
          onClick={() => onConfirm(reason.trim() || undefined)}
          data-testid={`${testId}-confirm`}
        >
          {confirmLabel}
        </Button>
        <Button variant="default" onClick={onCancel}>
          {t('common:cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * What the user can do with the note now: send a pending upload (the consignor); the note's next step when one of
 * the company's roles must act, or refuse it with a reason; start an act; countersign or reject an act whose next
 * signer is the company. Each is one `signAndSend` with the view's status and version; a refusal is said here in its
 * e-TTN code's words and the dialog stays open.
 */
export function EttnActions({ view, onSent }: { view: EttnViewData; onSent?: (processId: string) => void }) {
  const { t } = useTranslation('ettn');
  const { hasRole } = usePermissions();
  const send = useEttnSignAndSend();
  const stepLabel = useStepActionLabel();
  const [open, setOpen] = useState<string | null>(null);
  const myRoles = view.myRoles.filter(isPartyRole);
  const [actRole, setActRole] = useState<EttnPartyRole | undefined>(myRoles[0]);
  const [actType, setActType] = useState<ActType | null>(null);
  const [actReason, setActReason] = useState('');

  function run(input: SignAndSendInput, success: string, after?: (processId: string) => void) {
    send.mutate(
      { ...input, actualStatus: view.status, actualVersion: view.version },
      {
        onSuccess: (answer) => {
          setOpen(null);
          showSuccess({ message: success });
          after?.(answer.processId);
        },
      },
    );
  }
  const pendingOf = (key: string) => send.isPending && open === key;

  const canSendUpload = view.isPending && (hasRole(ETTN_CONSIGNOR_ROLE) || view.myRoles.includes('CZ'));
  const isNote = !view.isPending && view.kind === 'ettn';
  const stepRole = isNote ? findMyRole(view.myRoles, view.mustAct) : undefined;
  const myActs = isNote
    ? view.acts.flatMap((act) => {
        const role = act.nextSigner ? findMyRole(view.myRoles, [act.nextSigner]) : undefined;
        return role ? [{ act, role }] : [];
      })
    : [];
  const canStartAct = isNote && myRoles.length > 0 && view.status !== 'CANCELED';
  if (!canSendUpload && !stepRole && myActs.length === 0 && !canStartAct) return null;

  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="ettn-actions-title" data-testid="ettn-actions">
      <Stack gap="sm">
        <Title order={3} size="h4" id="ettn-actions-title">
          {t('actions.title')}
        </Title>
        {send.isError ? (
          <Alert color="red" role="alert" data-testid="ettn-action-error">
            {errorText(send.error, 'ettn')}
          </Alert>
        ) : null}

        {canSendUpload ? (
          <Group gap="xs" wrap="wrap">
            <Button
              leftSection={<IconSignature size={18} aria-hidden />}
              loading={pendingOf('send')}
              onClick={() => {
                setOpen('send');
                run({ registeredFileId: view.processId, signingPartyRoleCode: 'CZ' }, t('actions.done.sent'), onSent);
              }}
              data-testid="ettn-action-sign"
            >
              {t('actions.signAndSend')}
            </Button>
          </Group>
        ) : null}

        {stepRole ? (
          <Stack gap="xs" data-testid="ettn-step-actions">
            <Text size="sm">{t('actions.yourStep', { role: roleLabel(t, stepRole) })}</Text>
            <Group gap="xs" wrap="wrap">
              <Button
                leftSection={<IconSignature size={18} aria-hidden />}
                loading={pendingOf('step')}
                onClick={() => {
                  setOpen('step');
                  run(
                    { processId: view.processId, signingPartyRoleCode: stepRole, decision: 'sign' },
                    t('actions.done.signed'),
                  );
                }}
                data-testid="ettn-action-sign"
              >
                {stepLabel(view.currentStep)}
              </Button>
              {open !== 'refuse' ? (
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconX size={18} aria-hidden />}
                  onClick={() => setOpen('refuse')}
                  data-testid="ettn-action-refuse"
                >
                  {t('actions.refuse')}
                </Button>
              ) : null}
            </Group>
            {open === 'refuse' ? (
              <ReasonForm
                label={t('actions.refuseReason')}
                confirmLabel={t('actions.refuseConfirm')}
                testId="ettn-action-refuse"
                pending={send.isPending}
                onCancel={() => setOpen(null)}
                onConfirm={(reason) =>
                  run(
                    { processId: view.processId, signingPartyRoleCode: stepRole, decision: 'reject', reason },
                    t('actions.done.refused'),
                  )
                }
              />
            ) : null}
          </Stack>
        ) : null}

        {myActs.map(({ act, role }) => {
          const key = `act-${act.documentId}`;
          const name = actTypeLabel(t, act.type);
          return (
            <Stack gap="xs" key={act.documentId} data-testid="ettn-act-actions">
              <Text size="sm">{t('actions.actAwaits', { act: name, role: roleLabel(t, role) })}</Text>
              <Group gap="xs" wrap="wrap">
                <Button
                  variant="light"
                  leftSection={<IconSignature size={18} aria-hidden />}
                  loading={pendingOf(key)}
                  aria-label={t('actions.countersignAct', { act: name })}
                  onClick={() => {
                    setOpen(key);
                    run(
                      {
                        processId: view.processId,
                        documentId: act.documentId,
                        signingPartyRoleCode: role,
                        decision: 'sign',
                      },
                      t('actions.done.countersigned'),
                    );
                  }}
                  data-testid="ettn-act-countersign"
                >
                  {t('actions.countersign')}
                </Button>
                {open !== `reject-${act.documentId}` ? (
                  <Button
                    variant="light"
                    color="red"
                    leftSection={<IconX size={18} aria-hidden />}
                    aria-label={t('actions.rejectAct', { act: name })}
                    onClick={() => setOpen(`reject-${act.documentId}`)}
                    data-testid="ettn-act-reject"
                  >
                    {t('actions.reject')}
                  </Button>
                ) : null}
              </Group>
              {open === `reject-${act.documentId}` ? (
                <ReasonForm
                  label={t('actions.rejectReason')}
                  confirmLabel={t('actions.rejectConfirm')}
                  testId="ettn-act-reject"
                  pending={send.isPending}
                  onCancel={() => setOpen(null)}
                  onConfirm={(reason) =>
                    run(
                      {
                        processId: view.processId,
                        documentId: act.documentId,
                        signingPartyRoleCode: role,
                        decision: 'reject',
                        reason,
                      },
                      t('actions.done.rejected'),
                    )
                  }
                />
              ) : null}
            </Stack>
          );
        })}

        {canStartAct ? (
          <Stack gap="xs" data-testid="ettn-act-start-form">
            <Title order={4} size="h5">
              {t('actions.startAct')}
            </Title>
            <Group gap="sm" align="flex-start" wrap="wrap">
              <ActingRoleSelect roles={myRoles} value={actRole} onChange={setActRole} testId="ettn-act-role" />
              <Select
                label={t('actions.actType')}
                data={ETTN_ACT_TYPES.map((type) => ({ value: type, label: actTypeLabel(t, type) }))}
                value={actType}
                onChange={(next) => setActType(next && isActType(next) ? next : null)}
                w={{ base: '100%', xs: 280 }}
                data-testid="ettn-act-type"
              />
            </Group>
            <Textarea
              label={t('actions.actReason')}
              rows={2}
              maxLength={REASON_MAX}
              value={actReason}
              onChange={(event) => setActReason(event.currentTarget.value)}
              data-testid="ettn-act-reason"
            />
            <Group>
              <Button
                variant="light"
                disabled={!actType || !actRole}
                loading={pendingOf('start')}
                onClick={() => {
                  if (!actType || !actRole) return;
                  setOpen('start');
                  send.mutate(
                    {
                      processId: view.processId,
                      signingPartyRoleCode: actRole,
                      actType,
                      reason: actReason.trim() || undefined,
                      actualStatus: view.status,
                      actualVersion: view.version,
                    },
                    {
                      onSuccess: () => {
                        setOpen(null);
                        setActType(null);
                        setActReason('');
                        showSuccess({ message: t('actions.done.actStarted', { act: actTypeLabel(t, actType) }) });
                      },
                    },
                  );
                }}
                data-testid="ettn-act-start"
              >
                {t('actions.startActButton')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
