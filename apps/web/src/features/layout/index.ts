// The layout feature's public surface (decision 0016): a page registers its unsaved changes with the layout.
export { useUnsavedChanges } from './components/unsaved-changes.tsx';
