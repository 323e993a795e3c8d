import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconMail, IconPhone } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentReminderContent } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { findDueReminder } from '../api/payment-reminder.ts';

/** The payment reminder dialog, checked once when the signed-in area opens (after login or a reload). */
export function PaymentReminder({ email }: { email: string }) {
  const { t, i18n } = useTranslation('layout');
  const api = useApi();
  const [content, setContent] = useState<PaymentReminderContent>();
  const language = i18n.language;

  useEffect(() => {
    let active = true;
    // Failures are not the user's business here: the API client already toasts the server errors.
    const check = findDueReminder({ api, email, language, now: new Date() }).catch(() => undefined);
    void check.then((found) => {
      if (!active || !found) return;
      found.markShown();
      setContent(found.content);
    });
    return () => {
      active = false;
    };
  }, [api, email, language]);

  const close = () => setContent(undefined);
  if (!content) return null;
  return (
    <Modal
      opened
      onClose={close}
      title={content.header}
      centered
      size="lg"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      data-testid="payment-reminder"
    >
      <Stack gap="sm">
        <Text style={{ whiteSpace: 'pre-line' }}>{content.body}</Text>
        <Text fw={500}>{content.contact.text}</Text>
        <Group gap="lg">
          <Group gap={6}>
            <IconPhone size={18} aria-hidden />
            <Text span size="sm" c="dimmed">
              {t('paymentReminder.phone')}:
            </Text>
            <Anchor href={`tel:${content.contact.phone.replace(/[^+0-9]/g, '')}`}>{content.contact.phone}</Anchor>
          </Group>
          <Group gap={6}>
            <IconMail size={18} aria-hidden />
            <Text span size="sm" c="dimmed">
              {t('paymentReminder.mail')}:
            </Text>
            <Anchor href={`mailto:${content.contact.mail}`}>{content.contact.mail}</Anchor>
          </Group>
        </Group>
        {content.footer ? (
          <Text size="sm" c="dimmed">
            {content.footer}
          </Text>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button onClick={close}>{content.close}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
