import { Button } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import type { KeyboardEvent, MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FindingToExplain } from '../api/chat-api.ts';
import { useChat } from './chat-provider.tsx';

/**
 * "Explain" beside a finding (issue 15, part 2): opens the chat window and asks the assistant what the finding means
 * and how to fix it. Only for users who have the assistant. `text` is the finding as the screen words it.
 */
export function ExplainButton({ finding, text }: { finding: FindingToExplain; text: string }) {
  const { t, ready } = useTranslation('chat');
  const chat = useChat();
  if (!chat.isAvailable || !ready) return null;
  // Inside a selectable row: the click and its keys are the button's, not the row's.
  const stop = (event: MouseEvent | KeyboardEvent) => event.stopPropagation();
  return (
    <Button
      size="compact-xs"
      variant="light"
      c="blue.9"
      leftSection={<IconSparkles size={14} aria-hidden />}
      onClick={(event) => {
        stop(event);
        chat.explain(finding, text);
      }}
      onKeyDown={stop}
      disabled={chat.isWaiting}
      aria-label={t('explainFinding', { finding: text })}
      data-testid="explain-finding"
    >
      {t('explain')}
    </Button>
  );
}
