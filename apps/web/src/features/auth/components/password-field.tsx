import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A required password field of the account pages: its show/hide toggle is named and reachable with Tab, since a
 * user checking what they typed may not use a mouse.
 */
export function PasswordField(
  props: Omit<PasswordInputProps, 'required' | 'visibilityToggleFocusable'> & { ref?: Ref<HTMLInputElement> },
) {
  const { t } = useTranslation('auth');
  return (
    <PasswordInput
      required
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': t('password.toggle') }}
      {...props}
    />
  );
}
