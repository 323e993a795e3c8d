// The layout feature's public surface (decision 0016): a page registers its unsaved changes with the layout; the
// start page asks where a user lands.
export { useUnsavedChanges } from './components/unsaved-changes.tsx';
export { landingPath } from './navigation.ts';
