import { z } from 'zod';
import { text } from './rules.ts';

/** Largest EDIFACT text the validation screen and API accept (issue: "Input up to 10 MB"). */
export const EDIFACT_MAX_BYTES = 10 * 1024 * 1024;
/** Largest UNECE directory zip an admin may upload. */
export const EDIFACT_DIRECTORY_ZIP_MAX_BYTES = 64 * 1024 * 1024;
/** The body of a directory upload: the zip itself, as UNECE publishes it (not a form). */
export const EdifactDirectoryZipSchema = z
  .file()
  .max(EDIFACT_DIRECTORY_ZIP_MAX_BYTES)
  .describe(`A UNECE directory zip, at most ${EDIFACT_DIRECTORY_ZIP_MAX_BYTES} bytes`);
/** At most this many findings are returned; the counts always cover all of them. */
export const EDIFACT_MAX_FINDINGS_RETURNED = 5000;

export const ValidateEdifactRequestSchema = z.object({
  /**
   * Not `text()`: this is data for the engine, which reports any character outside the syntax level's set with its
   * position (more use than a 400), and the portal does not store it as text.
   */
  content: z.string({ error: 'required' }).min(1, 'required'),
  strict: z.boolean().optional(),
});
export type ValidateEdifactRequest = z.infer<typeof ValidateEdifactRequestSchema>;

export const EdifactSeveritySchema = z.enum(['error', 'warning', 'info']);
export const EdifactLevelSchema = z.enum(['syntax', 'specification', 'map']);
export type EdifactLevel = z.infer<typeof EdifactLevelSchema>;

export const EdifactFindingSchema = z.object({
  code: z.string(),
  severity: EdifactSeveritySchema,
  level: EdifactLevelSchema,
  path: z.string(),
  fieldName: z.string().optional(),
  messageType: z.string().optional(),
  version: z.string().optional(),
  documentNumber: z.string().optional(),
  messageReference: z.string().optional(),
  line: z.number().int(),
  column: z.number().int(),
  offset: z.number().int(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type EdifactFinding = z.infer<typeof EdifactFindingSchema>;

export const EdifactMessageSummarySchema = z.object({
  reference: z.string(),
  type: z.string(),
  version: z.string(),
  association: z.string().optional(),
  documentNumber: z.string(),
  line: z.number().int(),
  status: z.enum(['valid', 'warning', 'error']),
});

export const ValidateEdifactResponseSchema = z.object({
  ok: z.boolean(),
  messages: z.array(EdifactMessageSummarySchema),
  findings: z.array(EdifactFindingSchema),
  summary: z.object({
    errors: z.number().int(),
    warnings: z.number().int(),
    /** The level whose errors decide the notification: map, else specification (syntax errors count here), else none. */
    errorLevel: z.enum(['specification', 'map']).nullable(),
    truncated: z.boolean(),
  }),
});
export type ValidateEdifactResponse = z.infer<typeof ValidateEdifactResponseSchema>;

/** `POST /api/validation/edifact/contrl`: the CONTRL message, as EDIFACT text. */
export const ContrlReportSchema = z.string();

export const EdifactDirectoryInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  release: z.string(),
  agency: z.string(),
  messages: z.number().int(),
  segments: z.number().int(),
  composites: z.number().int(),
  elements: z.number().int(),
  codeLists: z.number().int(),
  importedAt: z.string().optional(),
  source: z.string().optional(),
});
export type EdifactDirectoryInfo = z.infer<typeof EdifactDirectoryInfoSchema>;
/** `GET /api/admin/edifact/directories`: the imported directories. */
export const EdifactDirectoriesResponseSchema = z.object({ directories: z.array(EdifactDirectoryInfoSchema) });
/** Query of `POST /api/admin/edifact/directories`: the zip's file name, kept as the directory's source. */
export const EdifactDirectoryUploadQuerySchema = z.object({ filename: text().max(200, 'tooLong').optional() });
export const DownloadDirectoryRequestSchema = z.object({
  name: text().regex(/^D\d\d[A-Z]$/i, 'directoryName'),
});
