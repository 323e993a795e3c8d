import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { FeaturePermissionSchema } from './permissions.ts';
import { TELEPHONE_PATTERN } from './profile.ts';
import { DOCUMENT_DIRECTIONS, DOCUMENT_TYPE_CODES, DocumentTypeCodeSchema } from './documents.ts';
import { IncludeTotalSchema, ListQuerySchema, ListSearchSchema, pageSchema } from './lists.ts';
import { EmailSchema, GlnSchema, NameSchema, text } from './rules.ts';

/**
 * User management of a company (issue 4, section 4): the company's users and their invitations, groups with their
 * feature permissions and members, and restrictions that narrow the documents a user or group sees.
 */

/** The query of the company's lists (users, groups, restrictions): paging, a search, the total on request. */
const CompanyListQuerySchema = ListQuerySchema.extend({ search: ListSearchSchema, includeTotal: IncludeTotalSchema });

const IdListSchema = z.array(z.uuid({ error: 'uuid' })).max(500, 'tooBig');

/** A reference to a group, as lists show it. */
export const GroupRefSchema = z.object({ id: z.string(), name: z.string() });
export type GroupRef = z.infer<typeof GroupRefSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Users of the company (`/api/company-users`)

/** `invited`: no password set yet (the invitation is pending); `disabled`: deactivated; else `active`. */
export const USER_STATUSES = ['active', 'invited', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const CompanyUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  telephone: z.string().nullable(),
  language: LanguageSchema,
  status: z.enum(USER_STATUSES),
  groups: z.array(GroupRefSchema),
  /** ISO date-time of the last successful login, from the audit log; null when never. */
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type CompanyUser = z.infer<typeof CompanyUserSchema>;

/** One user with the restrictions assigned to them directly. */
export const CompanyUserDetailSchema = CompanyUserSchema.extend({
  restrictions: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type CompanyUserDetail = z.infer<typeof CompanyUserDetailSchema>;

export const CompanyUsersQuerySchema = CompanyListQuerySchema.extend({
  status: z.enum(USER_STATUSES, { error: 'oneOf' }).optional(),
  groupId: z.uuid({ error: 'uuid' }).optional(),
});
export type CompanyUsersQuery = z.infer<typeof CompanyUsersQuerySchema>;

/** Sorted by last name, first name (case-insensitive), then id. */
export const CompanyUsersPageSchema = pageSchema(CompanyUserSchema);
export type CompanyUsersPage = z.infer<typeof CompanyUsersPageSchema>;

export const InviteUserRequestSchema = z.object({
  email: EmailSchema,
  firstName: NameSchema,
  lastName: NameSchema,
  /** The invitee's language (the e-mail and the portal); the inviter's when absent. */
  language: LanguageSchema.optional(),
  /** Groups of the caller's company. */
  groupIds: IdListSchema.default([]),
});
export type InviteUserRequest = z.infer<typeof InviteUserRequestSchema>;

const TelephoneSchema = text()
  .trim()
  .max(40, 'tooLong')
  .refine((v) => v === '' || TELEPHONE_PATTERN.test(v), 'telephone')
  .nullable();

/** Absent fields stay as they are; `telephone` null or empty clears it; `groupIds` replaces the memberships. */
export const UpdateCompanyUserRequestSchema = z.object({
  firstName: NameSchema.optional(),
  lastName: NameSchema.optional(),
  telephone: TelephoneSchema.optional(),
  groupIds: IdListSchema.optional(),
});
export type UpdateCompanyUserRequest = z.infer<typeof UpdateCompanyUserRequestSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Groups (`/api/groups`)

/** A group of users (named `UserGroup`, not `Group`, beside Mantine's `Group` layout component). */
export const UserGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  permissions: z.array(FeaturePermissionSchema),
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type UserGroup = z.infer<typeof UserGroupSchema>;

export const GroupMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.enum(USER_STATUSES),
});
export type GroupMember = z.infer<typeof GroupMemberSchema>;

/** A group with its members (sorted like the users list). */
export const GroupDetailSchema = UserGroupSchema.extend({ members: z.array(GroupMemberSchema) });
export type GroupDetail = z.infer<typeof GroupDetailSchema>;

export const GroupsQuerySchema = CompanyListQuerySchema;
export type GroupsQuery = z.infer<typeof GroupsQuerySchema>;

/** Sorted by name (case-insensitive), then id. */
export const GroupsPageSchema = pageSchema(UserGroupSchema);
export type GroupsPage = z.infer<typeof GroupsPageSchema>;

export const GROUP_NAME_MAX_LENGTH = 100;

/** Body of `POST /api/groups` and `PUT /api/groups/:id`. Names are unique in a company, whatever the case. */
export const GroupRequestSchema = z.object({
  name: text({ error: 'required' }).trim().min(1, 'required').max(GROUP_NAME_MAX_LENGTH, 'tooLong'),
  permissions: z.array(FeaturePermissionSchema, { error: 'oneOf' }).max(100, 'tooBig'),
});
export type GroupRequest = z.infer<typeof GroupRequestSchema>;

/** Body of `PUT /api/groups/:id/members`: the complete member list, users of the caller's company. */
export const GroupMembersRequestSchema = z.object({ userIds: IdListSchema });
export type GroupMembersRequest = z.infer<typeof GroupMembersRequestSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Restrictions (`/api/restrictions`)

/** A rule that narrows what its assignees see; an empty list leaves that axis open. */
export const RestrictionRequestSchema = z.object({
  name: text({ error: 'required' }).trim().min(1, 'required').max(100, 'tooLong'),
  description: text().trim().max(1000, 'tooLong').nullable().optional(),
  /** Partner ids, or GLNs of partners off the platform. */
  partners: z.array(text().trim().min(1, 'required').max(100, 'tooLong')).max(500, 'tooBig').default([]),
  deliveryPointGlns: z.array(GlnSchema).max(500, 'tooBig').default([]),
  documentTypes: z.array(DocumentTypeCodeSchema).max(DOCUMENT_TYPE_CODES.length, 'tooBig').default([]),
  directions: z
    .array(z.enum(DOCUMENT_DIRECTIONS, { error: 'oneOf' }))
    .max(DOCUMENT_DIRECTIONS.length, 'tooBig')
    .default([]),
  /** Users and groups of the caller's company the rule applies to. */
  assignees: z
    .object({ userIds: IdListSchema.default([]), groupIds: IdListSchema.default([]) })
    .default({ userIds: [], groupIds: [] }),
});
export type RestrictionRequest = z.infer<typeof RestrictionRequestSchema>;

export const RestrictionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  partners: z.array(z.string()),
  deliveryPointGlns: z.array(z.string()),
  documentTypes: z.array(DocumentTypeCodeSchema),
  directions: z.array(z.enum(DOCUMENT_DIRECTIONS)),
  assignees: z.object({
    users: z.array(z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() })),
    groups: z.array(GroupRefSchema),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Restriction = z.infer<typeof RestrictionSchema>;

export const RestrictionsQuerySchema = CompanyListQuerySchema.extend({
  /** Only restrictions assigned directly to this user. */
  userId: z.uuid({ error: 'uuid' }).optional(),
  /** Only restrictions assigned to this group. */
  groupId: z.uuid({ error: 'uuid' }).optional(),
});
export type RestrictionsQuery = z.infer<typeof RestrictionsQuerySchema>;

/** Sorted by name (case-insensitive), then id. */
export const RestrictionsPageSchema = pageSchema(RestrictionSchema);
export type RestrictionsPage = z.infer<typeof RestrictionsPageSchema>;
