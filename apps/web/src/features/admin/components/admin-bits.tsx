import { Badge, Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { COUNTRY_CODES, type LoginStatus } from '@portal/contracts';
import { intlLocale } from '../../../lib/format.ts';

const STATUS_COLORS: Record<LoginStatus, string> = {
  OK: 'green',
  OK_LIMITED: 'yellow',
  BLOCKED: 'red',
  SYS_DISABLE: 'grape',
  ERROR: 'orange',
  NOTSET: 'gray',
};

/** A company's login status as a coloured label (dark text on a light fill, readable at AA contrast). */
export function StatusBadge({ status }: { status: LoginStatus }) {
  const { t } = useTranslation('admin');
  const color = STATUS_COLORS[status];
  return (
    <Badge variant="dot" color={color} data-testid="company-status">
      {t(`status.names.${status}`)}
    </Badge>
  );
}

/** Country names in the reader's language, from Intl (no list to translate). */
export function useCountryOptions(): { value: string; label: string }[] {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const names = new Intl.DisplayNames([intlLocale(i18n.language)], { type: 'region' });
    return COUNTRY_CODES.map((code) => ({ value: code, label: `${names.of(code) ?? code} (${code})` })).sort((a, b) =>
      a.label.localeCompare(b.label, intlLocale(i18n.language)),
    );
  }, [i18n.language]);
}

export function CountrySelect(props: Omit<SelectProps, 'data'>) {
  const options = useCountryOptions();
  return <Select searchable clearable data={options} {...props} />;
}

export function useCountryName(): (code: string | null) => string {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const names = new Intl.DisplayNames([intlLocale(i18n.language)], { type: 'region' });
    return (code) => (code ? (names.of(code) ?? code) : '—');
  }, [i18n.language]);
}
