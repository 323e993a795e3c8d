import { z } from 'zod';
import { DOCUMENT_DIRECTIONS } from './documents.ts';
import { ListQuerySchema, pageSchema } from './lists.ts';
import { text } from './rules.ts';

/**
 * Company API keys (issue 11, part 2; docs/decisions/0023-company-api-keys.md): machines (an ERP, a transport) send
 * interchanges to `POST /api/documents/inbound` with one. A key is shown once, when it is created; the server keeps
 * its SHA-256 and its first characters (the prefix) to find it and to tell keys apart in the list.
 */

/** Every key starts with this, so a leaked one is recognised (secret scanners, logs). */
export const API_KEY_PREFIX = 'edi_';
/** The characters of a key kept and shown in the list: `edi_` and eight of its random part. */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 8;
/** `edi_` and 32 random bytes in base64url (43 characters). */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + 43;
/** The most keys a company may hold that are not revoked. */
export const API_KEYS_MAX_ACTIVE = 20;
export const API_KEY_NAME_MAX = 100;

export const ApiKeyCreateRequestSchema = z.object({
  name: text({ error: 'required' }).trim().min(1, 'required').max(API_KEY_NAME_MAX, 'tooLong'),
});
export type ApiKeyCreateRequest = z.input<typeof ApiKeyCreateRequestSchema>;

/** A key as the list shows it: never its secret. */
export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters (`edi_` and eight more), to tell it apart from the others. */
  prefix: z.string(),
  createdAt: z.string(),
  /** The e-mail of the user who created it (null once that user is gone). */
  createdBy: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** The answer to creating a key: the key and, this once, its secret. */
export const ApiKeyCreatedSchema = ApiKeySchema.extend({ secret: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/** Newest first, revoked keys included. */
export const ApiKeysQuerySchema = ListQuerySchema;
export const ApiKeyPageSchema = pageSchema(ApiKeySchema);
export type ApiKeyPage = z.infer<typeof ApiKeyPageSchema>;

/**
 * `POST /api/documents/inbound`: `direction=out` (the default) is an interchange the company sends (its ERP's
 * outgoing file), `in` one it received elsewhere (a transport's delivery). `fileName` names it in the lists and
 * downloads.
 */
export const InboundDocumentQuerySchema = z.object({
  direction: z.enum(DOCUMENT_DIRECTIONS, { error: 'oneOf' }).default('out'),
  fileName: text().trim().min(1, 'required').max(255, 'tooLong').optional(),
});
export type InboundDocumentQuery = z.infer<typeof InboundDocumentQuerySchema>;

/**
 * The largest body of `POST /api/documents/inbound`: five times the browser's upload, since it is read as a stream
 * into the BlobStore and ingested in batches by the job (decision 0024), never held whole in memory.
 */
export const INBOUND_MAX_BYTES = 100 * 1024 * 1024;

/** The media types the inbound endpoint reads as the raw interchange. */
export const INBOUND_CONTENT_TYPES = ['application/edifact', 'text/plain', 'application/octet-stream'] as const;
