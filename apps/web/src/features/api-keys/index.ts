// The api-keys feature's public surface (decision 0016): the "API keys" section of the profile's company panel.
export { ApiKeysSection } from './components/api-keys-section.tsx';
