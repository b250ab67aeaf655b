/**
 * The site's Telegram bot (issue 60, decision 043): what it answers in a private chat. `/start
 * <token>` links the chat to the account whose one-time token it is (links.ts); `/start` alone and
 * anything it does not know get the help; `/next` tells the linked player's next match; `/checkin`
 * checks them in everywhere a window is open now (the tournaments' check-in and their matches'),
 * reusing the site's own services, so the rules are the same as on the site; `/stop` unlinks.
 * Every answer is in the linked user's language (Ukrainian for a chat linked to nobody).
 */
import type { Bot, Context } from 'grammy';
import { InlineKeyboard } from 'grammy';
import { formatDateTime } from '../../../lib/i18n/format.ts';
import { translate, type Locale, type MessageKey } from '../../../lib/i18n/index.ts';
import type { Database } from '../../db/client.ts';
import { buttonable, makeBot, type Telegram, type TelegramBotOptions } from '../../telegram/telegram-bot.ts';
import { setCheckIn } from '../match-day/registration.ts';
import { myMatches } from '../match-day/my-matches.ts';
import { checkInToMatch } from '../match-room/check-in.ts';
import { accountOfChat, linkByToken, unlinkChat } from './links.ts';

export type { Telegram };

/** Matches `/checkin` tries at most (the next ones first): a player has only so many ready at once. */
const CHECK_IN_MATCHES = 10;

type Say = (key: MessageKey, params?: Record<string, string | number>) => string;
const sayIn =
  (locale: Locale): Say =>
  (key, params) =>
    translate(locale, key, params);

/** A reply with a button to `url`, or the address in the text where Telegram takes no button (a development site). */
function withLink(text: string, label: string, url: string) {
  return buttonable(url) ? { text, options: { reply_markup: new InlineKeyboard().url(label, url) } } : { text: `${text}\n\n${url}`, options: {} };
}

/** The name a linked Telegram user is shown by in the cabinet: @username, else their first name. */
const nameOf = (ctx: Context) =>
  ctx.from?.username ? `@${ctx.from.username}` : [ctx.from?.first_name, ctx.from?.last_name].filter(Boolean).join(' ') || String(ctx.chat?.id);

