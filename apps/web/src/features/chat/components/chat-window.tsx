import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Anchor,
  Button,
  CloseButton,
  Group,
  List,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
  Transition,
  VisuallyHidden,
} from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { IconMessagePlus, IconSend, IconThumbDown, IconThumbUp } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CHAT_ANIMATION_MS,
  CHAT_COMMENT_MAX_LENGTH,
  CHAT_QUESTION_MAX_LENGTH,
  ChatQuestionRequestSchema,
  type ChatSource,
} from '@portal/contracts';
import type { z } from 'zod';
import { validationText } from '../../../lib/error-text.ts';
import { useHelpModal } from '../../help/index.ts';
import { isFeedbackElement, type ChatFeedbackElement, type ChatMessageElement } from '../chat-history.ts';
import classes from './chat.module.css';
import { useChat } from './chat-provider.tsx';

export const CHAT_WINDOW_ID = 'chat-window';

const QuestionFormSchema = ChatQuestionRequestSchema.pick({ question: true });
type QuestionForm = z.input<typeof QuestionFormSchema>;

function Sources({ sources }: { sources: readonly ChatSource[] }) {
  const { t } = useTranslation('chat');
  const help = useHelpModal();
  if (sources.length === 0) return null;
  return (
    <Stack gap={2} mt="xs" data-testid="chat-sources">
      <Text size="xs" fw={700} c="gray.7">
        {t('sources')}
      </Text>
      <List size="sm" spacing={2}>
        {sources.map((source) => (
          <List.Item key={source.articleId}>
            <Anchor
              href={source.url}
              size="sm"
              onClick={(event) => {
                event.preventDefault();
                help.open(source.articleId);
              }}
            >
              {source.title}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** 'Was this information helpful?' with Yes and No; after No, an optional comment before it is sent. */
function FeedbackPrompt({ element }: { element: ChatFeedbackElement }) {
  const { t } = useTranslation('chat');
  const chat = useChat();
  const commentId = useId();
  const [askingComment, setAskingComment] = useState(false);
  const [comment, setComment] = useState('');

  if (element.wasFeedbackSent) {
    return (
      <Text size="sm" c="gray.7" data-testid="chat-feedback-sent">
        {t(element.wasFeedbackPositive ? 'feedbackSentPositive' : 'feedbackSentNegative')}
      </Text>
    );
  }

  const send = async (isPositive: boolean) => {
    const trimmed = comment.trim();
    const sent = await chat.feedback({
      messageId: element.responseMessageId,
      isPositive,
      ...(!isPositive && trimmed ? { comment: trimmed } : {}),
    });
    // Refused: the Yes and No buttons come back, the comment kept for another try.
    if (!sent) setAskingComment(false);
  };

  return (
    <Stack gap={6} data-testid="chat-feedback">
      <Text size="sm" fw={500}>
        {t('helpful')}
      </Text>
      {askingComment ? (
        <Stack gap={6}>
          <Textarea
            id={commentId}
            label={t('comment')}
            size="sm"
            rows={3}
            maxLength={CHAT_COMMENT_MAX_LENGTH}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            disabled={chat.isSendingFeedback}
            data-autofocus
            autoFocus
          />
          <Group gap="xs">
            <Button size="xs" onClick={() => void send(false)} loading={chat.isSendingFeedback}>
              {t('sendFeedback')}
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => setAskingComment(false)}
              disabled={chat.isSendingFeedback}
            >
              {t('cancel')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconThumbUp size={16} aria-hidden />}
            onClick={() => void send(true)}
            disabled={chat.isSendingFeedback}
          >
            {t('yes')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconThumbDown size={16} aria-hidden />}
            onClick={() => setAskingComment(true)}
            disabled={chat.isSendingFeedback}
          >
            {t('no')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function Message({ element }: { element: ChatMessageElement }) {
  const { t } = useTranslation('chat');
  const mine = !element.isResponseMessage;
  return (
    <li
      className={`${classes.bubble} ${mine ? classes.user : classes.assistant}`}
      data-testid={mine ? 'chat-question' : 'chat-answer'}
    >
      <VisuallyHidden>{mine ? t('you') : t('assistant')}: </VisuallyHidden>
      <Text size="sm" span dir="auto">
        {element.value}
      </Text>
      {element.sources ? <Sources sources={element.sources} /> : null}
    </li>
  );
}

function TypingIndicator() {
  const { t } = useTranslation('chat');
  return (
    <li className={classes.typing} data-testid="chat-typing">
      <span className={classes.dot} aria-hidden />
      <span className={classes.dot} aria-hidden />
      <span className={classes.dot} aria-hidden />
      <span role="status" aria-label={t('typing')}>
        <VisuallyHidden>{t('typing')}</VisuallyHidden>
      </span>
    </li>
  );
}

function QuestionInput() {
  const { t } = useTranslation('chat');
  const chat = useChat();
  const form = useForm<QuestionForm>({
    resolver: zodResolver(QuestionFormSchema),
    defaultValues: { question: '' },
  });
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const wasWaiting = useRef(false);
  const error = form.formState.errors.question?.message;

  // Opened: the question input has the focus (unless an answer is awaited, as after "Explain").
  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  // A disabled input loses the focus: it comes back when the answer does (or the call failed).
  useEffect(() => {
    if (wasWaiting.current && !chat.isWaiting) inputRef.current?.focus();
    wasWaiting.current = chat.isWaiting;
  }, [chat.isWaiting]);

  const submit = form.handleSubmit(async ({ question }) => {
    if (await chat.ask(question)) form.reset({ question: '' });
  });
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };
  const { ref, ...field } = form.register('question');

  return (
    <form className={classes.form} noValidate onSubmit={(event) => void submit(event)}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Textarea
          {...field}
          ref={(element) => {
            ref(element);
            inputRef.current = element;
          }}
          label={t('question')}
          description={t('hint')}
          placeholder={t('placeholder')}
          rows={2}
          maxLength={CHAT_QUESTION_MAX_LENGTH}
          disabled={chat.isWaiting}
          onKeyDown={onKeyDown}
          error={error === 'required' ? t('questionRequired') : validationText(error)}
          style={{ flex: 1 }}
          data-autofocus
          data-testid="chat-input"
        />
        <ActionIcon type="submit" size="lg" aria-label={t('send')} loading={chat.isWaiting} mb={error ? 22 : 0}>
          <IconSend size={18} aria-hidden />
        </ActionIcon>
      </Group>
    </form>
  );
}

/**
 * The chat window (description, sections 4 and 9): the conversation, the typing indicator while an answer is awaited,
 * the sources and the feedback under each answer, and the question input. Escape closes it; new answers are
 * announced politely to screen readers.
 */
export function ChatWindow() {
  const { t } = useTranslation('chat');
  const chat = useChat();
  const reduceMotion = useReducedMotion();
  const titleId = useId();
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const { elements } = chat.history;
  const messages = new Map<string, ChatMessageElement>();
  for (const element of elements)
    if (!isFeedbackElement(element) && element.messageId) messages.set(element.messageId, element);

  // The newest turn in view: after an answer, a question sent, or the window opened.
  useEffect(() => {
    const box = scrollRef.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [elements.length, chat.isWaiting, chat.isOpen]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      chat.close();
    }
  };

  const isEmpty = elements.length === 0 && !chat.pendingTurn;

  return (
    <>
      <VisuallyHidden aria-live="polite" data-testid="chat-announcer">
        {chat.announcement}
      </VisuallyHidden>
      <Transition
        mounted={chat.isOpen}
        transition="slide-up"
        duration={reduceMotion ? 0 : CHAT_ANIMATION_MS}
        exitDuration={reduceMotion ? 0 : CHAT_ANIMATION_MS}
        timingFunction="ease"
      >
        {(styles) => (
          <Paper
            id={CHAT_WINDOW_ID}
            role="dialog"
            aria-labelledby={titleId}
            className={classes.window}
            style={styles}
            shadow="xl"
            radius="md"
            withBorder
            onKeyDown={onKeyDown}
            data-testid="chat-window"
          >
            <Group className={classes.header} justify="space-between" wrap="nowrap" gap="xs">
              <Title order={2} size="h4" id={titleId}>
                {t('title')}
              </Title>
              <Group gap={4} wrap="nowrap">
                <Button
                  size="xs"
                  variant="subtle"
                  c="blue.9"
                  leftSection={<IconMessagePlus size={16} aria-hidden />}
                  onClick={chat.newConversation}
                  disabled={chat.isWaiting || elements.length === 0}
                >
                  {t('newConversation')}
                </Button>
                <CloseButton aria-label={t('close')} onClick={chat.close} />
              </Group>
            </Group>
            {/* Scrolls: focusable, so a keyboard can scroll it too. */}
            <div
              className={classes.conversation}
              ref={scrollRef}
              role="region"
              aria-label={t('conversation')}
              tabIndex={0}
            >
              {isEmpty ? (
                <Text size="sm" c="gray.7">
                  {t('empty')}
                </Text>
              ) : null}
              <ol className={classes.list} data-testid="chat-conversation">
                {elements.map((element, index) => {
                  if (!isFeedbackElement(element)) {
                    return <Message key={element.messageId ?? `question-${index}`} element={element} />;
                  }
                  // The prompt of an answer the history no longer holds (dropped as the oldest) is dropped too.
                  if (!messages.has(element.responseMessageId)) return null;
                  return (
                    <li key={`feedback-${element.responseMessageId}`} className={classes.feedback}>
                      <FeedbackPrompt element={element} />
                    </li>
                  );
                })}
                {chat.pendingTurn !== undefined ? (
                  <Message element={{ isResponseMessage: false, value: chat.pendingTurn }} />
                ) : null}
                {chat.isWaiting ? <TypingIndicator /> : null}
              </ol>
            </div>
            <QuestionInput />
          </Paper>
        )}
      </Transition>
    </>
  );
}
