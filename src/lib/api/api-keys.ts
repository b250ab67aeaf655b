import { z } from 'zod';
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from '../domain/api-keys.ts';
import { hasControlCharacters } from '../domain/team.ts';
import { t } from '../i18n/index.ts';

/** POST /api/organisations/{id}/api-keys: a name its managers tell it by, and what it may do. */
export const apiKeyInput = z.object({
  name: z
    .string({ error: () => t('apiKeys.enterName') })
    .trim()
    .refine((v) => v.length > 0, { error: () => t('apiKeys.enterName') })
    .refine((v) => v.length <= API_KEY_NAME_MAX, { error: () => t('apiKeys.nameTooLong', { max: API_KEY_NAME_MAX }) })
    .refine((v) => !hasControlCharacters(v) && !v.includes('\n') && !v.includes('\r') && !v.includes('\t'), { error: () => t('apiKeys.badName') }),
  scope: z.enum(API_KEY_SCOPES, { error: () => t('apiKeys.badScope') }),
});
export type ApiKeyInput = z.infer<typeof apiKeyInput>;

/** A key as its organisation's managers see it: never its secret nor its hash. */
export const apiKeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  /** The secret's first characters (`ka_` and eight more), to tell keys apart. */
  prefix: z.string(),
  createdAt: z.string(),
  /** Who made it (their name now): they answer for what it does. */
  createdBy: z.string(),
  /** To the minute: a key's use is written at most once a minute. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeySchema>;

/** GET …/api-keys: live keys first, newest first; revoked ones stay listed. */
export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema), max: z.number().int() });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** POST …/api-keys: the key, and its secret — the only time it is shown. */
export const apiKeyCreatedSchema = z.object({ message: z.string(), key: apiKeySchema, secret: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

/** DELETE …/api-keys/{keyId}: the key as it is now, revoked. */
export const apiKeyRevokedSchema = z.object({ message: z.string(), key: apiKeySchema });
export type ApiKeyRevoked = z.infer<typeof apiKeyRevokedSchema>;
