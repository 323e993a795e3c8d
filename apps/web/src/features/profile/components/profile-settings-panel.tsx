import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { UpdateUserDataRequestSchema, type UserData } from '@portal/contracts';
import type { z } from 'zod';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { applyServerDetails, fieldErrorText, showFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useUpdateUserDataMutation } from '../api/profile-mutations.ts';
import { profileUserDataQuery } from '../api/profile-queries.ts';
import type { PanelProps } from './panel-props.ts';

type UserDataForm = z.input<typeof UpdateUserDataRequestSchema>;

/** First name, last name and telephone (`POST /api/users/updateUserData`); read-only without USER_PROFILE_MODIFY. */
export function ProfileSettingsPanel({ canEdit, onDirtyChange }: PanelProps) {
  const api = useApi();
  const query = useQuery(profileUserDataQuery(api));
  if (!query.data) return <PageLoader />;
  return <ProfileSettingsForm user={query.data} canEdit={canEdit} onDirtyChange={onDirtyChange} />;
}

function ProfileSettingsForm({ user, canEdit, onDirtyChange }: PanelProps & { user: UserData }) {
  const { t } = useTranslation(['profile', 'validation']);
  const save = useUpdateUserDataMutation();
  const form = useForm<UserDataForm, unknown, z.output<typeof UpdateUserDataRequestSchema>>({
    resolver: zodResolver(UpdateUserDataRequestSchema),
    defaultValues: { firstName: user.firstName, lastName: user.lastName, telephone: user.telephone ?? '' },
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  function onValid(values: z.output<typeof UpdateUserDataRequestSchema>) {
    const body = { ...values, telephone: values.telephone ? values.telephone : null };
    save.mutate(body, {
      onSuccess: () => {
        form.reset({ firstName: body.firstName, lastName: body.lastName, telephone: body.telephone ?? '' });
        showSuccess({ message: t('profile:messages.success') });
      },
      onError: (error) => {
        const matched =
          error instanceof ApiError &&
          error.status === 400 &&
          applyServerDetails(error.details, ['firstName', 'lastName', 'telephone'], form.setError);
        if (!matched) showFailure(error, 'profile');
      },
    });
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)} aria-label={t('profile:panels.profile-settings')}>
      <Stack gap="md" maw={720}>
        <TextInput label={t('profile:user.email')} value={user.email} readOnly variant="filled" />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('profile:user.firstName')}
            autoComplete="given-name"
            required={canEdit}
            readOnly={!canEdit}
            error={fieldErrorText(errors.firstName?.message, 'profile')}
            {...form.register('firstName')}
          />
          <TextInput
            label={t('profile:user.lastName')}
            autoComplete="family-name"
            required={canEdit}
            readOnly={!canEdit}
            error={fieldErrorText(errors.lastName?.message, 'profile')}
            {...form.register('lastName')}
          />
        </SimpleGrid>
        <TextInput
          label={t('profile:user.telephone')}
          type="tel"
          dir="ltr"
          autoComplete="tel"
          readOnly={!canEdit}
          error={fieldErrorText(errors.telephone?.message, 'profile')}
          {...form.register('telephone')}
        />
        {canEdit ? (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!isDirty}>
              {t('profile:actions.save')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}
