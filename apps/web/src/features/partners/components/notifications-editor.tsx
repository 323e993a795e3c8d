import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  LANGUAGES,
  PARTNER_EVENTS,
  PARTNER_NOTIFICATIONS_MAX,
  PartnerNotificationsRequestSchema,
  isLanguage,
  type PartnerDetail,
  type PartnerEvent,
  type PartnerNotificationsValues,
} from '@portal/contracts';
import { LOCALES } from '@portal/i18n';
import { fieldErrorText, showSaveFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useSavePartnerNotificationsMutation } from '../api/partners-mutations.ts';

type NotificationsForm = z.input<typeof PartnerNotificationsRequestSchema>;
const isEvent = (v: string): v is PartnerEvent => PARTNER_EVENTS.some((e) => e === v);

/**
 * The e-mail addresses told of this partner's documents: each in its own language, for documents received from the
 * partner and for documents to or from it that failed. Saved as a whole (PARTNERS_NOTIFICATIONS).
 */
export function NotificationsEditor({ partner }: { partner: PartnerDetail }) {
  const { t, i18n } = useTranslation(['partners', 'validation']);
  const save = useSavePartnerNotificationsMutation();
  const form = useForm<NotificationsForm, unknown, PartnerNotificationsValues>({
    resolver: zodResolver(PartnerNotificationsRequestSchema),
    defaultValues: { notifications: partner.notifications ?? [] },
    mode: 'onTouched',
  });
  const rows = useFieldArray({ control: form.control, name: 'notifications' });
  const { errors } = form.formState;
  const err = (message: string | undefined) => fieldErrorText(message, 'partners');
  const defaultLanguage = isLanguage(i18n.language) ? i18n.language : 'en';

  function onValid(values: PartnerNotificationsValues) {
    save.mutate(
      { partnerId: partner.id, body: values },
      {
        onSuccess: (saved) => {
          form.reset({ notifications: saved.notifications ?? [] });
          showSuccess({ message: t('partners:notifications.saved') });
        },
        onError: (error) =>
          showSaveFailure(error, 'partners', {
            fields: rows.fields.flatMap((_, i) => [
              `notifications.${i}.email` as const,
              `notifications.${i}.language` as const,
              `notifications.${i}.events` as const,
            ]),
            setError: form.setError,
            field: (path) => path.replace(/^(notifications\.\d+\.events)\.\d+$/, '$1'),
          }),
      },
    );
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="partner-notifications">
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="sm">
          <Title order={2} size="h4" id="partner-notifications">
            {t('partners:notifications.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('partners:notifications.intro')}
          </Text>
          {rows.fields.length === 0 ? (
            <Text size="sm" data-testid="notifications-empty">
              {t('partners:notifications.empty')}
            </Text>
          ) : null}
          {rows.fields.map((row, index) => {
            const rowErrors = errors.notifications?.[index];
            return (
              <Group key={row.id} align="flex-start" gap="sm" wrap="wrap" data-testid={`notification-${index}`}>
                <TextInput
                  label={t('partners:notifications.email')}
                  type="email"
                  required
                  style={{ flex: '1 1 16rem' }}
                  error={err(rowErrors?.email?.message)}
                  {...form.register(`notifications.${index}.email`)}
                />
                <Controller
                  control={form.control}
                  name={`notifications.${index}.language`}
                  render={({ field }) => (
                    <Select
                      label={t('partners:notifications.language')}
                      w={170}
                      allowDeselect={false}
                      data={LANGUAGES.map((code) => ({ value: code, label: LOCALES[code].name }))}
                      value={field.value}
                      onChange={(value) => {
                        if (value && isLanguage(value)) field.onChange(value);
                      }}
                      error={err(rowErrors?.language?.message)}
                    />
                  )}
                />
                <Controller
                  control={form.control}
                  name={`notifications.${index}.events`}
                  render={({ field }) => (
                    <Checkbox.Group
                      label={t('partners:notifications.events')}
                      value={field.value}
                      onChange={(next) => field.onChange(next.filter(isEvent))}
                      error={err(rowErrors?.events?.message)}
                    >
                      <Group gap="sm" mt={6}>
                        {PARTNER_EVENTS.map((event) => (
                          <Checkbox key={event} value={event} label={t(`partners:notifications.event.${event}`)} />
                        ))}
                      </Group>
                    </Checkbox.Group>
                  )}
                />
                <Tooltip label={t('partners:notifications.remove')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={26}
                    onClick={() => rows.remove(index)}
                    aria-label={t('partners:notifications.removeNumbered', { number: index + 1 })}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </Group>
            );
          })}
          {errors.notifications?.message ? (
            <Text size="sm" c="red.8" role="alert">
              {err(errors.notifications.message)}
            </Text>
          ) : null}
          <Group justify="space-between">
            <Button
              variant="default"
              leftSection={<IconPlus size={16} aria-hidden />}
              disabled={rows.fields.length >= PARTNER_NOTIFICATIONS_MAX}
              onClick={() => rows.append({ email: '', language: defaultLanguage, events: ['received', 'failed'] })}
            >
              {t('partners:notifications.addRecipient')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
              {t('partners:notifications.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
