import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EttnView as EttnViewData } from '@portal/contracts';
import { errorText } from '../../../lib/error-text.ts';
import { useEttnPdf } from '../api/ettn-mutations.ts';
import { actTypeLabel, roleLabel, stepLabel, timeText } from './ettn-labels.ts';
import { EttnActions } from './ettn-actions.tsx';
import { EttnProgress } from './ettn-progress.tsx';
import { EttnStatusBadge } from './ettn-status-badge.tsx';
import { EttnSupportingDocuments } from './ettn-supporting-documents.tsx';

/** The dialog's or page's title of a note. */
export function ettnTitle(
  t: (key: 'view.title' | 'view.titleNoNumber', o?: { number: string }) => string,
  number: string | null,
) {
  return number ? t('view.title', { number }) : t('view.titleNoNumber');
}

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title} data-testid={testId}>
      <Title order={3} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Label and value, on one line that wraps on a phone. */
function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Text size="sm">
      <Text span c="dimmed" size="sm">
        {label}:
      </Text>{' '}
      {value}
    </Text>
  );
}

function None() {
  const { t } = useTranslation('ettn');
  return (
    <Text size="sm" c="dimmed">
      {t('view.none')}
    </Text>
  );
}

/** The PDF of the note, saved as a file; a refusal (e.g. `ettn.9`) is said beside the button. */
function PdfButton({ view }: { view: EttnViewData }) {
  const { t, i18n } = useTranslation('ettn');
  const pdf = useEttnPdf();
  return (
    <Stack gap="xs">
      <Button
        variant="light"
        leftSection={<IconDownload size={18} aria-hidden />}
        loading={pdf.isPending}
        onClick={() =>
          pdf.mutate({ id: view.processId, pending: view.isPending, language: i18n.language, number: view.number })
        }
      >
        {t('view.download')}
      </Button>
      {pdf.isError ? (
        <Alert color="red" role="alert" data-testid="ettn-pdf-error">
          {errorText(pdf.error, 'ettn')}
        </Alert>
      ) : null}
    </Stack>
  );
}

/**
 * A readable e-TTN: status and its progression, parties, route, cargo lines, vehicles with their seals, signatures
 * (signer, role, time), acts, supporting documents and history; the PDF to download; what the user can do now
 * (sign, refuse, acts). Cards rather than tables: nothing scrolls sideways.
 */
