import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguage, type Language } from '@portal/contracts';
import { LOCALES } from '@portal/i18n';
import { rememberLanguage } from '../i18n/language.ts';

export type LanguageSelectProps = {
  /** Called after the cookie is set with a language other than the loaded one; reloads the page by default. */
  onChanged?: (language: Language) => void;
};

/**
 * The language selector of the account shell: the 11 languages by their native names. A new choice is kept in the
 * `lang` cookie and the page reloads, so every catalog, the direction and the formats follow (description, section 9).
 */
export function LanguageSelect({ onChanged = () => window.location.reload() }: LanguageSelectProps) {
  const { t, i18n } = useTranslation('common');
  const current = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <NativeSelect
      aria-label={t('language.label')}
      data-testid="language-select"
      value={current}
      size="sm"
      w={190}
      leftSection={<IconLanguage size={18} aria-hidden />}
      data={LANGUAGES.map((code) => ({ value: code, label: LOCALES[code].name }))}
      onChange={(event) => {
        const next = event.currentTarget.value;
        if (!isLanguage(next)) return;
        rememberLanguage(next);
        if (next !== current) onChanged(next);
      }}
    />
  );
}
