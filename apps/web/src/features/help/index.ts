// The help feature's public surface (decision 0016): the dialog the main layout opens, and its opener.
export { HelpDialog } from './components/help-dialog.tsx';
export { useHelpModal } from './use-help-modal.ts';
