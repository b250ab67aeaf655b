import { GrammyError, HttpError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { TELEGRAM_CHAT } from '../../src/lib/api/telegram.ts';
import { EnvError, parseEnv } from '../../src/server/env.ts';
import { telegramMessage } from '../../src/server/services/telegram/notice-outbox.ts';
import { buttonable, derivedWebhookSecret, outcomeOf, telegramMode } from '../../src/server/telegram/telegram-bot.ts';

/* Telegram's pure rules (issue 60, decision 043): how updates come, what Telegram's answers mean, what a notice says. */

const telegramError = (error_code: number, description: string, retry_after?: number) =>
  new GrammyError(
    `Call failed`,
    { ok: false, error_code, description, ...(retry_after !== undefined ? { parameters: { retry_after } } : {}) },
    'sendMessage',
    {},
  );

describe('how the bot takes updates', () => {
  it('uses a webhook for a public https site and polls otherwise, unless told', () => {
    expect(telegramMode(undefined, 'https://kiberarena.ua')).toBe('webhook');
    for (const site of [
      'http://kiberarena.ua',
      'https://localhost:4321',
      'https://arena.localhost',
      'http://127.0.0.1:4321',
      'https://192.168.1.5',
      'https://intranet',
      'не адреса',
    ]) {
      expect(telegramMode(undefined, site), site).toBe('polling');
    }
    expect(telegramMode('polling', 'https://kiberarena.ua')).toBe('polling');
    expect(telegramMode('webhook', 'http://127.0.0.1:4321')).toBe('webhook');
  });

  it('derives one webhook secret per token, in Telegram’s alphabet', () => {
    const secret = derivedWebhookSecret('123:abc');
    expect(secret).toMatch(/^[\w-]{16,256}$/);
    expect(derivedWebhookSecret('123:abc')).toBe(secret);
    expect(derivedWebhookSecret('123:abd')).not.toBe(secret);
  });
});

describe('what Telegram’s answers mean for a message', () => {
  it('waits out a 429’s retry_after, retries 5xx and no answer, drops a blocked or lost chat, and gives up other refusals', () => {
    expect(outcomeOf(telegramError(429, 'Too Many Requests: retry after 7', 7))).toMatchObject({ kind: 'retry', status: 429, afterMs: 7000 });
    expect(outcomeOf(telegramError(502, 'Bad Gateway'))).toMatchObject({ kind: 'retry', status: 502 });
    expect(outcomeOf(new HttpError('Network request failed', new Error('ECONNREFUSED')))).toMatchObject({ kind: 'retry', status: 0 });
    expect(outcomeOf(telegramError(403, 'Forbidden: bot was blocked by the user'))).toMatchObject({ kind: 'gone', status: 403 });
    expect(outcomeOf(telegramError(400, 'Bad Request: chat not found'))).toMatchObject({ kind: 'gone' });
    expect(outcomeOf(telegramError(400, 'Bad Request: need administrator rights in the channel chat'))).toMatchObject({ kind: 'gone' });
    expect(outcomeOf(telegramError(400, 'Bad Request: message is too long'))).toMatchObject({ kind: 'refused', status: 400 });
  });
});

describe('a notice as a message', () => {
  const row = { kind: 'matchReady' as const, params: { tournament: 'Kyiv Open', opponent: 'Rival' }, text: '', link: '/matches/42' };

  it('is worded in the reader’s language with a button to its page', () => {
    const uk = telegramMessage({ ...row, locale: 'uk' }, 'https://kiberarena.ua');
    expect(uk.text).toContain('Kyiv Open');
    expect(uk.text).toMatch(/\p{Script=Cyrillic}/u);
    const en = telegramMessage({ ...row, locale: 'en' }, 'https://kiberarena.ua');
    expect(en.text).not.toMatch(/\p{Script=Cyrillic}/u);
    expect(JSON.stringify(en.options)).toContain('https://kiberarena.ua/matches/42');
  });

  it('puts the address in the text where Telegram takes no button, and never links off the site', () => {
    expect(buttonable('http://127.0.0.1:4321/matches/1')).toBe(false);
    expect(buttonable('http://localhost:4321/')).toBe(false);
    const local = telegramMessage({ ...row, locale: 'uk' }, 'http://localhost:4321');
    expect(local.options).toEqual({});
    expect(local.text.endsWith('http://localhost:4321/matches/42')).toBe(true);
    const elsewhere = telegramMessage({ ...row, link: '//evil.test/x', locale: 'uk' }, 'https://kiberarena.ua');
    expect(JSON.stringify(elsewhere.options)).toContain('"https://kiberarena.ua/"');
  });
});

describe('a channel as a manager gives it', () => {
  it('is an @username of 5–32 characters or a numeric id', () => {
    for (const ok of ['@arena_news', '@abcde', '-1001234567890', '123456789']) expect(TELEGRAM_CHAT.test(ok), ok).toBe(true);
    for (const bad of ['arena_news', '@abcd', '@1arena', '@arena news', '@' + 'a'.repeat(33), 'https://t.me/arena', '-12', ''])
      expect(TELEGRAM_CHAT.test(bad), bad).toBe(false);
  });
});

describe('Telegram’s settings', () => {
  it('is off unless TELEGRAM_BOT_TOKEN is a BotFather token, and refuses a wrong token, secret or mode at start', () => {
    const env = parseEnv({});
    expect(env.TELEGRAM_BOT_TOKEN).toBeUndefined();
    expect(env.TELEGRAM_API_ROOT).toBe('https://api.telegram.org');
    expect(parseEnv({ TELEGRAM_BOT_TOKEN: '123456789:AAH-abcdefghijklmnopqrstuvwxyz012345' }).TELEGRAM_BOT_TOKEN).toBe(
      '123456789:AAH-abcdefghijklmnopqrstuvwxyz012345',
    );
    for (const [name, value] of [
      ['TELEGRAM_BOT_TOKEN', 'not-a-token'],
      ['TELEGRAM_WEBHOOK_SECRET', 'short'],
      ['TELEGRAM_WEBHOOK_SECRET', 'has spaces in it, sixteen+'],
      ['TELEGRAM_MODE', 'both'],
      ['TELEGRAM_API_ROOT', 'nowhere'],
    ] as const) {
      expect(() => parseEnv({ [name]: value }), `${name}=${value}`).toThrow(EnvError);
      expect(() => parseEnv({ [name]: value })).toThrow(name);
    }
  });
});
