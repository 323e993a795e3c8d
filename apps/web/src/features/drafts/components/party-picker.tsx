import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AddressBookPageSchema,
  CompanyLocationPageSchema,
  type AddressBookEntry,
  type CompanyLocation,
  type DraftParty,
} from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { usePermissions } from '../../../app/session/use-permissions.ts';

export type PartyRole = 'buyer' | 'supplier' | 'deliveryPoint' | 'invoicee';

/** What a pick fills: the party, and the bank account an address book entry holds (for an invoice's payee). */
export type PickedParty = { party: DraftParty; account?: string };

const EMPTY: DraftParty = {
  gln: '',
  name: '',
  street: '',
  city: '',
  postalCode: '',
  country: '',
  vatId: '',
  taxId: '',
};

/** An address book entry as a form's party: its tax identifier is the VAT number the NAD's RFF VA carries. */
export const partyOfEntry = (entry: AddressBookEntry): PickedParty => ({
  party: {
    ...EMPTY,
    gln: entry.gln ?? '',
    name: entry.name,
    street: entry.street ?? '',
    postalCode: entry.postalCode ?? '',
    city: entry.city ?? '',
    country: entry.country,
    vatId: entry.taxId ?? '',
  },
  ...(entry.accountNumber ? { account: entry.accountNumber } : {}),
});

/** One of the company's delivery points as the form's delivery party (NAD DP: GLN, name, address). */
export const partyOfLocation = (location: CompanyLocation): PickedParty => ({
  party: {
    ...EMPTY,
    gln: location.gln,
    name: location.name,
    street: location.street ?? '',
    postalCode: location.postalCode ?? '',
    city: location.city ?? '',
    country: location.country ?? '',
  },
});

const PICK_LIMIT = 20;

/**
 * Fills a party from the address book, and a delivery point also from the company's own delivery points and those of
 * the document's partner when it is on the platform; all searched on the server by name or GLN. What is picked is
 * only form content: the form's checks (and the server's, the same `draftProblems`) judge it like anything typed.
 */
export function PartyPicker({
  role,
  partnerId,
  onPick,
}: {
  role: PartyRole;
  partnerId: string | null;
  onPick: (picked: PickedParty) => void;
}) {
  const { t } = useTranslation('drafts');
  const api = useApi();
  const { can } = usePermissions();
  const [search, setSearch] = useState('');
  const withLocations = role === 'deliveryPoint';
  const book = useQuery({
    queryKey: ['address-book', 'picker', search],
    queryFn: ({ signal }) =>
      api.get('/address-book', AddressBookPageSchema, {
        query: { limit: PICK_LIMIT, search: search || undefined },
        signal,
      }),
    enabled: can('ADDRESS_BOOK_READ'),
    retry: false,
  });
  const locations = useQuery({
    queryKey: ['company-locations', 'picker', search],
    queryFn: ({ signal }) =>
      api.get('/company/locations', CompanyLocationPageSchema, {
        query: { limit: PICK_LIMIT, kind: 'delivery_point', search: search || undefined },
        signal,
      }),
    enabled: withLocations && can('COMPANY_PROFILE_READ'),
    retry: false,
  });
  const partnerPoints = useQuery({
    queryKey: ['drafts', 'partner-delivery-points', partnerId, search],
    queryFn: ({ signal }) =>
      api.get(`/drafts/partners/${encodeURIComponent(partnerId!)}/delivery-points`, CompanyLocationPageSchema, {
        query: { limit: PICK_LIMIT, search: search || undefined },
        signal,
      }),
    enabled: withLocations && Boolean(partnerId) && can('OUTBOX_CREATE'),
    retry: false,
  });
  const entries = book.data?.items ?? [];
  const points = withLocations ? (locations.data?.items ?? []) : [];
  const theirs = withLocations && partnerId ? (partnerPoints.data?.items ?? []) : [];
  const label = (name: string, gln: string | null, city: string | null) =>
    [name, gln, city].filter(Boolean).join(' · ');
  const data = [
    ...(theirs.length
      ? [
          {
            group: t('form.picker.partnerDeliveryPoints'),
            items: theirs.map((p) => ({ value: `partner:${p.gln}`, label: label(p.name, p.gln, p.city) })),
          },
        ]
      : []),
    ...(points.length
      ? [
          {
            group: t('form.picker.ownDeliveryPoints'),
            items: points.map((p) => ({ value: `location:${p.gln}`, label: label(p.name, p.gln, p.city) })),
          },
        ]
      : []),
    ...(entries.length
      ? [
          {
            group: t('form.picker.addressBook'),
            items: entries.map((e) => ({ value: `entry:${e.id}`, label: label(e.name, e.gln, e.city) })),
          },
        ]
      : []),
  ];
  if (!can('ADDRESS_BOOK_READ') && !(withLocations && can('COMPANY_PROFILE_READ'))) return null;
  return (
    <Select
      label={withLocations ? t('form.picker.deliveryPoint') : t('form.picker.fromAddressBook')}
      placeholder={t('form.picker.placeholder')}
      data={data}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server searched already: every option it gave is shown.
      filter={({ options }) => options}
      nothingFoundMessage={search ? t('form.picker.nothingFound') : undefined}
      value={null}
      onChange={(value) => {
        if (!value) return;
        const [source, key] = [value.slice(0, value.indexOf(':')), value.slice(value.indexOf(':') + 1)];
        const location =
          source === 'location'
            ? points.find((p) => p.gln === key)
            : source === 'partner'
              ? theirs.find((p) => p.gln === key)
              : undefined;
        const entry = source === 'entry' ? entries.find((e) => e.id === key) : undefined;
        const picked = location ? partyOfLocation(location) : entry ? partyOfEntry(entry) : undefined;
        if (picked) onPick(picked);
        setSearch('');
      }}
      mb="sm"
      data-testid={`draft-party-picker-${role}`}
    />
  );
}