/** The bot's answers, on `bot`, with the database they read and write. */
export function installCommands(bot: Bot, db: Database, siteUrl: string): void {
  // Only private chats are the bot's users; a channel or group it sits in gets no answers.
  const privateOnly = bot.chatType('private');

  /** The linked account of the chat and the words in its language. */
  const who = async (ctx: Context) => {
    const account = await accountOfChat(db, ctx.chat!.id);
    return { account, say: sayIn(account?.locale ?? 'uk') };
  };

  privateOnly.command('start', async (ctx) => {
    const token = ctx.match.trim();
    if (!token) {
      const { say } = await who(ctx);
      await ctx.reply(say('telegram.bot.help'));
      return;
    }
    const linked = await linkByToken(db, token, { chatId: ctx.chat.id, name: nameOf(ctx) });
    if (!linked.ok) {
      await ctx.reply(translate('uk', linked.reason === 'taken' ? 'telegram.bot.taken' : 'telegram.bot.badToken'));
      return;
    }
    const { say } = await who(ctx);
    await ctx.reply(say('telegram.bot.linked', { name: linked.username }));
  });

  privateOnly.command('stop', async (ctx) => {
    const { account, say } = await who(ctx);
    if (!account) {
      await ctx.reply(say('telegram.bot.notLinked'));
      return;
    }
    await unlinkChat(db, ctx.chat.id);
    await ctx.reply(say('telegram.bot.stopped'));
  });

  privateOnly.command('next', async (ctx) => {
    const { account, say } = await who(ctx);
    if (!account) {
      await ctx.reply(say('telegram.bot.notLinked'));
      return;
    }
    const { matches } = await myMatches(db, account.userId);
    const next = matches[0];
    if (!next) {
      await ctx.reply(say('telegram.bot.noNext'));
      return;
    }
    const reply = withLink(
      say('telegram.bot.next', {
        tournament: next.tournament.title,
        round: next.round,
        time: next.scheduledAt ? formatDateTime(next.scheduledAt, { locale: account.locale }) : say('telegram.bot.noTime'),
        opponent: next.opponent?.name || say('telegram.bot.noOpponent'),
      }),
      say('telegram.bot.openMatch'),
      `${siteUrl}/matches/${next._id}`,
    );
    await ctx.reply(reply.text, reply.options);
  });

  privateOnly.command('checkin', async (ctx) => {
    const { account, say } = await who(ctx);
    if (!account) {
      await ctx.reply(say('telegram.bot.notLinked'));
      return;
    }
    const done: string[] = [];
    const already: string[] = [];
    const mine = await myMatches(db, account.userId);
    // Every open window at once: a player on match day wants to be in wherever they are due, and the site's own rules decide each.
    for (const open of mine.checkIns.filter((c) => c.canCheckIn)) {
      const line = say('telegram.bot.checkInTournament', { title: open.tournament.title });
      if (open.checkedIn) {
        already.push(line);
        continue;
      }
      const result = await setCheckIn(db, open.tournament._id, { userId: account.userId, isAdmin: false }, { checkedIn: true });
      if (result.ok) done.push(line);
    }
    for (const match of mine.matches.filter((m) => m.status === 'ready').slice(0, CHECK_IN_MATCHES)) {
      const line = say('telegram.bot.checkInMatch', { round: match.round, title: match.tournament.title });
      const result = await checkInToMatch(db, match._id, account.userId);
      if (result.ok) done.push(line);
      else if (result.reason === 'already') already.push(line);
    }
    const lines: string[] = [];
    if (done.length > 0) lines.push(say('telegram.bot.checkedIn', { list: done.map((l) => `• ${l}`).join('\n') }));
    if (already.length > 0) lines.push(say('telegram.bot.alreadyIn', { list: already.map((l) => `• ${l}`).join('\n') }));
    await ctx.reply(lines.length > 0 ? lines.join('\n\n') : say('telegram.bot.noCheckIn'));
  });

  // Anything else in a private chat (an unknown command, a word) gets the help.
  privateOnly.on('message', async (ctx) => {
    const { say } = await who(ctx);
    await ctx.reply(say('telegram.bot.help'));
  });

  bot.catch((error) => console.error('[telegram] оновлення не оброблено:', error.error));
}

export interface TelegramOptions extends TelegramBotOptions {
  webhookSecret: string;
  siteUrl: string;
  db: Database;
}

/** The bot with its commands installed: it calls Telegram only once `start` (runtime) or a test initialises it. */
export function createTelegram(options: TelegramOptions): Telegram {
  const bot = makeBot(options);
  installCommands(bot, options.db, options.siteUrl);
  return { bot, webhookSecret: options.webhookSecret, siteUrl: options.siteUrl };
}

/**
 * Starts taking updates (runtime, once per process): asks getMe who the bot is, trying again every
 * 30 s while Telegram cannot be reached (the site starts anyway; linking waits for the name), then
 * registers the webhook with its secret, or polls. Polling is for one instance only: Telegram
 * refuses a second `getUpdates` at once, so a site run on several instances sets a public
 * SITE_URL (webhook). Returns what stops it.
 */
export function startTelegram(telegram: Telegram, mode: 'webhook' | 'polling'): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = async () => {
    try {
      await telegram.bot.init();
      if (stopped) return;
      if (mode === 'webhook') {
        await telegram.bot.api.setWebhook(`${telegram.siteUrl}/api/telegram/webhook`, { secret_token: telegram.webhookSecret, allowed_updates: ['message'] });
        console.error(`[telegram] бот @${telegram.bot.botInfo.username} приймає оновлення через вебхук`);
      } else {
        // bot.start removes a webhook set before, then polls until stopped; its errors end polling, so they are logged.
        void telegram.bot.start({ allowed_updates: ['message'] }).catch((error: unknown) => console.error('[telegram] опитування зупинилося:', error));
        console.error(`[telegram] бот @${telegram.bot.botInfo.username} опитує Telegram (лише один екземпляр сайту)`);
      }
    } catch (error) {
      console.error('[telegram] Telegram не відповідає, спробую за 30 с:', (error as Error).message);
      if (!stopped) timer = setTimeout(() => void attempt(), 30_000);
    }
  };
  void attempt();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (telegram.bot.isRunning()) void telegram.bot.stop().catch(() => {});
  };
}
