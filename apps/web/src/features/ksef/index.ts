// The ksef feature's public surface (decision 0016): the KSeF section of the profile's company panel, and an outbox
// invoice's KSeF panel in the document view.
export { KsefSection, useKsefAvailable } from './components/ksef-section.tsx';
export { KsefSubmission } from './components/ksef-submission.tsx';
