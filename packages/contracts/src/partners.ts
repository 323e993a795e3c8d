import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { DOCUMENT_TYPE_CODES, DocumentTypeCodeSchema } from './documents.ts';
import { IncludeTotalSchema, ListQuerySchema, ListSearchSchema, pageSchema } from './lists.ts';
import { isCountryCode, TELEPHONE_PATTERN } from './profile.ts';
import { clearableText, EMAIL_PATTERN, GlnSchema, text } from './rules.ts';

/**
 * Trading partners (issue 10, part 2): a company's trading relationship with another party, identified by GLN. The
 * party is another company on the platform (linked; its name follows that company's) or a party off the platform.
 */

/** `new`: created by a document from or to an unknown GLN, not yet looked at; `blocked`: exchange refused. */
export const PARTNER_STATUSES = ['active', 'new', 'blocked'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

/** When a recipient gets a message: a document from the partner arrived; a document to or from it failed. */
export const PARTNER_EVENTS = ['received', 'failed'] as const;
export type PartnerEvent = (typeof PARTNER_EVENTS)[number];

/** The EANCOM directory of what is sent to a partner: D96A is EANCOM 97, D01B EANCOM 2002. */
export const EANCOM_DIRECTORIES = ['D96A', 'D01B'] as const;
export type EancomDirectory = (typeof EANCOM_DIRECTORIES)[number];

/**
 * UNB S001 0001, the character repertoire a partner reads (ISO 9735): UNOA and UNOB are ISO 646 subsets, UNOC is
 * ISO 8859-1, UNOD ISO 8859-2 (the one with Polish letters).
 */
export const SYNTAX_IDENTIFIERS = ['UNOA', 'UNOB', 'UNOC', 'UNOD'] as const;
export type SyntaxIdentifier = (typeof SYNTAX_IDENTIFIERS)[number];

/** How documents written in the portal are sent to a partner, when nobody chose otherwise. */
export const PARTNER_SENDING_DEFAULTS = {
  edifactDirectory: 'D96A',
  syntaxIdentifier: 'UNOC',
  una: false,
} as const satisfies { edifactDirectory: EancomDirectory; syntaxIdentifier: SyntaxIdentifier; una: boolean };

/** At most this many notification recipients per partner. */
export const PARTNER_NOTIFICATIONS_MAX = 20;

const DocTypesSchema = z
  .array(DocumentTypeCodeSchema)
  .max(DOCUMENT_TYPE_CODES.length, 'tooBig')
  .default([])
  .transform((codes) => [...new Set(codes)]);

/** The fields a company edits of a partner (the GLN is the partner's identity and is set once, at creation). */
const PartnerFieldsSchema = z.object({
  /** Required for a party off the platform; a linked partner carries its company's name and ignores this. */
  name: clearableText(200),
  vatId: clearableText(32).refine((v) => !v || /^[A-Za-z0-9 .\-/]+$/.test(v), 'pattern'),
  country: clearableText(2)
    .transform((v) => (v ? v.toUpperCase() : null))
    .refine((v) => !v || isCountryCode(v), 'country'),
  contactName: clearableText(200),
  contactEmail: clearableText(254).refine((v) => !v || EMAIL_PATTERN.test(v), 'email'),
  contactPhone: clearableText(40).refine((v) => !v || TELEPHONE_PATTERN.test(v), 'telephone'),
  status: z.enum(PARTNER_STATUSES, { error: 'oneOf' }).default('active'),
  testMode: z.boolean({ error: 'boolean' }).default(false),
  /** How the portal's documents are sent to the partner: the EANCOM directory, the character set, the UNA. */
  edifactDirectory: z.enum(EANCOM_DIRECTORIES, { error: 'oneOf' }).default(PARTNER_SENDING_DEFAULTS.edifactDirectory),
  syntaxIdentifier: z.enum(SYNTAX_IDENTIFIERS, { error: 'oneOf' }).default(PARTNER_SENDING_DEFAULTS.syntaxIdentifier),
  /** Whether the interchange starts with the UNA service string advice. */
  una: z.boolean({ error: 'boolean' }).default(PARTNER_SENDING_DEFAULTS.una),
  /** Document types the company receives from the partner. */
  docTypesIn: DocTypesSchema,
  /** Document types the company sends to the partner. */
  docTypesOut: DocTypesSchema,
});

export const CreatePartnerRequestSchema = PartnerFieldsSchema.extend({ gln: GlnSchema });
export type CreatePartnerRequest = z.input<typeof CreatePartnerRequestSchema>;
export type CreatePartnerValues = z.output<typeof CreatePartnerRequestSchema>;

export const UpdatePartnerRequestSchema = PartnerFieldsSchema;
export type UpdatePartnerRequest = z.input<typeof UpdatePartnerRequestSchema>;
export type UpdatePartnerValues = z.output<typeof UpdatePartnerRequestSchema>;

/** One recipient of a partner's notifications: the address, the language of its messages, the events it gets. */
export const PartnerNotificationSchema = z.object({
  email: text({ error: 'required' })
    .trim()
    .min(1, 'required')
    .max(254, 'tooLong')
    .refine((v) => EMAIL_PATTERN.test(v), 'email')
    .transform((v) => v.toLowerCase()),
  language: LanguageSchema,
  events: z
    .array(z.enum(PARTNER_EVENTS, { error: 'oneOf' }))
    .min(1, 'required')
    .max(PARTNER_EVENTS.length, 'tooBig')
    .transform((events) => [...new Set(events)]),
});
export type PartnerNotification = z.output<typeof PartnerNotificationSchema>;

export const PartnerNotificationsRequestSchema = z.object({
  notifications: z
    .array(PartnerNotificationSchema)
    .max(PARTNER_NOTIFICATIONS_MAX, 'tooBig')
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((n, i) => {
        if (seen.has(n.email)) ctx.addIssue({ code: 'custom', path: [i, 'email'], message: 'duplicate' });
        seen.add(n.email);
      });
    }),
});
export type PartnerNotificationsRequest = z.input<typeof PartnerNotificationsRequestSchema>;
export type PartnerNotificationsValues = z.output<typeof PartnerNotificationsRequestSchema>;

