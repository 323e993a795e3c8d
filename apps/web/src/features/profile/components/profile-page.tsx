import { Paper, Stack, Tabs, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnsavedChanges } from '../../layout/index.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { pageReloader } from '../page-reloader.ts';
import { PROFILE_PANELS, type ProfilePanel } from '../profile-panels.ts';
import { AdditionalSettingsPanel } from './additional-settings-panel.tsx';
import { CompanySettingsPanel } from './company-settings-panel.tsx';
import { EttnSubscriptionsPanel } from './ettn-subscriptions-panel.tsx';
import { LanguagePanel } from './language-panel.tsx';
import { PasswordPanel } from './password-panel.tsx';
import classes from './profile-page.module.css';
import { ProfileSettingsPanel } from './profile-settings-panel.tsx';

const routeApi = getRouteApi('/app/profile');

type DirtyMap = Partial<Record<ProfilePanel, boolean>>;

/** /profile: six panels as tabs, each deep-linkable (`?panel=password`), shown by the user's permissions. */
export function ProfilePage() {
  const { t } = useTranslation('profile');
  const { can, hasRole } = usePermissions();
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();

  const visible = useMemo(() => {
    const shown: Record<ProfilePanel, boolean> = {
      'profile-settings': can('USER_PROFILE_READ'),
      password: true,
      'company-settings': can('COMPANY_PROFILE_READ'),
      language: true,
      'additional-settings': can('USER_PROFILE_READ'),
      'ettn-subscriptions': can('ETTN') && hasRole('ettn'),
    };
    return PROFILE_PANELS.filter((panel) => shown[panel]);
  }, [can, hasRole]);
  const active: ProfilePanel =
    search.panel && visible.includes(search.panel) ? search.panel : (visible[0] ?? 'password');

  const [dirty, setDirty] = useState<DirtyMap>({});
  const reporters = useMemo(() => {
    const make = (panel: ProfilePanel) => (value: boolean) =>
      setDirty((prev) => (Boolean(prev[panel]) === value ? prev : { ...prev, [panel]: value }));
    return Object.fromEntries(PROFILE_PANELS.map((panel) => [panel, make(panel)])) as Record<
      ProfilePanel,
      (dirty: boolean) => void
    >;
  }, []);
  const anyDirty = Object.values(dirty).some(Boolean);
  // Leaving /profile (a link, back, logout, closing the tab) with unsaved changes asks Stay or Leave.
  useUnsavedChanges(anyDirty);

  // A saved language reloads the page, once its panel has nothing unsaved (the guard then lets the reload pass).
  const [reloadRequested, setReloadRequested] = useState(false);
  const requestReload = useCallback(() => setReloadRequested(true), []);
  useEffect(() => {
    if (reloadRequested && !dirty.language) pageReloader.reload();
  }, [reloadRequested, dirty.language]);

  // The tab row scrolls on a phone: keep the chosen tab (also a deep-linked one) in view.
  const tabList = useRef<HTMLDivElement>(null);
  const isPhone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  useEffect(() => {
    tabList.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  const panelContent: Record<ProfilePanel, () => React.ReactNode> = {
    'profile-settings': () => (
      <ProfileSettingsPanel canEdit={can('USER_PROFILE_MODIFY')} onDirtyChange={reporters['profile-settings']} />
    ),
    password: () => <PasswordPanel onDirtyChange={reporters.password} />,
    'company-settings': () => (
      <CompanySettingsPanel canEdit={can('COMPANY_PROFILE_MODIFY')} onDirtyChange={reporters['company-settings']} />
    ),
    language: () => <LanguagePanel onDirtyChange={reporters.language} onReload={requestReload} />,
    'additional-settings': () => (
      <AdditionalSettingsPanel canEdit={can('USER_PROFILE_MODIFY')} onDirtyChange={reporters['additional-settings']} />
    ),
    'ettn-subscriptions': () => <EttnSubscriptionsPanel />,
  };

  return (
    <Stack gap="lg" p={{ base: 'sm', sm: 'lg' }}>
      <Title order={1}>{t('title')}</Title>
      <Tabs
        value={active}
        onChange={(next) => {
          const panel = PROFILE_PANELS.find((p) => p === next);
          // Another panel is not another page: never ask Stay/Leave for it.
          if (panel) void navigate({ search: { panel }, replace: true, ignoreBlocker: true });
        }}
        keepMounted
        // Pills on a phone: the outline variant's bottom rule does not follow a row that scrolls.
        variant={isPhone ? 'pills' : 'outline'}
      >
        <Tabs.List ref={tabList} className={classes.list}>
          {visible.map((panel) => (
            <Tabs.Tab key={panel} value={panel} className={classes.tab} data-testid={`profile-tab-${panel}`}>
              {t(`panels.${panel}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {visible.map((panel) => (
          <Tabs.Panel key={panel} value={panel} pt="md">
            <Paper p={{ base: 'sm', sm: 'lg' }} withBorder>
              <Title order={2} size="h3" mb="md">
                {t(`panels.${panel}`)}
              </Title>
              {panelContent[panel]()}
            </Paper>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
