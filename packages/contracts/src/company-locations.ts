import { z } from 'zod';
import { IncludeTotalSchema, ListQuerySchema, ListSearchSchema, pageSchema } from './lists.ts';
import { isCountryCode } from './profile.ts';
import { clearableText, isValidGln, text } from './rules.ts';

/**
 * A company's GLNs and delivery points (issue 10, part 1; docs/decisions/0020-company-identifiers.md). One list per
 * company: its own GLNs (kind `company`) and its delivery points (stores, warehouses). A GLN belongs to at most one
 * company on the platform.
 */

export const COMPANY_LOCATION_KINDS = ['company', 'delivery_point'] as const;
export type CompanyLocationKind = (typeof COMPANY_LOCATION_KINDS)[number];

/** The most GLNs and delivery points one company may hold. */
export const COMPANY_LOCATIONS_MAX = 5000;

/** A GLN-13 with its GS1 check digit; spaces around it are dropped. */
export const LocationGlnSchema = text({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(13, { error: 'gln', abort: true })
  .refine(isValidGln, 'gln');

/**
 * A GLN or delivery point as the form sends it (create and replace). A delivery point needs its address (street,
 * city, country); a company GLN may name only itself. `code` is the store or warehouse code the retailer uses.
 */
export const CompanyLocationRequestSchema = z
  .object({
    gln: LocationGlnSchema,
    kind: z.enum(COMPANY_LOCATION_KINDS, { error: 'oneOf' }),
    name: text({ error: 'required' }).trim().min(1, 'required').max(200, 'tooLong'),
    street: clearableText(200),
    postalCode: clearableText(20),
    city: clearableText(100),
    country: clearableText(2).refine((v) => !v || isCountryCode(v), 'country'),
    code: clearableText(35),
  })
  .superRefine((v, ctx) => {
    if (v.kind !== 'delivery_point') return;
    for (const field of ['street', 'city', 'country'] as const) {
      if (!v[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'required' });
    }
  });
export type CompanyLocationRequest = z.input<typeof CompanyLocationRequestSchema>;
export type CompanyLocationValues = z.output<typeof CompanyLocationRequestSchema>;

/** `:gln` of one GLN or delivery point: a GLN that is not one is unknown (404), whatever its shape. */
export const GlnParamsSchema = z.object({ gln: text().max(20, 'tooLong') });

export const CompanyLocationSchema = z.object({
  gln: z.string(),
  kind: z.enum(COMPANY_LOCATION_KINDS),
  name: z.string(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  code: z.string().nullable(),
  createdAt: z.string(),
});
export type CompanyLocation = z.infer<typeof CompanyLocationSchema>;

/** Company GLNs first, then delivery points, each by GLN. */
export const CompanyLocationsQuerySchema = ListQuerySchema.extend({
  search: ListSearchSchema,
  includeTotal: IncludeTotalSchema,
  kind: z.enum(COMPANY_LOCATION_KINDS, { error: 'oneOf' }).optional(),
});
export type CompanyLocationsQuery = z.infer<typeof CompanyLocationsQuerySchema>;

export const CompanyLocationPageSchema = pageSchema(CompanyLocationSchema);
export type CompanyLocationPage = z.infer<typeof CompanyLocationPageSchema>;

/** `:id` of the company and `:gln` of its location, for the admin area. */
export const CompanyGlnParamsSchema = z.object({ id: z.uuid({ error: 'uuid' }), gln: text().max(20, 'tooLong') });
