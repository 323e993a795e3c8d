import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AliasRegistrationSetFormSchema } from '@portal/contracts';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { errorText, fieldErrorText, showFailure, showSaveFailure } from '../../../lib/error-text.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useAliasRegistration } from '../api/ettn-mutations.ts';
import { ettnAliasesQuery } from '../api/ettn-queries.ts';
import { expiryItems, expiryState, type EttnExpiringItem, type EttnExpiryState } from '../ettn-expiry.ts';

const BADGE_COLOR: Record<EttnExpiryState, string> = { expired: 'red', soon: 'yellow', active: 'green' };

/** The register form takes the alias value only; the qualifier is always EDRPOU. */
const RegisterSchema = AliasRegistrationSetFormSchema.pick({ aliasValue: true });
type RegisterForm = { aliasValue: string };

export function EttnExpiryBadge({ expiresAt }: { expiresAt: string }) {
  const { t } = useTranslation('ettn');
  const state = expiryState(expiresAt);
  return (
    // Light with dark text: a filled or coloured label on these colours fails the contrast check (axe).
    <Badge color={BADGE_COLOR[state]} variant="light" c="dark.7" data-testid={`expiry-${state}`}>
      {t(`subscriptions.state.${state}`)}
    </Badge>
  );
}

function ItemCard({ item, onRenew, renewing }: { item: EttnExpiringItem; onRenew?: () => void; renewing: boolean }) {
  const { t, i18n } = useTranslation('ettn');
  const name = t(`subscriptions.kind.${item.kind}`, { value: item.value });
  return (
    <Paper component="li" withBorder p="sm" data-testid={`ettn-${item.key}`}>
      <Group justify="space-between" align="center" gap="xs">
        <Stack gap={2} miw={0}>
          <Text fw={600}>{name}</Text>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('subscriptions.expires', { date: formatDateTime(i18n.language, item.expiresAt) })}
            </Text>
            <EttnExpiryBadge expiresAt={item.expiresAt} />
          </Group>
        </Stack>
        {onRenew ? (
          <Button
            variant="light"
            size="sm"
            onClick={onRenew}
            loading={renewing}
            aria-label={t('subscriptions.renewLabel', { name })}
          >
            {t('subscriptions.renew')}
          </Button>
        ) : null}
      </Group>
    </Paper>
  );
}

function ItemList({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
      {children}
    </Stack>
  );
}

function RegisterAlias() {
  const { t } = useTranslation(['ettn', 'validation']);
  const register = useAliasRegistration();
  const form = useForm<RegisterForm>({ resolver: zodResolver(RegisterSchema), defaultValues: { aliasValue: '' } });
  const error = form.formState.errors.aliasValue?.message;

  function onValid(values: RegisterForm) {
    register.mutate(
      { aliasValue: values.aliasValue.trim(), isRegistered: false },
      {
        onSuccess: (alias) => {
          form.reset({ aliasValue: '' });
          showSuccess({ message: t('ettn:subscriptions.registered', { value: alias.value }) });
        },
        onError: (failure) => showSaveFailure(failure, 'ettn', { fields: ['aliasValue'], setError: form.setError }),
      },
    );
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} aria-label={t('ettn:subscriptions.registerTitle')}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('ettn:subscriptions.registerTitle')}
        </Title>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('ettn:subscriptions.edrpou')}
            description={t('ettn:subscriptions.edrpouHint')}
            required
            dir="ltr"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            w={{ base: '100%', xs: 260 }}
            error={fieldErrorText(error, 'ettn')}
            {...form.register('aliasValue')}
          />
          <Button type="submit" loading={register.isPending} mt={{ base: 0, xs: 'xl' }}>
            {t('ettn:subscriptions.register')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The profile's ettn-subscriptions panel: the company's aliases and subscriptions with their expiry; register, renew. */
export function EttnSubscriptions() {
  const { t } = useTranslation('ettn');
  const api = useApi();
  const query = useQuery(ettnAliasesQuery(api));
  const renew = useAliasRegistration();
  const [renewingValue, setRenewingValue] = useState<string>();

  function renewAlias(value: string) {
    setRenewingValue(value);
    renew.mutate(
      { aliasValue: value, isRegistered: true },
      {
        onSuccess: (alias) => showSuccess({ message: t('subscriptions.renewed', { value: alias.value }) }),
        onError: (failure) => showFailure(failure, 'ettn'),
        onSettled: () => setRenewingValue(undefined),
      },
    );
  }

  if (query.isPending) return <PageLoader />;
  if (query.isError)
    return (
      <Alert color="red" role="alert" data-testid="ettn-subscriptions-error">
        {errorText(query.error, 'ettn')}
      </Alert>
    );

  const items = expiryItems(query.data);
  const aliases = items.filter((i) => i.kind === 'alias');
  const subscriptions = items.filter((i) => i.kind === 'subscription');

  return (
    <Stack gap="lg" data-testid="ettn-subscriptions">
      <Text c="dimmed" size="sm">
        {t('subscriptions.intro')}
      </Text>
      {items.length === 0 ? (
        <Stack align="center" gap="xs" py="md" ta="center" data-testid="ettn-subscriptions-empty">
          <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
            <IconTruckDelivery size={28} />
          </ThemeIcon>
          <Title order={3} size="h4">
            {t('subscriptions.emptyTitle')}
          </Title>
          <Text c="dimmed" maw={480}>
            {t('subscriptions.emptyText')}
          </Text>
        </Stack>
      ) : (
        <>
          <Stack gap="xs">
            <Title order={3} size="h4">
              {t('subscriptions.aliasesTitle')}
            </Title>
            {aliases.length === 0 ? (
              <Text c="dimmed">{t('subscriptions.noAliases')}</Text>
            ) : (
              <ItemList label={t('subscriptions.aliasesTitle')}>
                {aliases.map((item) => (
                  <ItemCard
                    key={item.key}
                    item={item}
                    onRenew={() => renewAlias(item.value)}
                    renewing={renew.isPending && renewingValue === item.value}
                  />
                ))}
              </ItemList>
            )}
          </Stack>
          <Stack gap="xs">
            <Title order={3} size="h4">
              {t('subscriptions.subscriptionsTitle')}
            </Title>
            {subscriptions.length === 0 ? (
              <Text c="dimmed">{t('subscriptions.noSubscriptions')}</Text>
            ) : (
              <ItemList label={t('subscriptions.subscriptionsTitle')}>
                {subscriptions.map((item) => (
                  <ItemCard key={item.key} item={item} renewing={false} />
                ))}
              </ItemList>
            )}
          </Stack>
        </>
      )}
      <RegisterAlias />
    </Stack>
  );
}
