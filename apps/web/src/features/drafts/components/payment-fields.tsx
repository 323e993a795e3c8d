import { Fieldset, Select, SimpleGrid, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYMENT_MEANS, PAYMENT_TERMS, type DraftPayment } from '@portal/contracts';

/**
 * An invoice's payment terms: the terms (a fixed due date, or net days after the invoice date), an early payment
 * discount, the payment means and the payee's IBAN. `dueDate` is the form's due date field, shown among them.
 */
export function PaymentFields(props: {
  payment: DraftPayment;
  dueDate: ReactNode;
  readOnly: boolean;
  problemAt: (field: string) => string | undefined;
  onChange: (payment: DraftPayment) => void;
}) {
  const { t } = useTranslation('drafts');
  const { payment, readOnly, problemAt } = props;
  const set = (patch: Partial<DraftPayment>) => props.onChange({ ...payment, ...patch });
  const text = (
    key: 'days' | 'discountPercentage' | 'discountDays' | 'iban',
    numeric: 'numeric' | 'decimal' | undefined,
  ) => (
    <TextInput
      label={t(`form.payment.${key}`)}
      value={payment[key]}
      onChange={(e) => set({ [key]: e.currentTarget.value })}
      error={problemAt(`payment.${key}`)}
      readOnly={readOnly}
      required={key === 'days' && payment.terms === 'net_days'}
      inputMode={numeric}
      // An IBAN reads left to right in every language.
      dir={key === 'iban' ? 'ltr' : undefined}
      autoComplete="off"
      data-testid={`draft-payment-${key}`}
    />
  );
  return (
    <Fieldset legend={t('form.payment.title')} data-testid="draft-payment">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Select
          label={t('form.payment.terms')}
          placeholder={t('form.payment.noTerms')}
          data={PAYMENT_TERMS.map((v) => ({ value: v, label: t(`form.payment.termsTypes.${v}`) }))}
          value={payment.terms || null}
          onChange={(v) => set({ terms: (v ?? '') as DraftPayment['terms'] })}
          error={problemAt('payment.terms')}
          readOnly={readOnly}
          clearable
          clearButtonProps={{ 'aria-label': t('form.clearDate', { field: t('form.payment.terms') }) }}
          data-testid="draft-payment-terms"
        />
        {props.dueDate}
        {payment.terms === 'net_days' ? text('days', 'numeric') : null}
        {text('discountPercentage', 'decimal')}
        {text('discountDays', 'numeric')}
        <Select
          label={t('form.payment.means')}
          placeholder={t('form.payment.noMeans')}
          data={PAYMENT_MEANS.map((v) => ({ value: v, label: t(`form.payment.meansTypes.${v}`) }))}
          value={payment.means || null}
          onChange={(v) => set({ means: (v ?? '') as DraftPayment['means'] })}
          error={problemAt('payment.means')}
          readOnly={readOnly}
          clearable
          clearButtonProps={{ 'aria-label': t('form.clearDate', { field: t('form.payment.means') }) }}
          data-testid="draft-payment-means"
        />
        {text('iban', undefined)}
      </SimpleGrid>
    </Fieldset>
  );
}
