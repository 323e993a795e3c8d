/**
 * The help articles (description, section 2: the /help dialog; issue 15: the source the AI assistant answers from).
 * Stable ids: title, summary and keywords per language in `packages/i18n/locales/<lang>/help.json` under
 * `articles.<id>`, the full bodies in `packages/i18n/help/<lang>.json` (English and Polish).
 */

/** Finding articles are named `finding-<code>`, the code exactly as the engine or the document store gives it. */
export const FINDING_ARTICLE_PREFIX = 'finding-';

/**
 * The finding codes that have an article: the EDIFACT engine's catalogue (`FINDING_CODES` of `@portal/edifact`) and
 * the document store's own codes. The help tests check the list against the texts the screens show for each code.
 */
export const HELP_FINDING_CODES = [
  'EDI_MISSING_UNH',
  'EDI_MISSING_UNT',
  'EDI_MISSING_UNZ',
  'EDI_UNT_COUNT_MISMATCH',
  'EDI_UNT_REFERENCE_MISMATCH',
  'EDI_UNE_COUNT_MISMATCH',
  'EDI_UNE_REFERENCE_MISMATCH',
  'EDI_UNZ_COUNT_MISMATCH',
  'EDI_UNZ_REFERENCE_MISMATCH',
  'EDI_UNEXPECTED_END_OF_FILE',
  'EDI_UNEXPECTED_CHARACTER',
  'EDI_UNEXPECTED_SEPARATOR',
  'EDI_INVALID_CHARACTER',
  'EDI_UNSUPPORTED_SYNTAX',
  'EDI_INVALID_RELEASE',
  'EDI_INVALID_SEGMENT_TAG',
  'EDI_INVALID_SERVICE_STRING',
  'EDI_MISSING_UNB',
  'EDI_MISSING_UNE',
  'EDI_MISSING_UNG',
  'EDI_MISSING_UNP',
  'EDI_MIXED_GROUPS_AND_MESSAGES',
  'EDI_DUPLICATE_MESSAGE_REFERENCE',
  'EDI_DUPLICATE_GROUP_REFERENCE',
  'EDI_INTERNAL_ERROR',
  'EDI_BYTE_ORDER_MARK',
  'EDI_WHITESPACE_BETWEEN_SEGMENTS',
  'EDI_MANDATORY_ELEMENT_MISSING',
  'EDI_MANDATORY_COMPONENT_MISSING',
  'EDI_TOO_MANY_ELEMENTS',
  'EDI_TOO_MANY_COMPONENTS',
  'EDI_INVALID_FORMAT',
  'EDI_TOO_MANY_REPETITIONS',
  'EDI_UNSUPPORTED_MESSAGE',
  'EDI_UNKNOWN_SEGMENT',
  'EDI_UNEXPECTED_SEGMENT',
  'EDI_MANDATORY_SEGMENT_MISSING',
  'EDI_TOO_MANY_OCCURRENCES',
  'EDI_INVALID_CODE',
  'EDI_INVALID_DATE_TIME',
  'EDI_FORBIDDEN_SEGMENT',
  'EDI_TOO_FEW_OCCURRENCES',
  'EDI_FORBIDDEN_ELEMENT',
  'EDI_FORBIDDEN_COMPONENT',
  'EDI_REQUIRED_QUALIFIER_MISSING',
  'duplicate_document',
  'duplicate_interchange',
  'processing_limit',
] as const;
export type HelpFindingCode = (typeof HELP_FINDING_CODES)[number];

type FindingArticleId = `${typeof FINDING_ARTICLE_PREFIX}${HelpFindingCode}`;

/** The article of a finding code: `finding-EDI_MISSING_UNH`, `finding-duplicate_document`. */
export function findingArticleId(code: HelpFindingCode): FindingArticleId;
export function findingArticleId(code: string): string;
export function findingArticleId(code: string): string {
  return `${FINDING_ARTICLE_PREFIX}${code}`;
}

/** The screens and areas of the portal. */
const SCREEN_ARTICLE_IDS = [
  'sign-in',
  'navigation',
  'profile',
  'company-settings',
  'api-keys',
  'user-management',
  'partners',
  'address-book',
  'products',
  'document-validation',
  'e-invoicing',
  'ettn',
  'admin-area',
  'report-issue',
  'contact',
] as const;

/** The documents of the inbox and the outbox, their statuses, writing and answering them, and what to do about each. */
const DOCUMENT_ARTICLE_IDS = [
  'inbox-outbox',
  'document-list',
  'uploading-files',
  'document-view',
  'document-statuses',
  'business-statuses',
  'writing-documents',
  'answering-documents',
  'demo-documents',
] as const;

/** The overview of findings, then one article per finding code. */
const FINDING_ARTICLE_IDS = ['edifact-findings', ...HELP_FINDING_CODES.map((code) => findingArticleId(code))] as const;

/** Every help article, in the order the help dialog lists them. */
export const HELP_ARTICLE_IDS = [...SCREEN_ARTICLE_IDS, ...DOCUMENT_ARTICLE_IDS, ...FINDING_ARTICLE_IDS] as const;
export type HelpArticleId =
  (typeof SCREEN_ARTICLE_IDS)[number] | (typeof DOCUMENT_ARTICLE_IDS)[number] | 'edifact-findings' | FindingArticleId;

/** The groups the help dialog can list the articles under (titles in `help.json` under `groups.<group>`). */
export const HELP_GROUPS = ['screens', 'documents', 'findings'] as const;
export type HelpGroup = (typeof HELP_GROUPS)[number];

/** Each article's group. */
export const HELP_ARTICLE_GROUPS: Readonly<Record<HelpArticleId, HelpGroup>> = Object.fromEntries([
  ...SCREEN_ARTICLE_IDS.map((id) => [id, 'screens']),
  ...DOCUMENT_ARTICLE_IDS.map((id) => [id, 'documents']),
  ...FINDING_ARTICLE_IDS.map((id) => [id, 'findings']),
]) as Record<HelpArticleId, HelpGroup>;

/** Whether `id` is a help article's id. */
export const isHelpArticleId = (id: string): id is HelpArticleId => Object.hasOwn(HELP_ARTICLE_GROUPS, id);