export const PartnerSchema = z.object({
  id: z.string(),
  gln: z.string(),
  /** The linked company's name for a partner on the platform, else the name the company gave. */
  name: z.string(),
  /** The company on the platform this partner is, or null for a party off the platform. */
  linkedCompany: z.object({ id: z.string(), name: z.string() }).nullable(),
  vatId: z.string().nullable(),
  country: z.string().nullable(),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  status: z.enum(PARTNER_STATUSES),
  testMode: z.boolean(),
  docTypesIn: z.array(DocumentTypeCodeSchema),
  docTypesOut: z.array(DocumentTypeCodeSchema),
  createdAt: z.string(),
  lastExchangeAt: z.string().nullable(),
});
export type Partner = z.infer<typeof PartnerSchema>;

/**
 * One partner with how the portal's documents are sent to it (not in the list's rows, which show none of it);
 * `notifications` only for a caller holding PARTNERS_NOTIFICATIONS.
 */
export const PartnerDetailSchema = PartnerSchema.extend({
  edifactDirectory: z.enum(EANCOM_DIRECTORIES),
  syntaxIdentifier: z.enum(SYNTAX_IDENTIFIERS),
  una: z.boolean(),
  notifications: z
    .array(z.object({ email: z.string(), language: LanguageSchema, events: z.array(z.enum(PARTNER_EVENTS)) }))
    .optional(),
});
export type PartnerDetail = z.infer<typeof PartnerDetailSchema>;

export const PARTNER_SORTS = ['name', 'gln', 'status', 'createdAt', 'lastExchangeAt'] as const;
export type PartnerSort = (typeof PARTNER_SORTS)[number];

export const PartnersQuerySchema = ListQuerySchema.extend({
  /** Part of the name, the GLN or the VAT ID. */
  search: ListSearchSchema,
  includeTotal: IncludeTotalSchema,
  sort: z.enum(PARTNER_SORTS, { error: 'oneOf' }).default('name'),
  order: z.enum(['asc', 'desc'], { error: 'oneOf' }).default('asc'),
  status: z.enum(PARTNER_STATUSES, { error: 'oneOf' }).optional(),
  testMode: z
    .enum(['true', 'false'], { error: 'boolean' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
});
export type PartnersQuery = z.infer<typeof PartnersQuerySchema>;

export const PartnersPageSchema = pageSchema(PartnerSchema);
export type PartnersPage = z.infer<typeof PartnersPageSchema>;

/** What adding a partner by this GLN would do: link to a platform company, or create a party off the platform. */
export const PartnerLookupQuerySchema = z.object({ gln: GlnSchema });
export const PartnerLookupSchema = z.object({
  gln: z.string(),
  company: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The company's partner of this GLN, when it already has one. */
  partnerId: z.string().nullable(),
});
export type PartnerLookup = z.infer<typeof PartnerLookupSchema>;