export function EttnView({ view, onSent }: { view: EttnViewData; onSent?: (processId: string) => void }) {
  const { t, i18n } = useTranslation('ettn');
  const lang = i18n.language;
  const roles = (codes: readonly string[]) => codes.map((r) => roleLabel(t, r)).join(', ');
  return (
    <Stack gap="lg" data-testid="ettn-view">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4}>
          <Group gap="xs">
            <EttnStatusBadge status={view.status} />
            {view.kind === 'act' && view.actType ? (
              <Badge variant="outline">{actTypeLabel(t, view.actType)}</Badge>
            ) : null}
          </Group>
          <Field label={t('view.issued')} value={timeText(view.issueDateTime, lang)} />
          <Field label={t('view.version')} value={view.version} />
          {view.currentStep ? (
            <Field
              label={t('columns.step')}
              value={`${stepLabel(t, view.currentStep)}${view.mustAct.length ? ` — ${t('mustAct', { roles: roles(view.mustAct) })}` : ''}`}
            />
          ) : null}
          {view.myRoles.length ? <Field label={t('view.myRoles')} value={roles(view.myRoles)} /> : null}
        </Stack>
        <PdfButton view={view} />
      </Group>

      <EttnProgress status={view.status} />

      <EttnActions view={view} onSent={onSent} />

      <Section title={t('view.parties')} testId="ettn-parties">
        {view.parties.length === 0 ? <None /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {view.parties.map((party, i) => (
            <Paper withBorder p="sm" key={`${party.role}-${i}`}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {roleLabel(t, party.role)}
              </Text>
              <Text fw={600}>{party.name ?? '—'}</Text>
              {party.edrpou ? <Field label={t('view.edrpou')} value={party.edrpou} /> : null}
              {party.address ? <Field label={t('view.address')} value={party.address} /> : null}
              {party.person ? <Field label={t('view.person')} value={party.person} /> : null}
            </Paper>
          ))}
        </SimpleGrid>
      </Section>

      <Section title={t('view.route')} testId="ettn-route">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {(['loading', 'unloading'] as const).map((end) => {
            const place = view.route[end];
            return (
              <Paper withBorder p="sm" key={end}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  {t(`view.${end}`)}
                </Text>
                <Text>{place?.name ?? '—'}</Text>
                {place?.description ? (
                  <Text size="sm" c="dimmed">
                    {place.description}
                  </Text>
                ) : null}
              </Paper>
            );
          })}
        </SimpleGrid>
      </Section>

      <Section title={t('view.items')} testId="ettn-items">
        {view.items.length === 0 ? <None /> : null}
        {view.items.map((item, i) => (
          <Paper withBorder p="sm" key={`${item.sequence ?? ''}-${i}`}>
            <Text fw={600}>
              {item.sequence ? `${item.sequence}. ` : ''}
              {item.name ?? '—'}
            </Text>
            <Group gap="md" wrap="wrap">
              {item.uktzed ? <Field label={t('view.item.uktzed')} value={item.uktzed} /> : null}
              {item.grossWeight ? (
                <Field
                  label={t('view.item.grossWeight')}
                  value={`${item.grossWeight} ${item.weightUnit ?? ''}`.trim()}
                />
              ) : null}
              {item.packageQuantity ? (
                <Field
                  label={t('view.item.packages')}
                  value={`${item.packageQuantity} ${item.packageType ?? ''}`.trim()}
                />
              ) : null}
              {item.amount ? (
                <Field label={t('view.item.amount')} value={`${item.amount} ${item.currency ?? ''}`.trim()} />
              ) : null}
            </Group>
          </Paper>
        ))}
      </Section>

      <Section title={t('view.vehicles')} testId="ettn-vehicles">
        {view.vehicles.length === 0 ? <None /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {view.vehicles.map((vehicle, i) => (
            <Paper withBorder p="sm" key={`${vehicle.id ?? ''}-${i}`}>
              <Text fw={600}>{vehicle.id ?? '—'}</Text>
              {vehicle.category ? <Field label={t('view.vehicle.category')} value={vehicle.category} /> : null}
              {vehicle.brand || vehicle.model ? (
                <Field
                  label={t('view.vehicle.model')}
                  value={[vehicle.brand, vehicle.model].filter(Boolean).join(' ')}
                />
              ) : null}
              <Field
                label={t('view.vehicle.seals')}
                value={vehicle.seals.length ? vehicle.seals.join(', ') : t('view.none')}
              />
            </Paper>
          ))}
        </SimpleGrid>
      </Section>

      <Section title={t('view.signatures')} testId="ettn-signatures">
        {view.signatures.length === 0 ? <None /> : null}
        {view.signatures.map((s, i) => (
          <Paper withBorder p="sm" key={`${s.transactionNo}-${s.roleCode}-${i}`} data-testid="ettn-signature">
            <Group gap="md" wrap="wrap">
              <Field label={t('view.signature.role')} value={roleLabel(t, s.roleCode)} />
              <Field label={t('view.signature.signer')} value={s.signerName ?? '—'} />
              <Field label={t('view.signature.time')} value={timeText(s.signedAt, lang)} />
              <Field label={t('view.signature.transaction')} value={s.transactionNo} />
              <Field
                label={t('view.signature.verified')}
                value={s.verified ? t('view.signature.yes') : t('view.signature.no')}
              />
            </Group>
          </Paper>
        ))}
      </Section>

      <Section title={t('view.acts')} testId="ettn-acts">
        {view.acts.length === 0 ? <None /> : null}
        {view.acts.map((act) => (
          <Paper withBorder p="sm" key={act.documentId} data-testid="ettn-act">
            <Group gap="xs" mb={4}>
              <Text fw={600}>{actTypeLabel(t, act.type)}</Text>
              <EttnStatusBadge status={act.status} />
            </Group>
            <Group gap="md" wrap="wrap">
              <Field label={t('view.act.createdAt')} value={timeText(act.createdAt, lang)} />
              <Field
                label={t('view.act.signedBy')}
                value={act.signedBy.length ? roles(act.signedBy) : t('view.none')}
              />
              {act.nextSigner ? <Field label={t('view.act.nextSigner')} value={roleLabel(t, act.nextSigner)} /> : null}
            </Group>
          </Paper>
        ))}
      </Section>

      {!view.isPending && view.kind === 'ettn' ? <EttnSupportingDocuments view={view} /> : null}

      <Section title={t('view.history')} testId="ettn-history">
        {view.history.length === 0 ? <None /> : null}
        <Stack gap={4} component="ol" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {view.history.map((event, i) => (
            <Group component="li" key={`${event.timestamp}-${i}`} gap="sm" wrap="wrap">
              <Text size="sm" c="dimmed">
                {timeText(event.timestamp, lang)}
              </Text>
              <Text size="sm">{t(`view.event.${event.entityType}`)}</Text>
              <EttnStatusBadge status={event.entityStatus} />
              <Text size="sm" c="dimmed">
                {event.actorIdentifier}
              </Text>
            </Group>
          ))}
        </Stack>
      </Section>
    </Stack>
  );
}
