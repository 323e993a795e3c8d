import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PAYMENT_REMINDER_FIRST_DAY, PAYMENT_REMINDER_LAST_DAY, type AdminCompany } from '@portal/contracts';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useSetOverduePayment } from '../api/admin-mutations.ts';

/** The overdue-payment flag: on, the company's users see the payment reminder (description, section 9). */
export function CompanyOverdueSwitch({ company }: { company: AdminCompany }) {
  const { t } = useTranslation('admin');
  const save = useSetOverduePayment(company.id);
  const checked = save.isPending && save.variables !== undefined ? save.variables : company.overduePayment;

  async function onChange(next: boolean) {
    try {
      await save.mutateAsync(next);
      showSuccess({ message: t(next ? 'payment.markedOverdue' : 'payment.cleared') });
    } catch (error) {
      showError({ message: errorText(error, 'admin') });
    }
  }

  return (
    <Switch
      checked={checked}
      disabled={save.isPending}
      onChange={(event) => void onChange(event.currentTarget.checked)}
      label={t('payment.overdue')}
      description={t('payment.overdueHelp', { first: PAYMENT_REMINDER_FIRST_DAY, last: PAYMENT_REMINDER_LAST_DAY })}
      size="md"
      data-testid="overdue-payment"
    />
  );
}
