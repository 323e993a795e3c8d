import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useApi } from '../../../lib/api-context.tsx';
import { companiesQuery, companyQuery } from '../api/admin-queries.ts';

/**
 * Picks a company by name: the server searches (there may be thousands), the chosen one stays listed.
 * `noneLabel` adds an option for "no company" with the value ''.
 */
export function CompanyPicker(
  props: Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange'> & {
    value: string | null;
    onChange: (companyId: string | null) => void;
    noneLabel?: string;
  },
) {
  const { value, onChange, noneLabel, ...rest } = props;
  const api = useApi();
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 250);
  const list = useInfiniteQuery({
    ...companiesQuery(api, search ? { search } : {}),
    placeholderData: keepPreviousData,
  });
  const chosen = useQuery({ ...companyQuery(api, value ?? ''), enabled: Boolean(value) });

  const data = useMemo(() => {
    const options = new Map<string, string>();
    if (noneLabel) options.set('', noneLabel);
    if (value && chosen.data) options.set(chosen.data.id, chosen.data.name);
    for (const page of list.data?.pages ?? []) for (const company of page.items) options.set(company.id, company.name);
    return [...options].map(([id, name]) => ({ value: id, label: name }));
  }, [list.data, chosen.data, value, noneLabel]);

  return (
    <Select
      searchable
      clearable={!noneLabel}
      nothingFoundMessage="—"
      {...rest}
      data={data}
      value={value ?? (noneLabel ? '' : null)}
      onChange={(next) => onChange(next ? next : null)}
      onSearchChange={setSearchText}
      // The server has filtered already; showing its answer as is keeps VAT-id matches too.
      filter={({ options }) => options}
    />
  );
}
