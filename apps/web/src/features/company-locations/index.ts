// The company-locations feature's public surface (decision 0016): the "GLNs and delivery points" section, shown on the
// profile's company-settings panel and on the admin area's company page.
export { CompanyLocationsSection } from './components/company-locations-section.tsx';
