import { z } from 'zod';

/** The six panels of the profile page (description, section 2), in their order on screen. */
export const PROFILE_PANELS = [
  'profile-settings',
  'password',
  'company-settings',
  'language',
  'additional-settings',
  'ettn-subscriptions',
] as const;
export type ProfilePanel = (typeof PROFILE_PANELS)[number];

/** `/profile?panel=password` opens a panel directly; an unknown value falls back to the first visible one. */
export const ProfileSearchSchema = z.object({
  panel: z.enum(PROFILE_PANELS).optional().catch(undefined),
});
export type ProfileSearch = z.infer<typeof ProfileSearchSchema>;
