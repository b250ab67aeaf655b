import type { Letter } from './mailer.ts';
import { escapeXml as escape } from '../../lib/domain/markup.ts';

function letter(to: string, subject: string, lead: string, action: string, link: string): Letter {
  const text = `${lead}\n\n${action}: ${link}\n\nЯкщо ви не реєструвалися на Кіберарені, просто проігноруйте цей лист.`;
  const html = `<p>${escape(lead)}</p><p><a href="${escape(link)}">${escape(action)}</a></p><p style="color:#666">${escape(link)}</p><p>Якщо ви не реєструвалися на Кіберарені, просто проігноруйте цей лист.</p>`;
  return { to, subject, text, html, link };
}

/**
 * Where a letter's button leads: the site's configured address (`Env.siteUrl`), never one taken
 * from the request that caused the letter.
 */
export const confirmLink = (siteUrl: string, token: string) => `${siteUrl}/confirm?token=${encodeURIComponent(token)}`;
export const loginLink = (siteUrl: string) => `${siteUrl}/login`;

export const confirmationLetter = (to: string, username: string, link: string) =>
  letter(to, 'Підтвердіть пошту на Кіберарені', `Вітаємо, ${username}! Щоб увійти на Кіберарену, підтвердіть свою пошту.`, 'Підтвердити пошту', link);

export const emailChangeLetter = (to: string, username: string, link: string) =>
  letter(to, 'Підтвердіть нову пошту на Кіберарені', `${username}, ви змінили адресу пошти на Кіберарені. Підтвердіть нову адресу.`, 'Підтвердити адресу', link);

/**
 * To an address that already has an account, when someone tried to make it another account's
 * address: the account behind it stays as it was, and the person who tried learns nothing.
 */
export const emailInUseLetter = (to: string, link: string) =>
  letter(
    to,
    'Хтось спробував використати вашу пошту на Кіберарені',
    'Хтось указав цю адресу як нову пошту для іншого акаунта на Кіберарені. Її вже має ваш акаунт, тому нічого не змінено. Якщо це були ви, увійдіть у свій акаунт.',
    'Увійти',
    link,
  );
