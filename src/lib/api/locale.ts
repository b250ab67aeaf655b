import type { Locale } from '../i18n/core.ts';
import type { ApiClient } from './client.ts';

/**
 * Tells the server the signed-in reader's language (`PUT /users/me/locale`, schema `localeInput`
 * in notices.ts), so their letters follow it. A module of its own, without zod or the catalog: the
 * language switch, on every page, loads it only when it is pressed.
 */
export const saveLocale = (api: ApiClient, locale: Locale) => api.put('users/me/locale', { json: { locale } }).json<{ message: string }>();
