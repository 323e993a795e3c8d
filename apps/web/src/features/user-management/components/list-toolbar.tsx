import { Group, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';

/** A search field (debounced) with the page's filters and actions beside it; wraps on narrow screens. */
export function ListToolbar(props: { searchLabel: string; onSearch: (search: string) => void; children?: ReactNode }) {
  const { onSearch } = props;
  const [value, setValue] = useState('');
  const [debounced] = useDebouncedValue(value.trim(), 300);
  useEffect(() => onSearch(debounced), [debounced, onSearch]);
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        type="search"
        label={props.searchLabel}
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden />}
        style={{ flex: '1 1 16rem' }}
        maw={420}
      />
      {props.children}
    </Group>
  );
}
