import { Group, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useSearchParam } from '../lib/use-search-param.ts';

export type SearchFieldProps = Omit<TextInputProps, 'value' | 'onChange' | 'type' | 'leftSection'> & {
  /** The search as the address has it. */
  value: string | undefined;
  /** Puts a new search (trimmed; undefined when cleared) in the address, after a short pause in typing. */
  onSearch: (value: string | undefined) => void;
  iconSize?: number;
};

/** A list's search field, kept in the address: the field answers at once, the address (and the query) follows. */
export function SearchField({ value, onSearch, iconSize = 16, ...input }: SearchFieldProps) {
  const field = useSearchParam(value, onSearch);
  return (
    <TextInput
      type="search"
      leftSection={<IconSearch size={iconSize} aria-hidden />}
      value={field.value}
      onChange={(event) => field.onChange(event.currentTarget.value)}
      {...input}
    />
  );
}

/** A list's search field with the page's filters beside it; wraps on narrow screens. */
export function ListToolbar(props: {
  searchLabel: string;
  search: string | undefined;
  onSearch: (value: string | undefined) => void;
  children?: ReactNode;
}) {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <SearchField
        label={props.searchLabel}
        value={props.search}
        onSearch={props.onSearch}
        style={{ flex: '1 1 16rem' }}
        maw={420}
      />
      {props.children}
    </Group>
  );
}
