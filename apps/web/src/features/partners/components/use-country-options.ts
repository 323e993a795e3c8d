import { useMemo } from 'react';
import { COUNTRY_CODES } from '@portal/contracts';
import { intlLocale } from '../../../lib/format.ts';

/** Country names in the UI language, sorted for that language. */
export function useCountryOptions(language: string) {
  return useMemo(() => {
    const locale = intlLocale(language);
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return COUNTRY_CODES.map((code) => ({ value: code, label: `${names.of(code) ?? code} (${code})` })).sort((a, b) =>
      a.label.localeCompare(b.label, locale),
    );
  }, [language]);
}
