import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PaymentReminderContentSchema, type Language, type PaymentReminderContent } from '@portal/contracts';
import { LOCALES } from '@portal/i18n';
import type { z } from 'zod';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { applyErrorDetails, errorText, fieldErrorText } from '../../../lib/error-text.ts';
import { useSavePaymentReminder } from '../api/admin-mutations.ts';

type ReminderForm = z.input<typeof PaymentReminderContentSchema>;
const FIELDS = ['header', 'body', 'contact.text', 'contact.phone', 'contact.mail', 'footer', 'close'] as const;
const EMPTY: PaymentReminderContent = {
  header: '',
  body: '',
  contact: { text: '', phone: '', mail: '' },
  footer: '',
  close: '',
};

/** One language's payment reminder (header, body, contact text/phone/mail, footer, close button). */
export function PaymentReminderForm({ lang, entry }: { lang: Language; entry: PaymentReminderContent | undefined }) {
  const { t } = useTranslation(['admin', 'validation']);
  const save = useSavePaymentReminder();
  const form = useForm<ReminderForm, unknown, PaymentReminderContent>({
    resolver: zodResolver(PaymentReminderContentSchema),
    defaultValues: entry ?? EMPTY,
  });
  const { errors, isDirty } = form.formState;
  const language = LOCALES[lang];
  // The texts are in the tab's language; fields follow its direction, whatever the admin's own language is.
  const textProps = { lang, dir: language.dir } as const;

  async function onValid(content: PaymentReminderContent) {
    try {
      const saved = await save.mutateAsync({ lang, content });
      form.reset(saved.content);
      showSuccess({ message: t('admin:appConfig.saved', { language: language.name }) });
    } catch (error) {
      if (!applyErrorDetails(error, FIELDS, form.setError)) showError({ message: errorText(error, 'admin') });
    }
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} data-testid={`reminder-form-${lang}`}>
      <Stack>
        {!entry ? (
          <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} />}>
            {t('admin:appConfig.missing', { language: language.name })}
          </Alert>
        ) : null}
        <TextInput
          label={t('admin:appConfig.fields.header')}
          required
          error={fieldErrorText(errors.header?.message, 'admin')}
          {...textProps}
          {...form.register('header')}
        />
        <Textarea
          label={t('admin:appConfig.fields.body')}
          required
          rows={4}
          resize="vertical"
          error={fieldErrorText(errors.body?.message, 'admin')}
          {...textProps}
          {...form.register('body')}
        />
        <Textarea
          label={t('admin:appConfig.fields.contactText')}
          required
          rows={2}
          resize="vertical"
          error={fieldErrorText(errors.contact?.text?.message, 'admin')}
          {...textProps}
          {...form.register('contact.text')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('admin:appConfig.fields.contactPhone')}
            type="tel"
            required
            dir="ltr"
            error={fieldErrorText(errors.contact?.phone?.message, 'admin')}
            {...form.register('contact.phone')}
          />
          <TextInput
            label={t('admin:appConfig.fields.contactMail')}
            type="email"
            required
            dir="ltr"
            error={fieldErrorText(errors.contact?.mail?.message, 'admin')}
            {...form.register('contact.mail')}
          />
        </SimpleGrid>
        <Textarea
          label={t('admin:appConfig.fields.footer')}
          rows={2}
          resize="vertical"
          error={fieldErrorText(errors.footer?.message, 'admin')}
          {...textProps}
          {...form.register('footer')}
        />
        <TextInput
          label={t('admin:appConfig.fields.close')}
          description={t('admin:appConfig.fields.closeHelp')}
          required
          error={fieldErrorText(errors.close?.message, 'admin')}
          {...textProps}
          {...form.register('close')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!isDirty && Boolean(entry)}>
            {t('admin:appConfig.save', { language: language.name })}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
