import type { ReactElement } from 'react';
import '@mantine/dropzone/styles.css';
import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconArrowsExchange,
  IconBuilding,
  IconFileDatabase,
  IconHistory,
  IconLogout,
  IconMail,
  IconMessageChatbot,
  IconMessageReport,
  IconSettings,
  IconUsers,
} from '@tabler/icons-react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/session/session-context.tsx';
import { useSignedInUser } from '../../../app/session/use-signed-in-user.ts';

type Section = {
  to:
    | '/admin'
    | '/admin/users'
    | '/admin/app-config'
    | '/admin/emails'
    | '/admin/issue-reports'
    | '/admin/chat'
    | '/admin/audit'
    | '/admin/edifact';
  label: ParseKeys<'admin'>;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  /** Also active on these path prefixes (a company's page belongs to Companies). */
  prefixes: readonly string[];
};

const SECTIONS: readonly Section[] = [
  { to: '/admin', label: 'nav.companies', icon: IconBuilding, prefixes: ['/admin/companies'] },
  { to: '/admin/users', label: 'nav.users', icon: IconUsers, prefixes: [] },
  { to: '/admin/app-config', label: 'nav.appConfig', icon: IconSettings, prefixes: [] },
  { to: '/admin/emails', label: 'nav.emails', icon: IconMail, prefixes: [] },
  { to: '/admin/issue-reports', label: 'nav.issueReports', icon: IconMessageReport, prefixes: [] },
  { to: '/admin/chat', label: 'nav.chat', icon: IconMessageChatbot, prefixes: [] },
  { to: '/admin/audit', label: 'nav.audit', icon: IconHistory, prefixes: [] },
  { to: '/admin/edifact', label: 'nav.edifact', icon: IconFileDatabase, prefixes: [] },
];

function isActive(section: Section, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return path === section.to || section.prefixes.some((prefix) => path.startsWith(prefix));
}

/** The admin area's frame (description, sections 1 and 6): side navigation, the admin's name and Logout. */
export function AdminLayout(): ReactElement {
  const { t } = useTranslation(['admin', 'common']);
  const session = useSession();
  const user = useSignedInUser();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [opened, { toggle, close }] = useDisclosure(false);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="md"
              size="sm"
              aria-label={t(opened ? 'admin:nav.close' : 'admin:nav.open')}
              aria-expanded={opened}
              aria-controls="admin-navigation"
            />
            <IconArrowsExchange size={24} aria-hidden color="var(--mantine-color-blue-9)" />
            <Text fw={700} c="blue.9" visibleFrom="xs">
              Open EDI Portal
            </Text>
            <Title order={1} size="h4" data-testid="admin-title">
              {t('admin:title')}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {user ? (
              <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="admin-user">
                <VisuallyHidden>{t('common:signedInAs')} </VisuallyHidden>
                {user.email}
              </Text>
            ) : null}
            <Button
              variant="default"
              size="sm"
              leftSection={<IconLogout size={18} aria-hidden />}
              onClick={() => session.logout('user')}
            >
              {t('common:logout')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" id="admin-navigation" aria-label={t('admin:nav.label')} component="nav">
        <ScrollArea>
          {SECTIONS.map((section) => {
            const Icon = section.icon;
            const active = isActive(section, pathname);
            return (
              <NavLink
                key={section.to}
                component={Link}
                to={section.to}
                // Link marks every ancestor route as current; only the section itself (or its pages) is.
                activeOptions={{ exact: true, includeSearch: false }}
                label={t(`admin:${section.label}`)}
                leftSection={<Icon size={20} aria-hidden />}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={close}
                variant="light"
                fw={500}
              />
            );
          })}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
