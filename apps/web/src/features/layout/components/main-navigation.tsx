import { Box, Divider, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import {
  IconAddressBook,
  IconBook2,
  IconBug,
  IconFileCheck,
  IconHelpCircle,
  IconInbox,
  IconLock,
  IconLogout,
  IconPackage,
  IconSend,
  IconShieldCheck,
  IconTruckDelivery,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
  IconUserShield,
  type Icon,
} from '@tabler/icons-react';
import { Link, useLocation } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { findActivePath, type NavEntry, type NavLabel, type NavLinkEntry } from '../navigation.ts';
import classes from './app-layout.module.css';

const ICONS: Partial<Record<NavLabel, Icon>> = {
  inbox: IconInbox,
  outbox: IconSend,
  addressBook: IconAddressBook,
  products: IconPackage,
  partners: IconBook2,
  documentValidation: IconFileCheck,
  userManagement: IconUserShield,
  users: IconUsers,
  groups: IconUsersGroup,
  restrictions: IconLock,
  help: IconHelpCircle,
  ettn: IconTruckDelivery,
  profile: IconUserCircle,
  reportIssue: IconBug,
};

function EntryIcon({ id }: { id: NavLabel }) {
  const IconComponent = ICONS[id];
  return IconComponent ? <IconComponent size={20} stroke={1.6} aria-hidden /> : null;
}

function LinkItem({ entry, active, testId }: { entry: NavLinkEntry; active: boolean; testId?: string }) {
  const { t } = useTranslation('layout');
  return (
    <NavLink
      component={Link}
      to={entry.to}
      label={t(`nav.${entry.id}`)}
      leftSection={<EntryIcon id={entry.id} />}
      active={active}
      aria-current={active ? 'page' : undefined}
      data-testid={testId ?? `nav-${entry.id}`}
      className={classes.navLink}
    />
  );
}

/** An entry that expands to its children (User management, e-TTN, the user-name entry): a button with aria-expanded. */
function GroupItem(props: {
  id: string;
  label: string;
  icon: React.ReactNode;
  containsActive: boolean;
  children: React.ReactNode;
  testId: string;
}) {
  const [opened, setOpened] = useState(props.containsActive);
  const panelId = useId();
  return (
    <NavLink
      component="button"
      type="button"
      label={props.label}
      leftSection={props.icon}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      aria-controls={panelId}
      data-testid={props.testId}
      className={classes.navLink}
      childrenOffset="md"
    >
      <div id={panelId}>{props.children}</div>
    </NavLink>
  );
}

export type MainNavigationProps = {
  entries: readonly NavEntry[];
  userMenu: readonly NavLinkEntry[];
  userName: string;
  impersonator: string | undefined;
  onHelp: () => void;
  helpOpen: boolean;
  onLogout: () => void;
  onLogoutToAdmin: () => void;
};

/** The left navigation: the feature entries, then the impersonation label and the user-name entry at the bottom. */
export function MainNavigation(props: MainNavigationProps) {
  const { t } = useTranslation('layout');
  const pathname = useLocation({ select: (location) => location.pathname });
  const allPaths = [
    ...props.entries.flatMap((e) =>
      e.kind === 'link' ? [e.to] : e.kind === 'group' ? e.children.map((c) => c.to) : [],
    ),
    ...props.userMenu.map((e) => e.to),
  ];
  const activePath = findActivePath(pathname, allPaths);

  return (
    <Stack justify="space-between" h="100%" gap={0}>
      <ScrollArea type="auto" className={classes.navScroll}>
        <Box component="ul" className={classes.navList} data-testid="main-navigation">
          {props.entries.map((entry) => (
            <li key={entry.id}>
              {entry.kind === 'link' ? (
                <LinkItem entry={entry} active={activePath === entry.to} />
              ) : entry.kind === 'help' ? (
                <NavLink
                  component="button"
                  type="button"
                  label={t('nav.help')}
                  leftSection={<EntryIcon id="help" />}
                  onClick={props.onHelp}
                  active={props.helpOpen}
                  aria-haspopup="dialog"
                  data-testid="nav-help"
                  className={classes.navLink}
                />
              ) : (
                <GroupItem
                  id={entry.id}
                  label={t(`nav.${entry.id}`)}
                  icon={<EntryIcon id={entry.id} />}
                  containsActive={entry.children.some((c) => c.to === activePath)}
                  testId={`nav-${entry.id}`}
                >
                  <ul className={classes.navList}>
                    {entry.children.map((child) => (
                      <li key={child.id}>
                        <LinkItem entry={child} active={activePath === child.to} />
                      </li>
                    ))}
                  </ul>
                </GroupItem>
              )}
            </li>
          ))}
        </Box>
      </ScrollArea>
      <Box className={classes.navFooter}>
        <Divider mb="xs" />
        {props.impersonator ? (
          <Box className={classes.impersonation} data-testid="impersonation-label">
            <Text size="xs" c="dimmed">
              {t('impersonation.label')}
            </Text>
            <Text size="sm" fw={600}>
              {props.impersonator}
            </Text>
          </Box>
        ) : null}
        {props.impersonator ? (
          <NavLink
            component="button"
            type="button"
            label={t('impersonation.logoutToAdmin')}
            leftSection={<IconShieldCheck size={20} stroke={1.6} aria-hidden />}
            onClick={props.onLogoutToAdmin}
            data-testid="logout-to-admin"
            className={classes.navLink}
          />
        ) : null}
        <GroupItem
          id="user"
          label={props.userName}
          icon={<IconUserCircle size={20} stroke={1.6} aria-hidden />}
          containsActive={props.userMenu.some((e) => e.to === activePath)}
          testId="user-menu"
        >
          <ul className={classes.navList}>
            {props.userMenu.map((entry) => (
              <li key={entry.id}>
                <LinkItem entry={entry} active={activePath === entry.to} />
              </li>
            ))}
            <li>
              <NavLink
                component="button"
                type="button"
                label={t('nav.logout')}
                leftSection={<IconLogout size={20} stroke={1.6} aria-hidden className="mirror-rtl" />}
                onClick={props.onLogout}
                data-testid="nav-logout"
                className={classes.navLink}
              />
            </li>
          </ul>
        </GroupItem>
      </Box>
    </Stack>
  );
}
