import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../../lib/format.ts';

/**
 * A price in the reader's language with its currency. Intl formats the decimal string itself (Intl.NumberFormat v3
 * takes a string exactly), so no digit passes through a binary float; an unknown currency code shows as the code.
 */
export function formatPrice(language: string, price: string, currency: string): string {
  const options: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 4 };
  const value = price as unknown as number;
  try {
    return new Intl.NumberFormat(intlLocale(language), { ...options, style: 'currency', currency }).format(value);
  } catch {
    return `${new Intl.NumberFormat(intlLocale(language), options).format(value)} ${currency}`;
  }
}

/** The words of a VAT rate: a percent, or the exempt categories by name. */
export function useVatText() {
  const { t, i18n } = useTranslation('products');
  return (vatRate: string | null): string => {
    if (vatRate === null) return t('notSet');
    if (vatRate === 'zw' || vatRate === 'np') return t(`vat.${vatRate}`);
    const percent = new Intl.NumberFormat(intlLocale(i18n.language), { maximumFractionDigits: 2 }).format(
      vatRate as unknown as number,
    );
    return t('vat.rate', { rate: percent });
  };
}
