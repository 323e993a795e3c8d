import { createTheme, DrawerHeader, ModalHeader, type MantineThemeOverride } from '@mantine/core';

/**
 * Shade 8 of blue for buttons and links: white on the default shade 6 fails WCAG AA contrast (about 3.5:1), shade 8
 * passes (about 5:1).
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 4 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", "Noto Sans Thai", sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { size: 'md' } },
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    // Mantine renders a dialog header as <header>: axe reads it as a second banner landmark in every Modal/Drawer.
    ModalHeader: ModalHeader.extend({ defaultProps: { role: 'none' } }),
    DrawerHeader: DrawerHeader.extend({ defaultProps: { role: 'none' } }),
  },
});

/**
 * The theme with every dialog's and drawer's close button named in the current language. Mantine's close buttons
 * are icon-only; without a default, each new dialog would have to remember its own aria-label (one that did not
 * failed axe's button-name rule).
 */
export function themeWithCloseLabel(closeLabel: string): MantineThemeOverride {
  const closeButtonProps = { 'aria-label': closeLabel };
  return {
    ...theme,
    components: {
      ...theme.components,
      Modal: { defaultProps: { closeButtonProps } },
      Drawer: { defaultProps: { closeButtonProps } },
      Notification: { defaultProps: { closeButtonProps } },
    },
  };
}
