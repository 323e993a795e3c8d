// The partners feature's public surface: what other features and the routes may use (decision 0016).
export { partnerQuery, partnersQuery } from './api/partners-queries.ts';
export { partnersFilter, validatePartnersSearch, type PartnersSearch } from './partners-search.ts';
