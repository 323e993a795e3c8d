import { z } from 'zod';
import { LANGUAGES } from './constants.ts';
import { EdifactLevelSchema, EdifactSeveritySchema } from './edifact.ts';
import { ListQuerySchema, pageSchema } from './lists.ts';
import { text } from './rules.ts';

/**
 * The AI help assistant (issue 15; description, sections 3, 4, 5, 7, 8 and 9): questions answered from the portal's
 * help articles, with their sources, and feedback on each answer.
 */

/**
 * The two product help labels (description, section 7: "two product help labels, Polish and English"): they choose
 * the help collection the answer comes from. The web app sends the one of the user's language (Polish for Polish,
 * English otherwise) first.
 */
export const CHAT_HELP_LABELS = ['portal-help-pl', 'portal-help-en'] as const;
export type ChatHelpLabel = (typeof CHAT_HELP_LABELS)[number];

/** The longest question (pasted text has a limit, like every input). */
export const CHAT_QUESTION_MAX_LENGTH = 2000;
/** The longest comment of a feedback. */
export const CHAT_COMMENT_MAX_LENGTH = 1000;
/** Elements of the chat history kept in the browser per user (description, section 9). */
export const CHAT_HISTORY_MAX_ELEMENTS = 80;
/** The chat window's open and close animation, in ms (description, section 9); none with reduced motion. */
export const CHAT_ANIMATION_MS = 250;

/** `POST /api/chat/question`: the description's payload. A question must be non-empty (section 5). */
export const ChatQuestionRequestSchema = z.object({
  question: text({ error: 'required' })
    .trim()
    .min(1, { error: 'required', abort: true })
    .max(CHAT_QUESTION_MAX_LENGTH, 'tooLong'),
  labels: z
    .array(z.enum(CHAT_HELP_LABELS, { error: 'oneOf' }), { error: 'required' })
    .max(CHAT_HELP_LABELS.length, 'tooBig')
    .default([...CHAT_HELP_LABELS]),
  /** The conversation to continue; absent or null starts a new one. */
  conversationId: z.uuid({ error: 'uuid' }).nullish(),
});
export type ChatQuestionRequest = z.infer<typeof ChatQuestionRequestSchema>;

/** A help article an answer rests on: `url` opens the help dialog at that article. */
export const ChatSourceSchema = z.object({
  articleId: z.string(),
  title: z.string(),
  url: z.string(),
});
export type ChatSource = z.infer<typeof ChatSourceSchema>;

/** The description's answer, with `sources` added (issue 15) and whether anything relevant was found. */
export const ChatAnswerSchema = z.object({
  conversationId: z.uuid(),
  response: z.string(),
  responseMessageId: z.uuid(),
  sources: z.array(ChatSourceSchema),
  /** False when no article answered the question: the response says so instead of guessing. */
  answered: z.boolean(),
});
export type ChatAnswer = z.infer<typeof ChatAnswerSchema>;

/** `POST /api/chat/feedback`: one per answer, by the conversation's owner; answered with text. */
export const ChatFeedbackRequestSchema = z.object({
  messageId: z.uuid({ error: 'uuid' }),
  isPositive: z.boolean({ error: 'boolean' }),
  comment: text().trim().max(CHAT_COMMENT_MAX_LENGTH, 'tooLong').optional(),
});
export type ChatFeedbackRequest = z.infer<typeof ChatFeedbackRequestSchema>;

/**
 * `POST /api/chat/explain`: "Explain" beside a finding (Document validation screen, a document in Error). The
 * finding as the screen shows it; the answer says what is wrong, how to fix it, and links the finding's article.
 */
export const ChatExplainRequestSchema = z.object({
  finding: z.object({
    code: text().trim().min(1, 'required').max(100, 'tooLong'),
    severity: EdifactSeveritySchema.optional(),
    level: EdifactLevelSchema.optional(),
    path: text().max(200, 'tooLong').optional(),
    fieldName: text().max(200, 'tooLong').optional(),
    expected: text().max(200, 'tooLong').optional(),
    actual: text().max(200, 'tooLong').optional(),
    line: z.number().int().min(0).optional(),
    column: z.number().int().min(0).optional(),
    params: z
      .record(text().max(50, 'tooLong'), z.union([text().max(200, 'tooLong'), z.number()]))
      .refine((p) => Object.keys(p).length <= 20, 'tooBig')
      .optional(),
  }),
  language: z.enum(LANGUAGES, { error: 'oneOf' }).optional(),
  conversationId: z.uuid({ error: 'uuid' }).nullish(),
});
export type ChatExplainRequest = z.infer<typeof ChatExplainRequestSchema>;

/** The admin area's list of questions asked (issue 15: improve the help where users got nothing). */
export const AdminChatQuerySchema = ListQuerySchema.extend({
  feedback: z.enum(['negative', 'positive', 'none'], { error: 'oneOf' }).optional(),
  /** `true`: only the answers that found no article. */
  unanswered: z
    .enum(['true', 'false'], { error: 'boolean' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
});
export type AdminChatQuery = z.infer<typeof AdminChatQuerySchema>;

export const AdminChatItemSchema = z.object({
  messageId: z.uuid(),
  conversationId: z.uuid(),
  askedAt: z.string(),
  userEmail: z.string().nullable(),
  companyName: z.string().nullable(),
  question: z.string(),
  response: z.string(),
  answered: z.boolean(),
  model: z.string().nullable(),
  sources: z.array(ChatSourceSchema),
  feedback: z.object({ isPositive: z.boolean(), comment: z.string().nullable(), at: z.string() }).nullable(),
});
export type AdminChatItem = z.infer<typeof AdminChatItemSchema>;
export const AdminChatPageSchema = pageSchema(AdminChatItemSchema);
