import type { ReactElement } from 'react';
import { Anchor, Breadcrumbs, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/api-context.tsx';
import { CompanyLocationsSection } from '../../company-locations/index.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { companyQuery } from '../api/admin-queries.ts';
import { StatusBadge } from './admin-bits.tsx';
import { AdminPage } from './admin-page.tsx';
import { CompanyOverdueSwitch } from './company-overdue-switch.tsx';
import { CompanyProfileForm } from './company-profile-form.tsx';
import { CompanyStatusForm } from './company-status-form.tsx';
import { CompanyTogglesForm } from './company-toggles-form.tsx';

const route = getRouteApi('/admin/companies/$companyId');

function Section(props: { title: string; description?: string; children: ReactNode; testId: string }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" data-testid={props.testId}>
      <Stack gap="md">
        <div>
          <Title order={3} size="h4">
            {props.title}
          </Title>
          {props.description ? (
            <Text size="sm" c="dimmed">
              {props.description}
            </Text>
          ) : null}
        </div>
        {props.children}
      </Stack>
    </Paper>
  );
}

/** One company: profile basics, status, feature toggles and the overdue-payment flag. */
export function CompanyPage(): ReactElement {
  const { t, i18n } = useTranslation('admin');
  const api = useApi();
  const { companyId } = route.useParams();
  const { data: company } = useSuspenseQuery(companyQuery(api, companyId));

  return (
    <AdminPage
      title={company.name}
      description={
        <Group gap="xs" component="span">
          <StatusBadge status={company.loginStatus} />
          <span>
            {t('company.summary', { count: company.userCount, date: formatDateTime(i18n.language, company.createdAt) })}
          </span>
        </Group>
      }
      actions={
        <Button
          renderRoot={(props) => <Link to="/admin/users" search={{ companyId: company.id }} {...props} />}
          variant="default"
          leftSection={<IconUsers size={18} aria-hidden />}
        >
          {t('company.users')}
        </Button>
      }
    >
      <Breadcrumbs separator="›">
        <Anchor renderRoot={(props) => <Link to="/admin" {...props} />}>{t('nav.companies')}</Anchor>
        <Text span>{company.name}</Text>
      </Breadcrumbs>
      <Stack gap="lg" maw={900}>
        <Section title={t('company.profile')} testId="company-profile">
          <CompanyProfileForm key={`profile-${company.updatedAt}`} company={company} />
        </Section>
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="company-locations-section">
          <CompanyLocationsSection path={`/admin/companies/${encodeURIComponent(company.id)}/locations`} canEdit />
        </Paper>
        <Section title={t('status.title')} description={t('status.description')} testId="company-status-section">
          <CompanyStatusForm key={`status-${company.updatedAt}`} company={company} />
        </Section>
        <Section title={t('toggles.title')} description={t('toggles.description')} testId="company-toggles">
          <CompanyTogglesForm key={`toggles-${company.updatedAt}`} company={company} />
        </Section>
        <Section title={t('payment.title')} testId="company-payment">
          <CompanyOverdueSwitch company={company} />
        </Section>
        {company.groups.length > 0 ? (
          <Section title={t('company.groups')} testId="company-groups">
            <Stack gap={4}>
              {company.groups.map((group) => (
                <Text key={group.id} size="sm">
                  {t('company.group', { name: group.name, count: group.memberCount })}
                </Text>
              ))}
            </Stack>
          </Section>
        ) : null}
      </Stack>
    </AdminPage>
  );
}
