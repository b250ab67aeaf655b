import type { Letter } from './mailer.ts';
import { escapeXml as escape } from '../../lib/domain/markup.ts';

function letter(to: string, subject: string, lead: string, action: string, link: string): Letter {
  const text = `${lead}\n\n${action}: ${link}\n\nЯкщо ви не реєструвалися на Кіберарені, просто проігноруйте цей лист.`;
  const html = `<p>${escape(lead)}</p><p><a href="${escape(link)}">${escape(action)}</a></p><p style="color:#666">${escape(link)}</p><p>Якщо ви не реєструвалися на Кіберарені, просто проігноруйте цей лист.</p>`;
  return { to, subject, text, html, link };
}

export const confirmationLetter = (to: string, username: string, link: string) =>
  letter(to, 'Підтвердіть пошту на Кіберарені', `Вітаємо, ${username}! Щоб увійти на Кіберарену, підтвердіть свою пошту.`, 'Підтвердити пошту', link);

export const emailChangeLetter = (to: string, username: string, link: string) =>
  letter(to, 'Підтвердіть нову пошту на Кіберарені', `${username}, ви змінили адресу пошти на Кіберарені. Підтвердіть нову адресу.`, 'Підтвердити адресу', link);
