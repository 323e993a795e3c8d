import { Button } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CHAT_BUTTON_ID, useChat } from './chat-provider.tsx';
import { CHAT_WINDOW_ID } from './chat-window.tsx';

/** The header's button that opens and closes the chat window; only for users who have the assistant. */
export function ChatButton() {
  const { t, ready } = useTranslation('chat');
  const chat = useChat();
  // Shown once the chat's texts are loaded: before, it would name itself by a missing key.
  if (!chat.isAvailable || !ready) return null;
  return (
    <Button
      id={CHAT_BUTTON_ID}
      variant={chat.isOpen ? 'filled' : 'light'}
      size="sm"
      leftSection={<IconMessageChatbot size={18} aria-hidden />}
      onClick={chat.toggle}
      aria-expanded={chat.isOpen}
      aria-controls={chat.isOpen ? CHAT_WINDOW_ID : undefined}
      data-testid="chat-button"
    >
      {t('button')}
    </Button>
  );
}
