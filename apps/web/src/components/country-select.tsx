import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { COUNTRY_CODES } from '@portal/contracts';
import { intlLocale } from '../lib/format.ts';

/** Country names in the reader's language, from Intl (no list to translate), with their ISO 3166 code. */
export function useCountryOptions(): { value: string; label: string }[] {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const names = new Intl.DisplayNames([intlLocale(i18n.language)], { type: 'region' });
    return COUNTRY_CODES.map((code) => ({ value: code, label: `${names.of(code) ?? code} (${code})` })).sort((a, b) =>
      a.label.localeCompare(b.label, intlLocale(i18n.language)),
    );
  }, [i18n.language]);
}

/** A searchable select of the contracts' country list (by name or code). */
export function CountrySelect(props: Omit<SelectProps, 'data'>) {
  const options = useCountryOptions();
  return <Select searchable clearable data={options} {...props} />;
}

/** A country code's name in the reader's language; a dash for none. */
export function useCountryName(): (code: string | null) => string {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const names = new Intl.DisplayNames([intlLocale(i18n.language)], { type: 'region' });
    return (code) => (code ? (names.of(code) ?? code) : '—');
  }, [i18n.language]);
}
