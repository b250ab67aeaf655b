/**
 * Telegram's Bot API through grammY (issue 60, decision 043): the bot made from its token, how
 * updates reach it (webhook or long polling), and what an answer of Telegram means for a message
 * that was being sent. grammY builds the requests and reads Telegram's errors; nothing here speaks
 * HTTP itself. `apiRoot` is Telegram's, or a test's stand-in on loopback (TELEGRAM_API_ROOT).
 */
import { createHmac } from 'node:crypto';
import { Bot, GrammyError, HttpError } from 'grammy';

export interface TelegramBotOptions {
  token: string;
  apiRoot: string;
  /** How long one call may take before it counts as no answer. */
  timeoutSeconds?: number;
}

/** The site's bot with what the app needs of it (services/telegram/bot.ts installs its commands). */
export interface Telegram {
  bot: Bot;
  /** What Telegram sends in `X-Telegram-Bot-Api-Secret-Token` with every update to the webhook. */
  webhookSecret: string;
  /** The site's public address: buttons and links open pages under it. */
  siteUrl: string;
}

/** A grammY bot aimed at `apiRoot`: nothing is called until `bot.init()` asks getMe who it is. */
export function makeBot(options: TelegramBotOptions): Bot {
  return new Bot(options.token, { client: { apiRoot: options.apiRoot.replace(/\/+$/, ''), timeoutSeconds: options.timeoutSeconds ?? 10 } });
}

/**
 * The webhook's secret when TELEGRAM_WEBHOOK_SECRET is unset: derived from the token, so every
 * instance agrees without another variable, and anyone who could forge it already holds the bot.
 */
export const derivedWebhookSecret = (token: string): string => createHmac('sha256', token).update('kiberarena telegram webhook').digest('hex');

/**
 * How updates come: TELEGRAM_MODE when set; else by webhook when the site has a public https
 * address Telegram can call (not localhost nor a bare IP of a private network), else by long polling.
 */
export function telegramMode(explicit: 'webhook' | 'polling' | undefined, siteUrl: string): 'webhook' | 'polling' {
  if (explicit) return explicit;
  try {
    const url = new URL(siteUrl);
    const local =
      url.hostname === 'localhost' || url.hostname.endsWith('.localhost') || /^(127\.|10\.|192\.168\.|\[)/.test(url.hostname) || !url.hostname.includes('.');
    return url.protocol === 'https:' && !local ? 'webhook' : 'polling';
  } catch {
    return 'polling';
  }
}

/** How a call went: taken; to try again (Telegram down, slow, or asking to wait `afterMs`); the chat gone (the bot blocked, kicked, the chat deleted); or refused for good. */
export type TelegramOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; afterMs?: number; status: number; reason: string }
  | { kind: 'gone'; status: number; reason: string }
  | { kind: 'refused'; status: number; reason: string };

/** Runs one call of the Bot API and says how it went (never throws). */
export async function telegramCall(work: () => Promise<unknown>): Promise<TelegramOutcome> {
  try {
    await work();
    return { kind: 'sent' };
  } catch (error) {
    return outcomeOf(error);
  }
}

/** What an error of grammY means for the message: 429 waits `retry_after`; 5xx and no answer retry; 403 and a lost chat are gone. */
export function outcomeOf(error: unknown): TelegramOutcome {
  if (error instanceof GrammyError) {
    const status = error.error_code;
    const reason = `${status} ${error.description}`.slice(0, 500);
    if (status === 429) {
      const seconds = error.parameters.retry_after;
      return { kind: 'retry', status, reason, ...(typeof seconds === 'number' ? { afterMs: seconds * 1000 } : {}) };
    }
    if (status >= 500) return { kind: 'retry', status, reason };
    // 403: «bot was blocked by the user», «user is deactivated», «bot was kicked»; 400: «chat not found», a channel's «need administrator rights».
    if (status === 403 || /chat not found|user not found|chat_id is empty|administrator rights|not enough rights/i.test(error.description))
      return { kind: 'gone', status, reason };
    return { kind: 'refused', status, reason };
  }
  // No answer: Telegram down, or slower than the timeout.
  if (error instanceof HttpError) return { kind: 'retry', status: 0, reason: error.message.slice(0, 500) };
  return { kind: 'retry', status: 0, reason: (error as Error)?.message?.slice(0, 500) ?? String(error) };
}

/**
 * Whether a site address may go on an inline button: Telegram refuses buttons to localhost and
 * bare addresses, so a development site puts its link in the text instead.
 */
export function buttonable(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      parsed.hostname.includes('.') &&
      !/^[\d.]+$/.test(parsed.hostname) &&
      !parsed.hostname.endsWith('.localhost')
    );
  } catch {
    return false;
  }
}
