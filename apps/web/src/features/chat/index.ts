// The chat feature's public surface (decision 0016): the assistant's state for the signed-in layout, its button and
// window, and "Explain" beside a finding on the screens that list them.
export { ChatButton } from './components/chat-button.tsx';
export { ChatProvider, useChat } from './components/chat-provider.tsx';
export { ChatWindow } from './components/chat-window.tsx';
export { ExplainButton } from './components/explain-button.tsx';
export type { FindingToExplain } from './api/chat-api.ts';
