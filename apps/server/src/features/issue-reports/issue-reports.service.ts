import {
  ISSUE_REPORT_FILE_TYPES,
  ISSUE_REPORT_MAX_TOTAL_BYTES,
  ISSUE_REPORT_STATUSES,
  issueReportFileExtension,
  type Page,
  type IssuePriority,
  type IssueReport,
  type IssueReportFields,
  type IssueReportFileError,
  type IssueReportStatus,
  type IssueType,
} from '@portal/contracts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, takePage, timestampText, uuid } from '../../lib/keyset.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { emailTranslator, type MailService } from '../mail/mail.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { IssueReportFileMeta, IssueReportListRow, IssueReportsRepository } from './issue-reports.repository.ts';

export type IssueReportCaller = { userId: string; email: string; companyId: string | null };
/** The admin who changes a report. */
export type IssueReportAdmin = { userId: string; email: string; ip: string };
export type UploadedFile = { filename: string; data: Buffer };
export type IssueReportsService = ReturnType<typeof createIssueReportsService>;

const startsWith = (data: Buffer, bytes: readonly number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Magic bytes of the binary kinds; a file must start with one of its kind's signatures. */
const SIGNATURES: Partial<Record<keyof typeof ISSUE_REPORT_FILE_TYPES, (data: Buffer) => boolean>> = {
  // The header may follow some junk within the first KiB (ISO 32000-1, 7.5.2 and its implementation notes).
  pdf: (d) => d.subarray(0, 1024).includes('%PDF-'),
  png: (d) => startsWith(d, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpg: (d) => startsWith(d, [0xff, 0xd8, 0xff]),
  jpeg: (d) => startsWith(d, [0xff, 0xd8, 0xff]),
  gif: (d) => startsWith(d, ascii('GIF87a')) || startsWith(d, ascii('GIF89a')),
  webp: (d) => startsWith(d, ascii('RIFF')) && startsWith(d, ascii('WEBP'), 8),
  // Local file header, or the end record of an empty archive.
  zip: (d) => startsWith(d, [0x50, 0x4b, 0x03, 0x04]) || startsWith(d, [0x50, 0x4b, 0x05, 0x06]),
};

/** Text kinds: no NUL byte (binary content under a text name), unless a UTF-16 byte order mark says why. */
function looksLikeText(data: Buffer): boolean {
  if (startsWith(data, [0xff, 0xfe]) || startsWith(data, [0xfe, 0xff])) return true;
  return !data.includes(0);
}

/** The name as stored and mailed: no path, no control characters, at most 200 characters, extension kept. */
export function cleanFilename(name: string): string {
  const base = [...(name.split(/[\\/]/).pop() ?? '').normalize('NFC')]
    .filter((c) => c !== '"' && c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim();
  // Counted in code points: a cut between the halves of a surrogate pair would leave a string the database refuses.
  const chars = [...base];
  if (chars.length <= 200) return base;
  const dot = chars.lastIndexOf('.');
  const ext = dot > 0 && chars.length - dot <= 10 ? chars.slice(dot) : [];
  return [...chars.slice(0, 200 - ext.length), ...ext].join('');
}

/** Decides whether an attachment is accepted and the content type it is kept as; the sender's claim is ignored. */
export function classifyAttachment(
  filename: string,
  data: Buffer,
): { contentType: string } | { error: IssueReportFileError } {
  const ext = issueReportFileExtension(filename);
  if (!ext) return { error: 'fileType' };
  if (data.length === 0) return { error: 'fileEmpty' };
  const signature = SIGNATURES[ext];
  const ok = signature ? signature(data) : looksLikeText(data);
  return ok ? { contentType: ISSUE_REPORT_FILE_TYPES[ext] } : { error: 'fileType' };
}

const isIssueType = (v: string): v is IssueType => v === 'technical' || v === 'consultation';
const isIssuePriority = (v: string): v is IssuePriority => v === 'critical' || v === 'minor';
const isIssueReportStatus = (v: string): v is IssueReportStatus =>
  (ISSUE_REPORT_STATUSES as readonly string[]).includes(v);

function toReport(row: IssueReportListRow, files: IssueReportFileMeta[]): IssueReport {
  return {
    id: row.id,
    type: isIssueType(row.type) ? row.type : 'technical',
    priority: isIssuePriority(row.priority) ? row.priority : 'minor',
    subject: row.subject,
    description: row.description,
    status: isIssueReportStatus(row.status) ? row.status : 'new',
    createdAt: row.createdAt.toISOString(),
    company: row.companyId && row.companyName ? { id: row.companyId, name: row.companyName } : null,
    user:
      row.userId && row.userEmail
        ? { id: row.userId, email: row.userEmail, firstName: row.userFirstName ?? '', lastName: row.userLastName ?? '' }
        : null,
    files: files.map((f) => ({ id: f.id, filename: f.filename, contentType: f.contentType, size: f.size })),
  };
}

/** "Report an issue": stored with its files, e-mailed to support with the files attached, listed for admins. */
export function createIssueReportsService(deps: {
  repo: IssueReportsRepository;
  users: UsersService;
  mail: MailService;
  audit: AuditService;
  clock: Clock;
  supportEmail: string;
}) {
  const { repo, clock } = deps;
  return {
    /** Files are already checked one by one (classifyAttachment); this checks them together and stores the report. */
    async submit(
      caller: IssueReportCaller,
      fields: IssueReportFields,
      uploads: UploadedFile[],
    ): Promise<{ id: string }> {
      const files = uploads.map((u) => {
        const verdict = classifyAttachment(u.filename, u.data);
        if ('error' in verdict) {
          throw new AppError('validation.failed', {
            details: [{ field: 'files', code: verdict.error, params: { name: u.filename } }],
          });
        }
        return { filename: u.filename, contentType: verdict.contentType, data: u.data };
      });
      if (files.reduce((sum, f) => sum + f.data.length, 0) > ISSUE_REPORT_MAX_TOTAL_BYTES) {
        throw new AppError('validation.failed', {
          details: [{ field: 'files', code: 'totalTooLarge', params: { max: ISSUE_REPORT_MAX_TOTAL_BYTES } }],
        });
      }
      const now = clock.now();
      const report = await repo.create(
        { companyId: caller.companyId, userId: caller.userId, ...fields, status: 'new', createdAt: now },
        files,
      );
      const who = await deps.users.findWithCompanyName(caller.userId);
      // Support reads English; the reporter's own language is not known to be theirs.
      const t = emailTranslator('en');
      const name = who ? `${who.firstName} ${who.lastName}`.trim() : caller.email;
      const text = [
        t('issueReport.body', {
          name,
          email: caller.email,
          company: who?.companyName ?? '-',
          type: fields.type,
          priority: fields.priority,
          description: fields.description,
        }),
        '',
        `Report: ${report.id}`,
        ...(files.length ? ['', ...files.map((f) => `- ${f.filename} (${f.contentType}, ${f.data.length} B)`)] : []),
      ].join('\n');
      await deps.mail.send({
        kind: 'issue_report',
        to: deps.supportEmail,
        subject: t('issueReport.subject', { subject: fields.subject }),
        text,
        language: 'en',
        attachments: files.map((f) => ({ filename: f.filename, content: f.data, contentType: f.contentType })),
      });
      await deps.audit.record({
        event: 'issue_report.submitted',
        actorUserId: caller.userId,
        subjectUserId: caller.userId,
        companyId: caller.companyId,
        login: caller.email,
        details: { reportId: report.id, type: fields.type, priority: fields.priority, files: files.length },
      });
      return { id: report.id };
    },

    /** Newest first; the cursor is opaque to the client (created_at as stored, id). */
    async list(query: {
      type?: string | undefined;
      priority?: string | undefined;
      companyId?: string | undefined;
      cursor?: string | undefined;
      limit: number;
    }): Promise<Page<IssueReport>> {
      const rows = await repo.list({ ...query, after: decodeCursor(query.cursor, [timestampText, uuid]) });
      const page = takePage(rows, query.limit, (r) => [r.cursorAt, r.id]);
      const files = await repo.filesOf(page.rows.map((r) => r.id));
      return {
        items: page.rows.map((r) =>
          toReport(
            r,
            files.filter((f) => f.reportId === r.id),
          ),
        ),
        nextCursor: page.nextCursor,
      };
    },

    /** Admins move a report along; each change is in the audit log with the status before and after. */
    async setStatus(admin: IssueReportAdmin, id: string, status: IssueReportStatus): Promise<IssueReport> {
      const before = await repo.find(id);
      if (!before) throw notFound();
      if (before.status !== status) {
        await repo.setStatus(id, status);
        await deps.audit.record({
          event: 'issue_report.status_changed',
          actorUserId: admin.userId,
          companyId: before.companyId,
          login: admin.email,
          ip: admin.ip,
          details: { reportId: id, before: before.status, after: status },
        });
      }
      const after = await repo.find(id);
      if (!after) throw notFound();
      return toReport(after, await repo.filesOf([id]));
    },

    async getFile(reportId: string, fileId: string) {
      const file = await repo.findFile(reportId, fileId);
      if (!file) throw notFound();
      return file;
    },
  };
}
