/** Node-only: loading guide files from folders (the shipped EANCOM guides and one's own). */
export { builtInGuidesPath, loadGuides, readGuideFolder } from './load-guides.ts';
