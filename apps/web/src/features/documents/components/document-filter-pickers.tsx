import { Autocomplete, Fieldset, MultiSelect, SimpleGrid, Text, type ComboboxItem } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidGln } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { partnersQuery } from '../../partners/index.ts';
import { addressBookSuggestions, companyLocationSuggestions, type GlnSuggestion } from '../api/filter-suggestions.ts';
import type { DocumentDateRange } from '../documents-search.ts';

/** The most partners one search may name (the address keeps at most 50 GLNs). */
export const PARTNERS_MAX = 50;
const DEBOUNCE_MS = 300;

const nameAndGln = (name: string, gln: string) => `${name} (${gln})`;

/**
 * One range of days (`<range>From` and `<range>To`, YYYY-MM-DD), grouped under the range's name: a "From" and a "To"
 * date picker, either of which may be left empty, so a search may be open at one end ("since 1 November"). Mantine's
 * own range picker would drop a range whose second day was never picked. Each picker is in the user's language
 * (DatesProvider), used from the keyboard (arrows, Enter, Escape) and cleared with its button; From can be no later
 * than To, and To no earlier than From.
 */
export function DateRangeFilter(props: {
  range: DocumentDateRange;
  from: string;
  to: string;
  onChange: (from: string, to: string) => void;
}) {
  const { t } = useTranslation('documents');
  const legend = t(`filters.${props.range}`);
  const ariaLabels = {
    previousMonth: t('filters.calendar.previousMonth'),
    nextMonth: t('filters.calendar.nextMonth'),
    previousYear: t('filters.calendar.previousYear'),
    nextYear: t('filters.calendar.nextYear'),
    previousDecade: t('filters.calendar.previousDecade'),
    nextDecade: t('filters.calendar.nextDecade'),
    // The month and year controls keep their visible text ("November 2026") as their name.
  };
  const end = (which: 'From' | 'To') => {
    const label = t(`filters.date${which}`);
    const name = `${props.range}${which}`;
    return (
      <DatePickerInput
        label={label}
        value={(which === 'From' ? props.from : props.to) || null}
        onChange={(day) =>
          which === 'From' ? props.onChange(day ?? '', props.to) : props.onChange(props.from, day ?? '')
        }
        minDate={which === 'To' ? props.from || undefined : undefined}
        maxDate={which === 'From' ? props.to || undefined : undefined}
        valueFormat="YYYY-MM-DD"
        clearable
        clearButtonProps={{ 'aria-label': t('filters.clearField', { field: `${legend} – ${label}` }) }}
        ariaLabels={ariaLabels}
        name={name}
        data-testid={`filter-${name}`}
      />
    );
  };
  return (
    <Fieldset
      legend={legend}
      variant="unstyled"
      data-testid={`filter-${props.range}`}
      // The legend reads as the other fields' labels, and the group sits in the grid as they do.
      styles={{
        root: { padding: 0, margin: 0 },
        legend: { padding: 0, marginBottom: 2, fontSize: 'var(--mantine-font-size-sm)', fontWeight: 600 },
      }}
    >
      <SimpleGrid cols={2} spacing="xs">
        {end('From')}
        {end('To')}
      </SimpleGrid>
    </Fieldset>
  );
}

/**
 * The partners of the search, by GLN: what is typed is searched among the company's partners on the server (name,
 * GLN, VAT ID), shown as "Name (GLN)". A chosen partner keeps its name when a new search replaces the options; one
 * that came with the address shows its GLN until a search finds it. A valid GLN that is no partner may be used as is.
 */
