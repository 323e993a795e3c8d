import { z } from 'zod';
import {
  CHAT_HELP_LABELS,
  ChatAnswerSchema,
  EdifactLevelSchema,
  EdifactSeveritySchema,
  type ChatAnswer,
  type ChatExplainRequest,
  type ChatFeedbackRequest,
  type ChatHelpLabel,
  type Language,
} from '@portal/contracts';
import type { ApiClient, CallOptions } from '../../../lib/api-client.ts';
import { NETWORK_ERROR_STATUS } from '../../../lib/api-error.ts';

/**
 * A failed chat call is the chat's own 'Error' notification (description, section 8), not the client's
 * 'Error <code>' toast as well: the server statuses, and no answer at all, are handled here.
 */
const CHAT_CALL: CallOptions = { quietStatuses: [NETWORK_ERROR_STATUS, 500, 502, 503] };

/** The help labels, the user's language's first: Polish for Polish, English otherwise (description, section 7). */
export function helpLabels(language: string): ChatHelpLabel[] {
  const first: ChatHelpLabel = language.split('-')[0] === 'pl' ? 'portal-help-pl' : 'portal-help-en';
  return [first, ...CHAT_HELP_LABELS.filter((label) => label !== first)];
}

export function askQuestion(
  api: ApiClient,
  body: { question: string; language: string; conversationId: string | null },
): Promise<ChatAnswer> {
  return api.post(
    '/chat/question',
    ChatAnswerSchema,
    { question: body.question, labels: helpLabels(body.language), conversationId: body.conversationId },
    CHAT_CALL,
  );
}

/** Answered with text (description, section 7), which says nothing the screen needs. */
export async function sendFeedback(api: ApiClient, body: ChatFeedbackRequest): Promise<void> {
  await api.post('/chat/feedback', z.unknown(), body, CHAT_CALL);
}

export function explainFinding(api: ApiClient, body: ChatExplainRequest): Promise<ChatAnswer> {
  return api.post('/chat/explain', ChatAnswerSchema, body, CHAT_CALL);
}

/** A finding as the Document validation screen or a stored document has it. */
export type FindingToExplain = {
  code: string;
  severity?: string | undefined;
  level?: string | undefined;
  path?: string | undefined;
  fieldName?: string | undefined;
  expected?: string | undefined;
  actual?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  params?: Record<string, string | number> | undefined;
};

const TEXT_MAX = 200;
const PARAMS_MAX = 20;
const clip = (value: string | undefined) => (value === undefined ? undefined : value.slice(0, TEXT_MAX));
const position = (value: number | undefined) =>
  value !== undefined && Number.isInteger(value) && value >= 0 ? value : undefined;

/**
 * The finding as `POST /api/chat/explain` takes it: the fields the contract knows, each within its limit (a long
 * value or code list is cut, not refused), a severity or level the contract does not know left out.
 */
export function explainRequestFinding(finding: FindingToExplain): ChatExplainRequest['finding'] {
  const severity = EdifactSeveritySchema.safeParse(finding.severity);
  const level = EdifactLevelSchema.safeParse(finding.level);
  const params = finding.params
    ? Object.fromEntries(
        Object.entries(finding.params)
          .slice(0, PARAMS_MAX)
          .map(([key, value]) => [key.slice(0, 50), typeof value === 'string' ? value.slice(0, TEXT_MAX) : value]),
      )
    : undefined;
  const entries = {
    code: finding.code.slice(0, 100),
    severity: severity.success ? severity.data : undefined,
    level: level.success ? level.data : undefined,
    path: clip(finding.path),
    fieldName: clip(finding.fieldName),
    expected: clip(finding.expected),
    actual: clip(finding.actual),
    line: position(finding.line),
    column: position(finding.column),
    params,
  };
  // Absent rather than undefined, so the request shows only what the finding has.
  return Object.fromEntries(
    Object.entries(entries).filter(([, value]) => value !== undefined),
  ) as ChatExplainRequest['finding'];
}

export type ExplainBody = { finding: FindingToExplain; language: Language; conversationId: string | null };

export function explainBody({ finding, language, conversationId }: ExplainBody): ChatExplainRequest {
  return { finding: explainRequestFinding(finding), language, conversationId };
}
