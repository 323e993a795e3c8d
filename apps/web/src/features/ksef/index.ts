// The ksef feature's public surface (decision 0016): the KSeF section of the profile's company panel.
export { KsefSection, useKsefAvailable } from './components/ksef-section.tsx';
