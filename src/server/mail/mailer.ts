import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Locale } from '../../lib/i18n/index.ts';
import type { Env } from '../env.ts';

export interface Letter {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the letter is about, printed to the log when there is no SMTP server. */
  link?: string;
  /** The language it is written in, sent as `Content-Language`. */
  language?: Locale;
}

export interface Mailer {
  send(letter: Letter): Promise<void>;
}

// Quoted-printable keeps the link readable in the raw letter (nodemailer would pick base64 for
// mostly-Cyrillic text), so an .eml in the outbox can be read and its link copied as it is.
const message = (from: string, letter: Letter) => ({
  from,
  to: letter.to,
  subject: letter.subject,
  text: letter.text,
  html: letter.html,
  textEncoding: 'quoted-printable' as const,
  ...(letter.language ? { headers: { 'Content-Language': letter.language } } : {}),
});

/**
 * How long an SMTP server may take, in ms: to connect, to greet, and to answer each command. A
 * server that hangs then fails the letter instead of holding its sender for minutes (nodemailer's
 * own defaults are 2 and 10 minutes).
 */
export interface SmtpTimeouts {
  connectionMs: number;
  greetingMs: number;
  socketMs: number;
}
export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 20_000 };

/**
 * Sends through SMTP when `smtpUrl` is set; otherwise writes each letter as an .eml file into
 * `outboxDir` and prints its link, so sign-up works on a machine without a mail server.
 */
export function createMailer(options: { smtpUrl?: string | undefined; from: string; outboxDir: string; timeouts?: SmtpTimeouts }): Mailer {
  const timeouts = options.timeouts ?? SMTP_TIMEOUTS;
  // nodemailer is loaded with the first letter: a server that sends none does not hold it in memory.
  let transport: Promise<Transporter> | undefined;
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      options.smtpUrl
        ? nodemailer.createTransport({
            url: options.smtpUrl,
            connectionTimeout: timeouts.connectionMs,
            greetingTimeout: timeouts.greetingMs,
            socketTimeout: timeouts.socketMs,
          })
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  return {
    async send(letter) {
      const info = await (await transporter()).sendMail(message(options.from, letter));
      if (options.smtpUrl) return;
      await mkdir(options.outboxDir, { recursive: true });
      const safeTo = letter.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = join(options.outboxDir, `${Date.now()}-${safeTo}.eml`);
      await writeFile(file, info.message as Buffer);
      console.log(`[mail] лист для ${letter.to} записано у ${file}${letter.link ? `\n[mail] посилання: ${letter.link}` : ''}`);
    },
  };
}

/**
 * The process's mailer from its environment, as the runtime builds it: SMTP_URL's server (MAIL_FROM
 * as the sender), or .eml files in DATA_DIR/outbox without it. The SMTP test builds it the same way.
 */
export function mailerFromEnv(env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>): Mailer {
  return createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: join(env.DATA_DIR, 'outbox') });
}
