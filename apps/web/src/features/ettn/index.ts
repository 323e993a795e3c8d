// The ettn feature's public surface (decision 0016): the Registered and Pending lists' queries and search (issue 14,
// screens). The pages and the note's dialog are loaded lazily by file from the routes (ettn-route.ts), as the
// documents' are, so they stay out of the main chunk.
export { ettnKeys, ettnListQuery } from './api/ettn-queries.ts';
export { validateEttnSearch, type EttnListKind, type EttnSearch } from './ettn-search.ts';
// The profile's ettn-subscriptions panel and the layout's expiry dialog (issue 14, section 4): small, so not lazy.
export { EttnSubscriptions } from './components/ettn-subscriptions.tsx';
export { ettnAliasesQuery } from './api/ettn-queries.ts';
export { expiryItems, type EttnExpiringItem } from './ettn-expiry.ts';
