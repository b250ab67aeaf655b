import { z } from 'zod';
import { PASSWORD_MAX } from './limits.ts';
import { emailSchema, passwordSchema, userSchema, usernameSchema } from './auth.ts';
import type { ApiClient } from './client.ts';

/** The signed-in user's cabinet (SPEC §2 User cabinet). */
export const cabinetSchema = userSchema.extend({
  pendingEmail: z.string().nullable(),
  createdAt: z.string(),
  isCaptain: z.boolean(),
  myTeam: z
    .object({
      _id: z.string(),
      name: z.string(),
      logoUrl: z.string().nullable(),
      captain: z.string(),
      membersCount: z.number(),
    })
    .nullable(),
});
export type Cabinet = z.infer<typeof cabinetSchema>;

export const profileInput = z.object({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
});
export type ProfileInput = z.infer<typeof profileInput>;

export const passwordChangeInput = z.object({
  oldPassword: z.string().min(1).max(PASSWORD_MAX),
  newPassword: passwordSchema,
});
export type PasswordChangeInput = z.infer<typeof passwordChangeInput>;

export const cabinetUpdateResponse = z.object({ message: z.string(), user: cabinetSchema });

export const getCabinet = (api: ApiClient) => api.get('cabinet/me').json<Cabinet>();

export const updateProfile = (api: ApiClient, body: ProfileInput) =>
  api.put('cabinet/me', { json: body }).json<z.infer<typeof cabinetUpdateResponse>>();

/** Sends the picture as multipart `avatar`, as SPEC §7 says. */
export function uploadAvatar(api: ApiClient, file: Blob, name = 'avatar') {
  const form = new FormData();
  form.set('avatar', file, name);
  return api.put('cabinet/me', { body: form }).json<z.infer<typeof cabinetUpdateResponse>>();
}

export const changePassword = (api: ApiClient, body: PasswordChangeInput) =>
  api.put('cabinet/me/password', { json: body }).json<{ message: string }>();
