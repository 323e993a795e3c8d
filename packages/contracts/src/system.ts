import { z } from 'zod';

/** `GET /api/public-config`: what the public pages (login, registration) need before anyone signs in. */
export const PublicConfigSchema = z.object({
  /** Where the old EDI system's login lives (LEGACY_EDI_URL). */
  legacyEdiUrl: z.string(),
  /** The portal's version. */
  version: z.string(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
