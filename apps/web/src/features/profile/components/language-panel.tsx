import { Button, Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguage, type Language } from '@portal/contracts';
import { LOCALES } from '@portal/i18n';
import { rememberLanguage } from '../../../i18n/language.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useSetLanguageMutation } from '../api/profile-mutations.ts';
import { showFailure } from '../../../lib/error-text.ts';

/**
 * The 11 languages by their native names, saved with `POST /api/users/setLanguage`. A language other than the
 * loaded one is also kept in the `lang` cookie and the page reloads (`onReload`), so every text, the direction and
 * the formats follow (description, section 9).
 */
export function LanguagePanel({
  onDirtyChange,
  onReload,
}: {
  onDirtyChange: (dirty: boolean) => void;
  onReload: () => void;
}) {
  const { t, i18n } = useTranslation('profile');
  const loaded: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const [value, setValue] = useState<Language>(loaded);
  const save = useSetLanguageMutation();
  const dirty = value !== loaded;
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  function submit() {
    const next = value;
    save.mutate(next, {
      onSuccess: () => {
        rememberLanguage(next);
        if (next !== loaded) {
          // Saved: nothing is left to lose in this panel; the page reloads once it knows that.
          onDirtyChange(false);
          onReload();
        } else showSuccess({ message: t('messages.success') });
      },
      onError: (error) => showFailure(error, 'profile'),
    });
  }

  return (
    <form
      noValidate
      aria-label={t('panels.language')}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md" maw={720}>
        <Radio.Group
          label={t('language.label')}
          description={t('language.description')}
          value={value}
          onChange={(next) => {
            if (isLanguage(next)) setValue(next);
          }}
        >
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mt="sm">
            {LANGUAGES.map((code) => (
              <Radio.Card key={code} value={code} p="sm" radius="md" data-testid={`language-option-${code}`}>
                <Group wrap="nowrap" gap="sm">
                  <Radio.Indicator />
                  <Text lang={LOCALES[code].code} dir={LOCALES[code].dir}>
                    {LOCALES[code].name}
                  </Text>
                </Group>
              </Radio.Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!dirty}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
