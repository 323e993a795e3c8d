import { z } from 'zod';
import { text } from './rules.ts';

/**
 * "Report an issue" (description, sections 2 and 9): type, priority, subject, description and attachments, sent as
 * multipart/form-data to `POST /api/issue-reports`.
 */

export const ISSUE_TYPES = ['technical', 'consultation'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];
export const ISSUE_PRIORITIES = ['critical', 'minor'] as const;
export type IssuePriority = (typeof ISSUE_PRIORITIES)[number];

/** Where support is with a report: `new` on receipt, then set by admins. */
export const ISSUE_REPORT_STATUSES = ['new', 'in_progress', 'resolved', 'closed'] as const;
export type IssueReportStatus = (typeof ISSUE_REPORT_STATUSES)[number];

export const ISSUE_SUBJECT_MAX_LENGTH = 200;
export const ISSUE_DESCRIPTION_MAX_LENGTH = 5000;

/** Attachment limits; the upload widget checks them before sending, the server again on receipt. */
export const ISSUE_REPORT_MAX_FILES = 5;
export const ISSUE_REPORT_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const ISSUE_REPORT_MAX_TOTAL_BYTES = 10 * 1024 * 1024;
/** Multipart framing and the text fields on top of the files; a larger request body is refused with 413. */
export const ISSUE_REPORT_MAX_BODY_BYTES = ISSUE_REPORT_MAX_TOTAL_BYTES + 256 * 1024;

/**
 * Accepted attachments by extension, with the content type they are stored, mailed and downloaded as (the
 * browser's claimed type is ignored). Binary kinds must also start with their format's magic bytes; text kinds
 * must not contain NUL bytes.
 */
export const ISSUE_REPORT_FILE_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain',
  csv: 'text/csv',
  xml: 'application/xml',
  json: 'application/json',
  edi: 'application/edifact',
  zip: 'application/zip',
} as const satisfies Record<string, string>;
export type IssueReportFileExtension = keyof typeof ISSUE_REPORT_FILE_TYPES;

/** For `<input type="file" accept>` and the drop zone. */
export const ISSUE_REPORT_ACCEPT = Object.keys(ISSUE_REPORT_FILE_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');

/** `details[].code` of a refused attachment (field `files`); `params` names the file and the limit. */
export const ISSUE_REPORT_FILE_ERRORS = [
  'fileTooLarge',
  'fileType',
  'fileEmpty',
  'tooManyFiles',
  'totalTooLarge',
] as const;
export type IssueReportFileError = (typeof ISSUE_REPORT_FILE_ERRORS)[number];

/** The extension of a file name, lower-cased, when it is one the form accepts. */
export function issueReportFileExtension(filename: string): IssueReportFileExtension | undefined {
  const match = /\.([a-z0-9]+)$/i.exec(filename.trim());
  const ext = match?.[1]?.toLowerCase();
  return ext && ext in ISSUE_REPORT_FILE_TYPES ? (ext as IssueReportFileExtension) : undefined;
}

/** The text fields of the form (the files travel beside them as `files` parts). */
export const IssueReportFieldsSchema = z.object({
  type: z.enum(ISSUE_TYPES, { error: 'oneOf' }),
  priority: z.enum(ISSUE_PRIORITIES, { error: 'oneOf' }),
  subject: text({ error: 'required' }).trim().min(1, 'required').max(ISSUE_SUBJECT_MAX_LENGTH, 'tooLong'),
  description: text({ error: 'required' }).trim().min(1, 'required').max(ISSUE_DESCRIPTION_MAX_LENGTH, 'tooLong'),
});
export type IssueReportFields = z.infer<typeof IssueReportFieldsSchema>;

/**
 * The whole multipart form as the API description shows it. The server reads the parts itself as they arrive
 * (IssueReportFieldsSchema for the text fields, ISSUE_REPORT_FILE_TYPES and the limits for the files).
 */
export const IssueReportFormSchema = IssueReportFieldsSchema.extend({
  files: z
    .array(
      z
        .file()
        .max(ISSUE_REPORT_MAX_FILE_BYTES)
        .describe(`${ISSUE_REPORT_ACCEPT}; at most ${ISSUE_REPORT_MAX_FILE_BYTES} bytes`),
    )
    .max(ISSUE_REPORT_MAX_FILES)
    .optional()
    .describe(`One part per file, all named \`files\`; together at most ${ISSUE_REPORT_MAX_TOTAL_BYTES} bytes`),
});

export const CreateIssueReportResponseSchema = z.object({ id: z.string() });
export type CreateIssueReportResponse = z.infer<typeof CreateIssueReportResponseSchema>;

export const IssueReportFileSchema = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
export type IssueReportFile = z.infer<typeof IssueReportFileSchema>;

/** A report as admins list it. */
export const IssueReportSchema = z.object({
  id: z.string(),
  type: z.enum(ISSUE_TYPES),
  priority: z.enum(ISSUE_PRIORITIES),
  subject: z.string(),
  description: z.string(),
  status: z.enum(ISSUE_REPORT_STATUSES),
  createdAt: z.string(),
  company: z.object({ id: z.string(), name: z.string() }).nullable(),
  user: z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  files: z.array(IssueReportFileSchema),
});
export type IssueReport = z.infer<typeof IssueReportSchema>;
