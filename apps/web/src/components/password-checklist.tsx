import { List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH, PASSWORD_RULES, PASSWORD_SPECIAL_CHARACTERS, checkPassword } from '@portal/contracts';

/** The live password-requirements checklist of registration and set-password (description, sections 2 and 5). */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation('auth');
  const headingId = useId();
  const result = checkPassword(password);
  return (
    <div id={id} data-testid="password-checklist">
      <Text id={headingId} size="sm" fw={600} mb={6}>
        {t('password.requirements')}
      </Text>
      <List aria-labelledby={headingId} spacing={4} size="sm" center>
        {PASSWORD_RULES.map((rule) => {
          const met = result[rule];
          return (
            <List.Item
              key={rule}
              data-testid={`password-rule-${rule}`}
              data-met={met}
              c={met ? 'teal.9' : 'gray.7'}
              icon={
                <ThemeIcon size={18} radius="xl" color={met ? 'green.8' : 'gray.5'} aria-hidden>
                  {met ? <IconCheck size={12} /> : <IconX size={12} />}
                </ThemeIcon>
              }
            >
              {t(`password.rules.${rule}`, {
                min: PASSWORD_MIN_LENGTH,
                characters: PASSWORD_SPECIAL_CHARACTERS.split('').join(' '),
              })}
              <VisuallyHidden>{met ? t('password.ruleMet') : t('password.ruleNotMet')}</VisuallyHidden>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}
