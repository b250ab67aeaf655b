/**
 * The Telegram calls of the cabinet and the manage page (issue 60), apart from their zod schemas in
 * `telegram.ts`: the islands that import these ship no zod.
 */
import type { ApiClient } from './client.ts';
import type { IntegrationsView } from './integrations.ts';

/** GET /api/telegram/link: `enabled` false when the site has no bot (no Telegram controls are shown then). */
export interface TelegramLinkView {
  enabled: boolean;
  bot: string | null;
  linked: { username: string; linkedAt: string } | null;
}

export interface TelegramChannelView {
  chat: string;
  broken: boolean;
  locale: 'uk' | 'en';
  /** Its latest announcements, as Discord's log. */
  log: IntegrationsView['log'];
}

/** The `telegram` field of an organisation's integrations: absent when the site has no bot. */
export interface TelegramIntegrationView {
  bot: string | null;
  channel: TelegramChannelView | null;
}

export const getTelegramLink = (api: ApiClient) => api.get('telegram/link').json<TelegramLinkView>();
export const makeTelegramLink = (api: ApiClient) => api.post('telegram/link').json<{ message: string; url: string; expiresAt: string }>();
export const unlinkTelegram = (api: ApiClient) => api.delete('telegram/link').json<{ message: string }>();
export const saveTelegramChannel = (api: ApiClient, organisationId: string, chat: string) =>
  api.put(`organisations/${organisationId}/telegram`, { json: { chat } }).json<{ message: string; telegram: TelegramIntegrationView }>();
export const removeTelegramChannel = (api: ApiClient, organisationId: string) =>
  api.delete(`organisations/${organisationId}/telegram`).json<{ message: string; telegram: TelegramIntegrationView }>();
