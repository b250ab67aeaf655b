/**
 * What a reader chose about their notices (issue 22): which kinds come in the bell, by email and
 * to their devices by web push and to their Telegram (issue 60), and the language their letters are written in.
 */
import { and, eq, ne } from 'drizzle-orm';
import { NOTICE_KINDS, type NoticeChannel, type NoticeSettings } from '../../../lib/domain/match-day.ts';
import type { NoticeSettingsView } from '../../../lib/api/notices.ts';
import type { Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { changed } from '../live/changes.ts';

/** The settings in one shape: each channel listed, its kinds in the catalog's order and once. */
export function normalizeSettings(settings: NoticeSettings): Required<NoticeSettings> {
  const off = (channel: NoticeChannel) => NOTICE_KINDS.filter((kind) => settings[channel]?.includes(kind));
  return { bell: off('bell'), email: off('email'), push: off('push'), telegram: off('telegram') };
}

/** The user's settings, and whether letters can reach them at all (only a confirmed address gets any). */
export async function getNoticeSettings(db: Tx, userId: string): Promise<NoticeSettingsView> {
  const [row] = await db.select({ settings: users.noticeSettings, confirmed: users.emailConfirmedAt }).from(users).where(eq(users.id, userId));
  return { ...normalizeSettings(row?.settings ?? {}), emailConfirmed: Boolean(row?.confirmed) };
}

/** Replaces the user's settings; a channel left out turns every kind back on there. */
export async function saveNoticeSettings(db: Tx, userId: string, settings: NoticeSettings): Promise<Required<NoticeSettings>> {
  const saved = normalizeSettings(settings);
  await db.update(users).set({ noticeSettings: saved }).where(eq(users.id, userId));
  changed('sessions');
  return saved;
}

/** Keeps the language the user reads in, for their letters; writes only when it changed. */
export async function rememberLocale(db: Tx, userId: string, locale: Locale): Promise<void> {
  const saved = await db
    .update(users)
    .set({ locale })
    .where(and(eq(users.id, userId), ne(users.locale, locale)))
    .returning({ id: users.id });
  if (saved.length > 0) changed('sessions');
}
