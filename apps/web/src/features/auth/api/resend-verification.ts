import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-error.ts';
import { TOAST_STATUSES } from '../../../lib/api-client.ts';
import { formatSeconds } from '../../../lib/format.ts';
import { showError, showSuccess, showWarning } from '../../../lib/notify.ts';
import { findErrorText } from '../../../lib/error-text.ts';
import { useSendVerifyEmailMutation } from './auth-mutations.ts';

/**
 * Resend e-mail: says it was sent only when it was. The server sends one a minute and answers a sooner request with
 * 429 and the seconds left, which the toast tells in the user's words.
 */
export function useResendVerification() {
  const { t, i18n } = useTranslation(['auth', 'errors']);
  const mutation = useSendVerifyEmailMutation();
  const resend = (userId: string) =>
    mutation.mutate(userId, {
      onSuccess: () => showSuccess({ message: t('auth:register.activationSent') }),
      onError: (error) => {
        if (!(error instanceof ApiError) || TOAST_STATUSES.has(error.status)) return;
        if (error.code === 'auth.verification_resend_too_soon') {
          const seconds = Number(error.data['retryAfter']);
          const duration = formatSeconds(i18n.language, Number.isFinite(seconds) && seconds > 0 ? seconds : 60);
          showWarning({ message: t('errors:auth.verification_resend_too_soon', { duration }) });
        } else showError({ message: findErrorText(error.code) ?? t('errors:http.generic') });
      },
    });
  return { resend, isPending: mutation.isPending };
}
