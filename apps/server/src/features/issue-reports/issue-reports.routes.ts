import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import {
  AdminIssueReportPageSchema,
  AdminIssueReportsQuerySchema,
  CreateIssueReportResponseSchema,
  ISSUE_DESCRIPTION_MAX_LENGTH,
  ISSUE_REPORT_MAX_BODY_BYTES,
  ISSUE_REPORT_MAX_FILE_BYTES,
  ISSUE_REPORT_MAX_FILES,
  ISSUE_REPORT_MAX_TOTAL_BYTES,
  IdParamsSchema,
  IssueReportFieldsSchema,
  IssueReportFormSchema,
  IssueReportFileParamsSchema,
  IssueReportSchema,
  UpdateIssueReportRequestSchema,
  type ErrorDetail,
  type IssueReportFields,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { documentedBody } from '../../lib/openapi.ts';
import type { Clock } from '../../lib/clock.ts';
import { principalOf, requirePermission, requireRole } from '../../plugins/auth.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { MailService } from '../mail/mail.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { createIssueReportsRepository } from './issue-reports.repository.ts';
import {
  classifyAttachment,
  cleanFilename,
  createIssueReportsService,
  type UploadedFile,
} from './issue-reports.service.ts';

const tags = ['issue-reports'];
/** Hard cap on file parts read at all; beyond ISSUE_REPORT_MAX_FILES they are only counted. */
const FILE_PARTS_CAP = 50;

type MultipartLimitError = Error & { code?: string };

/** What the multipart parser threw: the client's form is broken or over a limit, unlike an error of our own code. */
class FormReadError extends Error {
  constructor(readonly reason: MultipartLimitError) {
    super(reason.message);
  }
}

/** The parser's items, with whatever it throws (no boundary, a truncated body, a bad header) marked as its own. */
async function* fromParser<T>(source: () => AsyncIterable<T>): AsyncGenerator<T> {
  const asOwn = (error: unknown) => new FormReadError(error instanceof Error ? error : new Error(String(error)));
  let iterator: AsyncIterator<T>;
  try {
    iterator = source()[Symbol.asyncIterator]();
  } catch (error) {
    throw asOwn(error);
  }
  for (;;) {
    let step: IteratorResult<T>;
    try {
      step = await iterator.next();
    } catch (error) {
      throw asOwn(error);
    }
    if (step.done) return;
    yield step.value;
  }
}

/**
 * Reads the form: the text fields and the files, checking each file as it arrives. Oversized files are cut off by
 * the parser and reported; the bytes past the total limit are read but not kept.
 */
async function readForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; files: UploadedFile[]; problems: ErrorDetail[] }> {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const problems: ErrorDetail[] = [];
  let fileCount = 0;
  let total = 0;
  const problem = (code: string, params?: Record<string, string | number>) => {
    if (!problems.some((p) => p.code === code && p.params?.name === params?.name))
      problems.push({ field: 'files', code, ...(params ? { params } : {}) });
  };
  try {
    const parts = fromParser(() =>
      request.parts({
        limits: {
          fileSize: ISSUE_REPORT_MAX_FILE_BYTES,
          files: FILE_PARTS_CAP,
          fields: 20,
          fieldSize: ISSUE_DESCRIPTION_MAX_LENGTH * 4 + 1024,
          parts: FILE_PARTS_CAP + 20,
        },
      }),
    );
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) problems.push({ field: part.fieldname, code: 'tooLong' });
        else if (!(part.fieldname in fields))
          fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of fromParser(() => part.file)) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        if (total + size <= ISSUE_REPORT_MAX_TOTAL_BYTES) chunks.push(bytes);
      }
      // A file input left empty still sends a part, without a name and without content.
      if (!part.filename && size === 0) continue;
      fileCount += 1;
      total += size;
      const name = cleanFilename(part.filename || '');
      if (fileCount > ISSUE_REPORT_MAX_FILES) {
        problem('tooManyFiles', { max: ISSUE_REPORT_MAX_FILES });
      } else if (part.file.truncated) {
        problem('fileTooLarge', { name, max: ISSUE_REPORT_MAX_FILE_BYTES });
      } else if (total > ISSUE_REPORT_MAX_TOTAL_BYTES) {
        problem('totalTooLarge', { max: ISSUE_REPORT_MAX_TOTAL_BYTES });
      } else {
        const data = Buffer.concat(chunks);
        const verdict = classifyAttachment(name, data);
        if ('error' in verdict) problem(verdict.error, { name });
        else files.push({ filename: name, data });
      }
    }
  } catch (error) {
    if (!(error instanceof FormReadError)) throw error;
    const code = error.reason.code;
    if (code === 'FST_FILES_LIMIT') problem('tooManyFiles', { max: ISSUE_REPORT_MAX_FILES });
    else if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new AppError('request.malformed', { message: 'Too many form parts' });
    else if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('request.unsupported_media_type');
    // Anything else the parser throws is a form it cannot read: a 400, not a failure of the server.
    else throw new AppError('request.malformed', { message: `Malformed multipart body: ${error.message}` });
  }
  return { fields, files, problems };
}

