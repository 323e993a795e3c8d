import { Button, Group, Paper, Select, SimpleGrid, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ETTN_STATUSES } from '@portal/contracts';
import { validateEttnSearch, type EttnSearch } from '../ettn-search.ts';

type Draft = { status: string; search: string; dateFrom: string; dateTo: string };

const toDraft = (search: EttnSearch): Draft => ({
  status: search.status ?? '',
  search: search.search ?? '',
  dateFrom: search.dateFrom ?? '',
  dateTo: search.dateTo ?? '',
});

/** The list's filters (status, text, issue-date range), applied together with "Search"; the page keeps them in the address. */
export function EttnFilters(props: { search: EttnSearch; onApply: (search: EttnSearch) => void }) {
  const { t } = useTranslation('ettn');
  const [draft, setDraft] = useState<Draft>(() => toDraft(props.search));
  // The address changed (back, forward, a shared link): the fields follow.
  const key = JSON.stringify(props.search);
  const [shown, setShown] = useState(key);
  if (shown !== key) {
    setShown(key);
    setDraft(toDraft(props.search));
  }
  const set = (field: keyof Draft, value: string | null) => setDraft((d) => ({ ...d, [field]: value ?? '' }));

  function apply(event: FormEvent) {
    event.preventDefault();
    props.onApply(validateEttnSearch(draft));
  }

  function clear() {
    setDraft(toDraft({}));
    props.onApply({});
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={apply} aria-labelledby="ettn-filters-title" role="search">
      <Title order={2} size="h4" id="ettn-filters-title" mb="sm">
        {t('filters.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
        <TextInput
          size="sm"
          label={t('filters.search')}
          name="search"
          maxLength={200}
          value={draft.search}
          onChange={(e) => set('search', e.currentTarget.value)}
        />
        <Select
          size="sm"
          label={t('filters.status')}
          data={[
            { value: '', label: t('filters.anyStatus') },
            ...ETTN_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
          ]}
          value={draft.status}
          onChange={(v) => set('status', v)}
          allowDeselect={false}
        />
        <TextInput
          size="sm"
          type="date"
          label={t('filters.dateFrom')}
          name="dateFrom"
          value={draft.dateFrom}
          max={draft.dateTo || undefined}
          onChange={(e) => set('dateFrom', e.currentTarget.value)}
        />
        <TextInput
          size="sm"
          type="date"
          label={t('filters.dateTo')}
          name="dateTo"
          value={draft.dateTo}
          min={draft.dateFrom || undefined}
          onChange={(e) => set('dateTo', e.currentTarget.value)}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md" gap="xs">
        <Button variant="default" onClick={clear}>
          {t('filters.clear')}
        </Button>
        <Button type="submit">{t('filters.apply')}</Button>
      </Group>
    </Paper>
  );
}
