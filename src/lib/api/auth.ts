import { z } from 'zod';
import { ORGANISATION_ROLES } from '../domain/organisation.ts';
import { EMAIL_MAX, PASSWORD_MAX, USERNAME_MAX } from './limits.ts';
import { hasInvisibleCharacters, normalizeName } from '../domain/names.ts';
import { t } from '../i18n/common.ts';
import type { ApiClient } from './client.ts';

/** A user as every API answer shows one (SPEC §3 User). */
export const userSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  avatar: z.string(),
  role: z.enum(['user', 'admin']),
  teams: z.array(z.string()),
  team: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/**
 * `GET /users/me`: the user, the tournaments they are staff of (issue 23, decision 016) and the
 * organisations they are in with their role (issue 56), so pages and islands know where to offer
 * organiser tools. Other answers keep SPEC's shape.
 */
export const meSchema = userSchema.extend({
  staffOf: z.array(z.string()),
  organisations: z.array(z.object({ _id: z.string(), slug: z.string(), name: z.string(), role: z.enum(ORGANISATION_ROLES) })),
});
export type Me = z.infer<typeof meSchema>;

/**
 * Nickname rules, shared by registration and profile editing: no invisible or format characters,
 * stored in NFKC (lib/domain/names.ts); a name that looks like a taken one is refused by the server.
 */
export const usernameSchema = z
  .string()
  .refine((v) => !hasInvisibleCharacters(v), { error: () => t('validation.invisibleUsername') })
  .overwrite(normalizeName)
  .min(3)
  .max(USERNAME_MAX)
  .regex(/^[\p{L}\p{N}_.-]+$/u, { error: () => t('validation.invalidUsername') });
/** Email rules, shared by registration and profile editing. */
export const emailSchema = z.string().trim().pipe(z.email().max(EMAIL_MAX));
/** Password rules, shared by registration and password change. */
export const passwordSchema = z.string().min(8).max(PASSWORD_MAX);

export const registerInput = z.object({ username: usernameSchema, email: emailSchema, password: passwordSchema });
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z.object({
  loginOrEmail: z.string().trim().min(1).max(EMAIL_MAX),
  password: z.string().min(1).max(PASSWORD_MAX),
});
export type LoginInput = z.infer<typeof loginInput>;

export const resendInput = z.object({ email: z.string().trim().min(1).max(EMAIL_MAX).pipe(z.email()) });
export type ResendInput = z.infer<typeof resendInput>;

export const confirmQuery = z.object({ token: z.string().min(1).max(200) });

export const messageSchema = z.object({ message: z.string() });
export const loginResponse = z.object({ user: userSchema, token: z.string(), message: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const register = (api: ApiClient, body: RegisterInput) =>
  api.post('auth/register', { json: body }).json<{ message: string }>();
export const login = (api: ApiClient, body: LoginInput) => api.post('auth/login', { json: body }).json<LoginResponse>();
export const logout = (api: ApiClient) => api.post('auth/logout').json<{ message: string }>();
export const confirmEmail = (api: ApiClient, token: string) =>
  api.get('auth/confirm', { searchParams: { token } }).json<{ message: string }>();
export const resendConfirmation = (api: ApiClient, body: ResendInput) =>
  api.post('auth/resend-confirmation', { json: body }).json<{ message: string }>();
export const getMe = (api: ApiClient) => api.get('users/me').json<Me>();
