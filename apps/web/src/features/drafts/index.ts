// The drafts feature's public surface (decision 0016): the outbox's new-document menu and drafts, and a document's
// "Answer" menu (turnaround).
export { AnswerMenu } from './components/answer-menu.tsx';
export { DraftsSection } from './components/drafts-section.tsx';
export { NewDocumentMenu } from './components/new-document-menu.tsx';
