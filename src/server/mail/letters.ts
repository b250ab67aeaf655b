import type { Letter } from './mailer.ts';
import { escapeXml as escape } from '../../lib/domain/markup.ts';
import { currentLocale, translate, type Locale, type MessageKey } from '../../lib/i18n/index.ts';

/**
 * The letters about an account: each has a subject, a lead and an action in the catalogs
 * (`mail.<kind>.*`). They leave through the notices' outbox (services/notices/notices.ts), which keeps the kind.
 */
export type AccountLetterKind = 'confirm' | 'emailChange' | 'emailInUse';

/**
 * An account's letter in `locale`: the language of the request that caused it (the reader's
 * `lang` cookie, src/server/locale.ts), so someone who signed up in English reads it in English.
 */
export function accountLetter(to: string, kind: AccountLetterKind, link: string, params: Record<string, string>, locale: Locale): Letter {
  const say = (key: MessageKey) => translate(locale, key, params);
  const [subject, lead, action, ignore] = [say(`mail.${kind}.subject`), say(`mail.${kind}.lead`), say(`mail.${kind}.action`), say('mail.ignore')];
  const text = `${lead}\n\n${action}: ${link}\n\n${ignore}`;
  const html = `<div lang="${locale}"><p>${escape(lead)}</p><p><a href="${escape(link)}">${escape(action)}</a></p><p style="color:#666">${escape(link)}</p><p>${escape(ignore)}</p></div>`;
  return { to, subject, text, html, link, language: locale };
}

/**
 * Where a letter's button leads, as a site path: the outbox (services/notices/notices.ts) puts the site's
 * configured address (`Env.siteUrl`) before it when it sends, never one taken from the request
 * that caused the letter.
 */
export const confirmPath = (token: string) => `/confirm?token=${encodeURIComponent(token)}`;
export const LOGIN_PATH = '/login';

export const confirmationLetter = (to: string, username: string, link: string, locale = currentLocale()) =>
  accountLetter(to, 'confirm', link, { username }, locale);

/**
 * To an address that already has an account, when someone tried to make it another account's
 * address: the account behind it stays as it was, and the person who tried learns nothing.
 */
export const emailInUseLetter = (to: string, link: string, locale = currentLocale()) => accountLetter(to, 'emailInUse', link, {}, locale);

/**
 * A match-day notice's letter (issue 22), worded by services/notices/notice-words.ts in the reader's
 * language: the lead, a button to the page it is about, and where to turn such letters off.
 */
export function noticeLetter(to: string, words: { subject: string; lead: string; action: string }, link: string, settingsLink: string, locale: Locale): Letter {
  const footer = translate(locale, 'notices.mailFooter', { url: settingsLink });
  const text = `${words.lead}\n\n${words.action}: ${link}\n\n${footer}`;
  const html = `<div lang="${locale}"><p>${escape(words.lead)}</p><p><a href="${escape(link)}">${escape(words.action)}</a></p><p style="color:#666">${escape(link)}</p><p style="color:#666">${escape(footer)}</p></div>`;
  return { to, subject: words.subject, text, html, link, language: locale };
}
