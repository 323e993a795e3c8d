import { useMutation, useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage, type ChatAnswer } from '@portal/contracts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { emailHash } from '../../../lib/email-hash.ts';
import { findErrorText } from '../../../lib/error-text.ts';
import { showError } from '../../../lib/notify.ts';
import { askQuestion, explainBody, explainFinding, sendFeedback, type FindingToExplain } from '../api/chat-api.ts';
import {
  EMPTY_HISTORY,
  readHistory,
  withAnswer,
  withFeedback,
  writeHistory,
  type ChatHistory,
} from '../chat-history.ts';

/** The role and the company toggle that give a user the assistant (description, section 6). */
export const CHAT_ROLE = 'chat-ai';
export const CHAT_TOGGLE = 'CHAT_AI';
/** The header's button: the focus goes back to it when the window closes. */
export const CHAT_BUTTON_ID = 'chat-button';

/** A turn of the user: a typed question, or "Explain" beside a finding. */
type Turn =
  { kind: 'question'; question: string; turn: string } | { kind: 'explain'; finding: FindingToExplain; turn: string };

export type FeedbackInput = { messageId: string; isPositive: boolean; comment?: string };

export type ChatState = {
  /** The user has the role and the company the toggle: the button, the window and "Explain" are shown. */
  isAvailable: boolean;
  isOpen: boolean;
  open: () => void;
  /** Closes the window and gives the focus back to the button that opens it. */
  close: () => void;
  toggle: () => void;
  history: ChatHistory;
  /** The user's turn sent and not yet answered: shown while waiting, dropped when the call fails. */
  pendingTurn: string | undefined;
  isWaiting: boolean;
  /** Sends a question; resolves true when answered (the input is cleared then, kept otherwise). */
  ask: (question: string) => Promise<boolean>;
  /** Opens the window and asks the assistant to explain a finding; `text` is the finding as the screen words it. */
  explain: (finding: FindingToExplain, text: string) => void;
  /** Resolves true when the server took the feedback; otherwise the prompt comes back. */
  feedback: (input: FeedbackInput) => Promise<boolean>;
  isSendingFeedback: boolean;
  newConversation: () => void;
  /** The newest answer, for the screen reader's polite announcement. */
  announcement: string;
};

const ChatContext = createContext<ChatState | undefined>(undefined);

/** The chat's 'Error' notification (description, section 8): the code's own text for a refusal, else unavailable. */
function showChatError(error: unknown): void {
  const own =
    error instanceof ApiError && error.status < 500 && error.code.startsWith('chat.')
      ? findErrorText(error.code)
      : undefined;
  showError({ title: i18next.t('chat:errorTitle'), message: own ?? i18next.t('chat:unavailable') });
}

function useStoredHistory(email: string, enabled: boolean) {
  const stored = useQuery({
    queryKey: ['chat', 'history', email],
    queryFn: async () => {
      const key = await emailHash(email);
      return { key, history: readHistory(window.localStorage, key) };
    },
    enabled,
    staleTime: Infinity,
    gcTime: 0,
  });
  const [changed, setChanged] = useState<ChatHistory | undefined>();
  const loaded = stored.data;
  const history = changed ?? loaded?.history ?? EMPTY_HISTORY;
  const key = loaded?.key;

  useEffect(() => {
    if (key && changed) writeHistory(window.localStorage, key, changed);
  }, [key, changed]);

  const update = useCallback(
    (change: (current: ChatHistory) => ChatHistory) =>
      setChanged((current) => change(current ?? loaded?.history ?? EMPTY_HISTORY)),
    [loaded],
  );
  return { history, update };
}

/**
 * The AI help assistant's state for the signed-in area (issue 15): whether the user has it, the window open or
 * closed, the history kept in the browser, and the calls. The layout shows the button and the window; a page's
 * "Explain" reaches the same conversation through {@link useChat}.
 */
export function ChatProvider({ email, children }: { email: string; children: ReactNode }) {
  const api = useApi();
  const { i18n } = useTranslation();
  const access = usePermissions();
  const isAvailable = !access.isLoading && access.hasRole(CHAT_ROLE) && access.isOn([CHAT_TOGGLE]);
  const [isOpen, setOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const { history, update } = useStoredHistory(email, isAvailable);
  const language = isLanguage(i18n.language) ? i18n.language : 'en';

  const turn = useMutation({
    mutationFn: (sent: Turn): Promise<ChatAnswer> =>
      sent.kind === 'question'
        ? askQuestion(api, { question: sent.question, language, conversationId: history.conversationId })
        : explainFinding(api, explainBody({ finding: sent.finding, language, conversationId: history.conversationId })),
    onSuccess: (answer, sent) => {
      update((current) => withAnswer(current, sent.turn, answer));
      setAnnouncement(answer.response);
    },
    onError: showChatError,
  });

  const feedbackCall = useMutation({
    mutationFn: (input: FeedbackInput) => sendFeedback(api, input),
    onSuccess: (_, input) => update((current) => withFeedback(current, input.messageId, input.isPositive)),
  });

  const close = useCallback(() => {
    setOpen(false);
    document.getElementById(CHAT_BUTTON_ID)?.focus();
  }, []);

  const value = useMemo<ChatState>(
    () => ({
      isAvailable,
      isOpen: isAvailable && isOpen,
      open: () => setOpen(true),
      close,
      toggle: () => (isOpen ? close() : setOpen(true)),
      history,
      pendingTurn: turn.isPending ? turn.variables.turn : undefined,
      isWaiting: turn.isPending,
      ask: async (question) => {
        if (turn.isPending) return false;
        try {
          await turn.mutateAsync({ kind: 'question', question, turn: question });
          return true;
        } catch {
          return false;
        }
      },
      explain: (finding, text) => {
        setOpen(true);
        if (turn.isPending) return;
        turn.mutate({ kind: 'explain', finding, turn: i18next.t('chat:explainFinding', { finding: text }) });
      },
      feedback: async (input) => {
        if (feedbackCall.isPending) return false;
        try {
          await feedbackCall.mutateAsync(input);
          return true;
        } catch (error) {
          // The server has this answer's feedback already (another tab): it is given, as far as the screen goes.
          if (error instanceof ApiError && error.code === 'chat.feedback_exists') {
            update((current) => withFeedback(current, input.messageId, input.isPositive));
            return true;
          }
          showChatError(error);
          return false;
        }
      },
      isSendingFeedback: feedbackCall.isPending,
      newConversation: () => {
        update(() => EMPTY_HISTORY);
        setAnnouncement('');
      },
      announcement,
    }),
    [isAvailable, isOpen, close, history, turn, feedbackCall, update, announcement],
  );

  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
}

const NO_CHAT: ChatState = {
  isAvailable: false,
  isOpen: false,
  open: () => {},
  close: () => {},
  toggle: () => {},
  history: EMPTY_HISTORY,
  pendingTurn: undefined,
  isWaiting: false,
  ask: () => Promise.resolve(false),
  explain: () => {},
  feedback: () => Promise.resolve(false),
  isSendingFeedback: false,
  newConversation: () => {},
  announcement: '',
};

/** The assistant of the signed-in area; outside it (a page rendered on its own) there is none. */
export function useChat(): ChatState {
  return useContext(ChatContext) ?? NO_CHAT;
}
