import { z } from 'zod';
import { NOTICE_KINDS, type NoticeSettings } from '../domain/match-day.ts';
import { locales, type Locale } from '../i18n/core.ts';
import { t } from '../i18n/index.ts';

const kindsOff = z.array(z.enum(NOTICE_KINDS, { error: () => t('notices.unknownKind') })).max(NOTICE_KINDS.length * 2);

/** The kinds a user turned off, per channel (issue 22); a channel left out has every kind on. */
export const noticeSettingsSchema = z.object({ bell: kindsOff.optional(), email: kindsOff.optional(), push: kindsOff.optional(), telegram: kindsOff.optional() }).strict() satisfies z.ZodType<NoticeSettings>;

/** `PUT /users/me/locale`: the language letters to this user are written in. */
export const localeInput = z.object({ locale: z.enum(locales as [Locale, ...Locale[]]) }).strict();

/** `GET /users/me/notice-settings`: every channel listed, and whether letters reach the user (a confirmed address). */
export type { NoticeSettingsView } from './notice-settings.ts';