export function PartnerPicker(props: { value: string[]; onChange: (glns: string[]) => void }) {
  const { t } = useTranslation('documents');
  const api = useApi();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), DEBOUNCE_MS);
  // Nothing is asked before the field is first opened: most searches never use it.
  const [used, setUsed] = useState(false);
  const found = useInfiniteQuery({
    ...partnersQuery(api, { search: debounced, status: undefined, testMode: undefined, sort: 'name', order: 'asc' }),
    enabled: used || debounced !== '',
    placeholderData: keepPreviousData,
  });
  const [remembered, setRemembered] = useState<Record<string, string>>({});

  const results = useMemo(() => {
    const options = new Map<string, string>();
    for (const partner of found.data?.pages[0]?.items ?? []) {
      if (!options.has(partner.gln)) options.set(partner.gln, nameAndGln(partner.name, partner.gln));
    }
    return [...options].map(([value, label]): ComboboxItem => ({ value, label }));
  }, [found.data]);
  const resultGlns = useMemo(() => new Set(results.map((o) => o.value)), [results]);
  const typed = search.trim();
  const typedGln =
    isValidGln(typed) && !resultGlns.has(typed) && !props.value.includes(typed) && debounced === typed ? typed : null;

  const data = useMemo(() => {
    const chosen = props.value
      .filter((gln) => !resultGlns.has(gln))
      .map((gln): ComboboxItem => ({ value: gln, label: remembered[gln] ?? gln }));
    const own = typedGln ? [{ value: typedGln, label: t('filters.useGln', { gln: typedGln }) }] : [];
    return [...chosen, ...results, ...own];
  }, [props.value, remembered, results, resultGlns, typedGln, t]);

  function onChange(glns: string[]) {
    const labels: Record<string, string> = {};
    for (const option of data) {
      if (glns.includes(option.value)) labels[option.value] = option.value === typedGln ? option.value : option.label;
    }
    setRemembered((previous) => ({ ...previous, ...labels }));
    props.onChange(glns);
  }

  const searching = found.isFetching || typed !== debounced;
  const label = t('filters.partnerIds');
  return (
    <MultiSelect
      label={label}
      placeholder={props.value.length ? undefined : t('filters.partnerSearch')}
      data={data}
      value={props.value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => setUsed(true)}
      // The server matched the search already (a VAT ID too); chosen partners show when their label matches it.
      filter={({ options, search: text }) =>
        options.filter(
          (o) =>
            'value' in o &&
            (resultGlns.has(o.value) ||
              o.value === typedGln ||
              o.label.toLowerCase().includes(text.trim().toLowerCase())),
        )
      }
      maxValues={PARTNERS_MAX}
      clearable
      clearButtonProps={{ 'aria-label': t('filters.clearField', { field: label }) }}
      nothingFoundMessage={searching ? t('filters.searching') : t('filters.nothingFound')}
      name="partnerIds"
      data-testid="filter-partnerIds"
    />
  );
}

/**
 * The delivery point of the search, by GLN: typing suggests the company's own GLNs and delivery points and the
 * address book's entries with a GLN, each "Name (GLN)"; picking one puts its GLN in the field. Any GLN may be typed.
 */
export function DeliveryPointPicker(props: { value: string; onChange: (gln: string) => void }) {
  const { t } = useTranslation('documents');
  const api = useApi();
  const { can, hasRole } = usePermissions();
  const [debounced] = useDebouncedValue(props.value.trim(), DEBOUNCE_MS);
  const [used, setUsed] = useState(false);
  const locations = useQuery({
    ...companyLocationSuggestions(api, debounced),
    enabled: used && (can('COMPANY_PROFILE_READ') || hasRole('admin')),
    placeholderData: keepPreviousData,
  });
  const addressBook = useQuery({
    ...addressBookSuggestions(api, debounced),
    // The server refuses the address book to a demo account whatever its permissions.
    enabled: used && can('ADDRESS_BOOK_READ') && !hasRole('demo'),
    placeholderData: keepPreviousData,
  });

  const names = useMemo(() => {
    const byGln = new Map<string, string>();
    for (const s of [...(locations.data ?? []), ...(addressBook.data ?? [])]) {
      if (!byGln.has(s.gln)) byGln.set(s.gln, s.name);
    }
    return byGln;
  }, [locations.data, addressBook.data]);

  const data = useMemo(() => {
    const own = new Set((locations.data ?? []).map((s) => s.gln));
    const options = (suggestions: GlnSuggestion[]) =>
      [...new Set(suggestions.map((s) => s.gln))].map((gln) => ({ value: gln, label: gln }));
    const groups = [
      { group: t('filters.deliveryPointHint'), items: options(locations.data ?? []) },
      { group: t('filters.addressBook'), items: options((addressBook.data ?? []).filter((s) => !own.has(s.gln))) },
    ];
    return groups.filter((g) => g.items.length > 0);
  }, [locations.data, addressBook.data, t]);

  const label = t('filters.deliveryPointGln');
  return (
    <Autocomplete
      label={label}
      placeholder={t('filters.partnerSearch')}
      data={data}
      value={props.value}
      onChange={props.onChange}
      onDropdownOpen={() => setUsed(true)}
      // The server searched names and addresses; the options' own text (the GLN) need not match what is typed.
      filter={({ options }) => options}
      renderOption={({ option }) => {
        const name = names.get(option.value);
        return <Text size="sm">{name ? nameAndGln(name, option.value) : option.value}</Text>;
      }}
      maxLength={70}
      clearable
      clearButtonProps={{ 'aria-label': t('filters.clearField', { field: label }) }}
      name="deliveryPointGln"
      data-testid="filter-deliveryPointGln"
    />
  );
}
