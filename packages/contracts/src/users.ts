import { z } from 'zod';
import { LanguageSchema } from './auth.ts';

export const UserDataSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  language: LanguageSchema,
  telephone: z.string().nullable(),
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  roles: z.array(z.string()),
});
export type UserData = z.infer<typeof UserDataSchema>;

export const SetLanguageRequestSchema = z.object({ language: LanguageSchema });
