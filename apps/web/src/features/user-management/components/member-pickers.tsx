import { MultiSelect, type ComboboxItem } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/api-context.tsx';
import { groupPicker, userPicker, type PickerSource } from '../api/user-management-queries.ts';

type PickerProps = {
  label: string;
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  /** Labels of the ids already chosen (a group's members), which the first page of options may not hold. */
  known?: ComboboxItem[];
};

/**
 * A multi-select whose options come from the server for what is typed, so a company with more users or groups
 * than one page (100) can still pick any of them. Chosen options keep their labels when a new search replaces
 * the list.
 */
function ServerMultiSelect(
  props: PickerProps & {
    source: PickerSource;
    'data-testid'?: string;
  },
) {
  const { t } = useTranslation('user-management');
  const api = useApi();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const found = useQuery({
    queryKey: props.source.key(debounced),
    queryFn: ({ signal }) => props.source.fetch(api, debounced, signal),
    placeholderData: keepPreviousData,
  });
  const [remembered, setRemembered] = useState<Record<string, string>>(() =>
    Object.fromEntries((props.known ?? []).map((o) => [o.value, o.label])),
  );
  const results = useMemo(() => found.data?.options ?? [], [found.data]);
  const resultIds = useMemo(() => new Set(results.map((o) => o.value)), [results]);
  const data = useMemo(() => {
    const label = (id: string) => remembered[id] ?? results.find((o) => o.value === id)?.label ?? id;
    const chosen = props.value.filter((id) => !resultIds.has(id)).map((id) => ({ value: id, label: label(id) }));
    return [...chosen, ...results];
  }, [props.value, remembered, results, resultIds]);

  function onChange(ids: string[]) {
    const labels = Object.fromEntries(data.filter((o) => ids.includes(o.value)).map((o) => [o.value, o.label]));
    setRemembered((previous) => ({ ...previous, ...labels }));
    props.onChange(ids);
  }

  const searching = found.isFetching || search.trim() !== debounced;
  return (
    <MultiSelect
      label={props.label}
      description={found.data?.hasMore ? t('picker.moreMatches', { shown: results.length }) : undefined}
      data={data}
      value={props.value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched the search (over names and e-mail); chosen options show only when they match too.
      filter={({ options, search: text }) =>
        options.filter(
          (o) => 'value' in o && (resultIds.has(o.value) || o.label.toLowerCase().includes(text.trim().toLowerCase())),
        )
      }
      clearable
      nothingFoundMessage={searching ? t('picker.searching') : t('list.nothingFound')}
      error={props.error}
      comboboxProps={{ withinPortal: true }}
      data-testid={props['data-testid']}
    />
  );
}

/** Picks users of the company by name or e-mail. */
export function UserMultiSelect(props: PickerProps) {
  return <ServerMultiSelect {...props} source={userPicker} />;
}

/** Picks groups of the company by name. */
export function GroupMultiSelect(props: PickerProps) {
  return <ServerMultiSelect {...props} source={groupPicker} data-testid="group-multi-select" />;
}