/** Report an issue (REPORT_ISSUE), and the admins' list of reports with their files. */
export function issueReportsRoutes(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  mail: MailService;
  users: UsersService;
  supportEmail: string;
  blobs: BlobStore;
}): FastifyPluginAsyncZod {
  const service = createIssueReportsService({
    repo: createIssueReportsRepository(deps.db, deps.blobs),
    users: deps.users,
    mail: deps.mail,
    audit: deps.audit,
    clock: deps.clock,
    supportEmail: deps.supportEmail,
  });
  return async (app) => {
    await app.register(async (scopeRaw) => {
      // The multipart parser lives in this scope only; every other route keeps rejecting multipart bodies.
      await scopeRaw.register(fastifyMultipart, { throwFileSizeLimit: false });
      const scope = scopeRaw.withTypeProvider<ZodTypeProvider>();
      scope.post('/issue-reports', {
        // Before the body is read: a caller without the permission uploads nothing.
        onRequest: requirePermission('REPORT_ISSUE'),
        config: documentedBody(['multipart/form-data'], IssueReportFormSchema),
        schema: {
          tags,
          summary: 'Report an issue (multipart/form-data)',
          description: [
            'A refused file is a 400 with field `files` and code fileTooLarge, fileType, fileEmpty, tooManyFiles or',
            `totalTooLarge; a body over ${ISSUE_REPORT_MAX_BODY_BYTES} bytes is a 413.`,
          ].join(' '),
          response: { 200: CreateIssueReportResponseSchema },
        },
        handler: async (request) => {
          const length = Number(request.headers['content-length'] ?? 0);
          if (length > ISSUE_REPORT_MAX_BODY_BYTES) {
            throw new AppError('request.too_large', { data: { maxBytes: ISSUE_REPORT_MAX_BODY_BYTES } });
          }
          if (!request.isMultipart()) throw new AppError('request.unsupported_media_type');
          const { fields, files, problems } = await readForm(request);
          const parsed = IssueReportFieldsSchema.safeParse(fields);
          const details: ErrorDetail[] = [
            ...(parsed.success
              ? []
              : parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', code: i.message }))),
            ...problems,
          ];
          if (details.length || !parsed.success)
            throw new AppError('validation.failed', { message: 'Invalid issue report', details });
          const p = principalOf(request);
          return service.submit(
            { userId: p.userId, email: p.email, companyId: p.companyId },
            parsed.data satisfies IssueReportFields,
            files,
          );
        },
      });
    });

    app.get('/admin/issue-reports', {
      onRequest: requireRole('admin'),
      schema: {
        tags: [...tags, 'admin', 'admin-logs'],
        summary: 'Issue reports, newest first, with their files (without content)',
        querystring: AdminIssueReportsQuerySchema,
        response: { 200: AdminIssueReportPageSchema },
      },
      handler: (request) => service.list(request.query),
    });

    app.patch('/admin/issue-reports/:id', {
      // Before the body is validated: a non-admin learns nothing about the input rules.
      onRequest: requireRole('admin'),
      schema: {
        tags: [...tags, 'admin', 'admin-logs'],
        summary: "Set a report's status (new, in_progress, resolved, closed); recorded in the audit log",
        params: IdParamsSchema,
        body: UpdateIssueReportRequestSchema,
        response: { 200: IssueReportSchema },
      },
      handler: (request) => {
        const p = principalOf(request);
        return service.setStatus(
          { userId: p.userId, email: p.email, ip: request.ip },
          request.params.id,
          request.body.status,
        );
      },
    });

    app.get('/admin/issue-reports/:id/files/:fileId', {
      onRequest: requireRole('admin'),
      schema: {
        tags: [...tags, 'admin', 'admin-logs'],
        summary: 'Download a file of an issue report',
        params: IssueReportFileParamsSchema,
        response: { 200: z.instanceof(Readable).describe('The file, as an attachment (streamed from the BlobStore)') },
      },
      handler: async (request, reply) => {
        const file = await service.getFile(request.params.id, request.params.fileId);
        return reply
          .type(file.contentType)
          .header('content-disposition', contentDisposition(file.filename))
          .header('cache-control', 'private, no-store')
          .send(file.data);
      },
    });
  };
}
