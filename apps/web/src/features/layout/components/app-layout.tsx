import { AppShell, Burger, Group, Text } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useLocation, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { useSignedInUser } from '../../../app/session/use-signed-in-user.ts';
import { ChatButton, ChatProvider, ChatWindow } from '../../chat/index.ts';
import { HelpDialog, useHelpModal } from '../../help/index.ts';
import { PaymentReminder } from '../../payment-reminder/index.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { endImpersonation } from '../api/end-impersonation.ts';
import { buildNavigation, buildUserMenu } from '../navigation.ts';
import classes from './app-layout.module.css';
import { DemoKsefBanner, FirstTimeDialog } from './demo-ksef.tsx';
import { EttnExpiryDialog } from './ettn-expiry-dialog.tsx';
import { MainNavigation } from './main-navigation.tsx';
import { UnsavedChangesProvider, useUnsavedChangesContext } from './unsaved-changes.tsx';

const DEMO_KSEF_ROLE = 'demo-ksef';

/**
 * The main layout of the signed-in area (description, section 2): left navigation by permission, role and toggle,
 * the user-name entry with Profile and Logout, impersonation, the demo-ksef banner and manual, the payment reminder,
 * the help dialog and the AI assistant's button and window. Collapses to a burger menu on a phone; logical CSS
 * properties keep it right for Arabic.
 */
export function AppLayout() {
  return (
    <UnsavedChangesProvider>
      <AppFrame />
    </UnsavedChangesProvider>
  );
}

function AppFrame() {
  const { t, ready } = useTranslation('layout');
  const pathname = useLocation({ select: (location) => location.pathname });
  // The phone menu belongs to the page it was opened on: choosing a link there closes it.
  const [navOpenedOn, setNavOpenedOn] = useState<string | undefined>();
  const navOpened = navOpenedOn === pathname;
  const closeNav = () => setNavOpenedOn(undefined);
  const access = usePermissions();
  const user = useSignedInUser();
  const session = useSession();
  const api = useApi();
  const queryClient = useQueryClient();
  const router = useRouter();
  const unsaved = useUnsavedChangesContext();
  const help = useHelpModal();
  const [manualOpen, setManualOpen] = useState(false);

  const logout = async () => {
    if (!(await unsaved.confirmLeave({ always: true }))) return;
    unsaved.markLeaving();
    session.logout('user');
  };

  const logoutToAdmin = async () => {
    if (!(await unsaved.confirmLeave())) return;
    unsaved.markLeaving();
    const outcome = await endImpersonation({ api, session, storage: window.localStorage });
    if (outcome === 'admin') {
      // The user's permissions and data must not show in the admin's session.
      queryClient.clear();
      await router.navigate({ to: '/admin' });
    }
  };

  const openHelp = () => {
    closeNav();
    help.open();
  };

  if (!user) return null;
  // The layout's own texts load with it; until then the route's spinner stays (no untranslated keys flash).
  if (!ready) return <PageLoader />;
  const isDemoKsef = access.hasRole(DEMO_KSEF_ROLE);

  return (
    // Keyed by the user: an impersonation shows the impersonated user's own history, never the admin's.
    <ChatProvider key={user.email} email={user.email}>
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: 272, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
        padding="md"
      >
        <AppShell.Header>
          <a href="#main-content" className={classes.skipLink}>
            {t('skipToContent')}
          </a>
          <Group h="100%" px="md" gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={() => setNavOpenedOn(navOpened ? undefined : pathname)}
              hiddenFrom="sm"
              size="sm"
              aria-label={navOpened ? t('closeNavigation') : t('openNavigation')}
              aria-expanded={navOpened}
              aria-controls="main-navigation"
            />
            <Link to="/" className={classes.brand}>
              <IconArrowsExchange size={22} aria-hidden />
              <Text span fw={700} c="blue.9">
                {t('brand')}
              </Text>
            </Link>
            <Group ms="auto" gap="sm" wrap="nowrap">
              <ChatButton />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" component="nav" aria-label={t('navigationLabel')} id="main-navigation">
          <MainNavigation
            entries={access.isLoading ? [] : buildNavigation(access)}
            userMenu={access.isLoading ? [] : buildUserMenu(access)}
            userName={user.name}
            impersonator={access.impersonator}
            onHelp={openHelp}
            helpOpen={help.isOpen}
            onLogout={() => void logout()}
            onLogoutToAdmin={() => void logoutToAdmin()}
          />
        </AppShell.Navbar>
        <AppShell.Main id="main-content" className={classes.main} tabIndex={-1}>
          {isDemoKsef ? <DemoKsefBanner /> : null}
          <Outlet />
        </AppShell.Main>
        {help.isOpen ? (
          <HelpDialog opened onClose={help.close} canReportIssue={access.can('REPORT_ISSUE')} article={help.article} />
        ) : null}
        {isDemoKsef ? (
          <FirstTimeDialog onOpened={() => setManualOpen(true)} onClosed={() => setManualOpen(false)} />
        ) : null}
        {access.hasRole('ettn') && access.can('ETTN') ? (
          <EttnExpiryDialog email={user.email} held={manualOpen} />
        ) : null}
        <PaymentReminder email={user.email} />
        <ChatWindow />
      </AppShell>
    </ChatProvider>
  );
}
