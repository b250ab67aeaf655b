/**
 * The cabinet's notification settings calls (issue 22), apart from their zod schemas in
 * `notices.ts`: the island that imports these ships no zod.
 */
import type { NoticeSettings } from '../domain/match-day.ts';
import type { ApiClient } from './client.ts';

/** `GET /users/me/notice-settings`: every channel listed, and whether letters reach the user (a confirmed address). */
export type NoticeSettingsView = Required<NoticeSettings> & { emailConfirmed: boolean };

export const getNoticeSettings = (api: ApiClient) => api.get('users/me/notice-settings').json<NoticeSettingsView>();
export const saveNoticeSettings = (api: ApiClient, settings: NoticeSettings) =>
  api.put('users/me/notice-settings', { json: settings }).json<{ message: string; settings: NoticeSettings }>();
