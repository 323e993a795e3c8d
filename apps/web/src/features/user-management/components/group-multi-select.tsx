import { MultiSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/api-context.tsx';
import { groupOptionsQuery } from '../api/user-management-queries.ts';

/** Picks groups of the company by name. */
export function GroupMultiSelect(props: { label: string; value: string[]; onChange: (ids: string[]) => void; error?: string }) {
  const { t } = useTranslation('user-management');
  const api = useApi();
  const groups = useQuery(groupOptionsQuery(api));
  return (
    <MultiSelect
      label={props.label}
      data={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
      value={props.value}
      onChange={props.onChange}
      searchable
      clearable
      nothingFoundMessage={t('list.nothingFound')}
      error={props.error}
      comboboxProps={{ withinPortal: true }}
      data-testid="group-multi-select"
    />
  );
}
