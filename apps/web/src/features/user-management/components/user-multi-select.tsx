import { MultiSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/api-context.tsx';
import { userOptionsQuery } from '../api/user-management-queries.ts';

/** Picks users of the company by name or e-mail. */
export function UserMultiSelect(props: { label: string; value: string[]; onChange: (ids: string[]) => void; error?: string }) {
  const { t } = useTranslation('user-management');
  const api = useApi();
  const users = useQuery(userOptionsQuery(api));
  return (
    <MultiSelect
      label={props.label}
      data={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.firstName} ${u.lastName} <${u.email}>` }))}
      value={props.value}
      onChange={props.onChange}
      searchable
      clearable
      nothingFoundMessage={t('list.nothingFound')}
      error={props.error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
