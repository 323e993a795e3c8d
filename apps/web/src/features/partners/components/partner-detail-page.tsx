import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconLink, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../../components/page-loader.tsx';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useDeletePartnerMutation } from '../api/partners-mutations.ts';
import { partnerQuery } from '../api/partners-queries.ts';
import { confirmDeletePartner } from './confirm-delete.ts';
import { NotificationsEditor } from './notifications-editor.tsx';
import { PartnerBadges, PartnerDocTypes } from './partner-badges.tsx';
import { PartnerFormModal } from './partner-form-modal.tsx';

const route = getRouteApi('/app/partners/$partnerId');

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

/**
 * /partners/:id: one partner's identifiers, test mode and sending settings, document types, and
 * (PARTNERS_NOTIFICATIONS) notifications.
 */
export function PartnerDetailPage() {
  const { t, i18n } = useTranslation('partners');
  const api = useApi();
  const { partnerId } = route.useParams();
  const { can } = usePermissions();
  const navigate = useNavigate();
  const partner = useQuery(partnerQuery(api, partnerId)).data;
  const remove = useDeletePartnerMutation();
  const [editing, setEditing] = useState(false);
  if (!partner) return <PageLoader />;
  const none = t('none');
  const date = (iso: string | null) => (iso ? formatDateTime(i18n.language, iso) : t('never'));

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Anchor component={Link} to="/partners" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} aria-hidden style={{ transform: i18n.dir() === 'rtl' ? 'scaleX(-1)' : undefined }} />
          {t('back')}
        </Group>
      </Anchor>
      <Group justify="space-between" wrap="wrap" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{partner.name}</Title>
          <Group gap="xs">
            <PartnerBadges partner={partner} />
            {partner.linkedCompany ? (
              <Badge
                variant="light"
                color="blue"
                c="dark.7"
                tt="none"
                leftSection={<IconLink size={12} aria-hidden />}
                data-testid="partner-linked"
              >
                {t('linkedTo', { company: partner.linkedCompany.name })}
              </Badge>
            ) : (
              <Badge variant="light" color="gray" c="dark.7" tt="none">
                {t('offPlatform')}
              </Badge>
            )}
          </Group>
        </Stack>
        {can('COMPANY_PROFILE_MODIFY') ? (
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => setEditing(true)}
            >
              {t('actions.edit')}
            </Button>
            <Button
              variant="outline"
              color="red.9"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() =>
                confirmDeletePartner(
                  partner,
                  (id, handlers) => remove.mutate(id, handlers),
                  () => void navigate({ to: '/partners' }),
                )
              }
            >
              {t('actions.delete')}
            </Button>
          </Group>
        ) : null}
      </Group>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="partner-identifiers">
        <Title order={2} size="h4" id="partner-identifiers" mb="sm">
          {t('detail.identifiers')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          <Field label={t('fields.gln')}>{partner.gln}</Field>
          <Field label={t('fields.vatId')}>{partner.vatId ?? none}</Field>
          <Field label={t('fields.country')}>{partner.country ?? none}</Field>
          <Field label={t('fields.contactName')}>{partner.contactName ?? none}</Field>
          <Field label={t('fields.contactEmail')}>{partner.contactEmail ?? none}</Field>
          <Field label={t('fields.contactPhone')}>{partner.contactPhone ?? none}</Field>
          <Field label={t('columns.createdAt')}>{date(partner.createdAt)}</Field>
          <Field label={t('columns.lastExchangeAt')}>{date(partner.lastExchangeAt)}</Field>
          <Field label={t('fields.testMode')}>{partner.testMode ? t('testMode.on') : t('testMode.off')}</Field>
          <Field label={t('fields.edifactDirectory')}>{t(`edifactDirectory.${partner.edifactDirectory}`)}</Field>
          <Field label={t('fields.syntaxIdentifier')}>{t(`syntaxIdentifier.${partner.syntaxIdentifier}`)}</Field>
          <Field label={t('fields.una')}>{partner.una ? t('una.on') : t('una.off')}</Field>
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="partner-doc-types">
        <Title order={2} size="h4" id="partner-doc-types" mb="sm">
          {t('detail.docTypes')}
        </Title>
        <PartnerDocTypes partner={partner} />
      </Paper>
      {can('PARTNERS_NOTIFICATIONS') && partner.notifications ? <NotificationsEditor partner={partner} /> : null}
      {editing ? <PartnerFormModal partner={partner} onClose={() => setEditing(false)} /> : null}
    </Stack>
  );
}
