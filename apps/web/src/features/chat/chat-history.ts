import { z } from 'zod';
import { CHAT_HISTORY_MAX_ELEMENTS, ChatSourceSchema, type ChatAnswer } from '@portal/contracts';

/**
 * The chat history the browser keeps per user (description, sections 3 and 9): `{ conversationId, elements }` in
 * localStorage under the SHA-256 of the lower-cased e-mail, at most {@link CHAT_HISTORY_MAX_ELEMENTS} elements, the
 * oldest dropped first. A Message element is the description's `{ isResponseMessage, value }`; an answer adds its
 * `messageId`, `sources` and whether anything was found. A Feedback element follows each answer.
 */
const MessageElementSchema = z.object({
  isResponseMessage: z.boolean(),
  value: z.string(),
  messageId: z.string().optional(),
  sources: z.array(ChatSourceSchema).optional(),
  answered: z.boolean().optional(),
});
const FeedbackElementSchema = z.object({
  responseMessageId: z.string(),
  wasFeedbackSent: z.boolean(),
  wasFeedbackPositive: z.boolean(),
});
export const ChatHistorySchema = z.object({
  conversationId: z.string().nullable(),
  elements: z.array(z.union([FeedbackElementSchema, MessageElementSchema])),
});

export type ChatMessageElement = z.infer<typeof MessageElementSchema>;
export type ChatFeedbackElement = z.infer<typeof FeedbackElementSchema>;
export type ChatElement = ChatMessageElement | ChatFeedbackElement;
export type ChatHistory = z.infer<typeof ChatHistorySchema>;

export const EMPTY_HISTORY: ChatHistory = { conversationId: null, elements: [] };

export function isFeedbackElement(element: ChatElement): element is ChatFeedbackElement {
  return 'responseMessageId' in element;
}

/** The stored history, or an empty one when there is none or it cannot be read (another version, a hand edit). */
export function readHistory(storage: Storage, key: string): ChatHistory {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    return EMPTY_HISTORY;
  }
  if (!raw) return EMPTY_HISTORY;
  try {
    const parsed = ChatHistorySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : EMPTY_HISTORY;
  } catch {
    return EMPTY_HISTORY;
  }
}

export function writeHistory(storage: Storage, key: string, history: ChatHistory): void {
  try {
    if (history.elements.length === 0 && history.conversationId === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(history));
  } catch {
    // A full or refused storage loses the history, not the conversation on screen.
  }
}

/** At most {@link CHAT_HISTORY_MAX_ELEMENTS} elements: the newest. */
export function capHistory(history: ChatHistory): ChatHistory {
  const { elements } = history;
  return elements.length <= CHAT_HISTORY_MAX_ELEMENTS
    ? history
    : { ...history, elements: elements.slice(elements.length - CHAT_HISTORY_MAX_ELEMENTS) };
}

/** The history after an answer: the user's turn, the answer, and the answer's feedback not yet given. */
export function withAnswer(history: ChatHistory, turn: string, answer: ChatAnswer): ChatHistory {
  return capHistory({
    conversationId: answer.conversationId,
    elements: [
      ...history.elements,
      { isResponseMessage: false, value: turn },
      {
        isResponseMessage: true,
        value: answer.response,
        messageId: answer.responseMessageId,
        sources: answer.sources,
        answered: answer.answered,
      },
      { responseMessageId: answer.responseMessageId, wasFeedbackSent: false, wasFeedbackPositive: false },
    ],
  });
}

/** The history after the feedback on one answer was received by the server. */
export function withFeedback(history: ChatHistory, messageId: string, isPositive: boolean): ChatHistory {
  return {
    ...history,
    elements: history.elements.map((element) =>
      isFeedbackElement(element) && element.responseMessageId === messageId
        ? { ...element, wasFeedbackSent: true, wasFeedbackPositive: isPositive }
        : element,
    ),
  };
}
