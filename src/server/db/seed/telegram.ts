/**
 * Telegram in the demo (issue 60, decision 043): KozakSniper linked his Telegram a week ago, so a
 * site started with TELEGRAM_BOT_TOKEN shows his cabinet linked and his notices' Telegram column.
 * The chat id is a made-up one no real Telegram user holds (Telegram's ids stay far below it);
 * with the token unset, Telegram is off and nothing of it shows.
 */
import type { Tx } from '../client.ts';
import { telegramLinks } from '../schema/index.ts';

export const DEMO_TELEGRAM = { nick: 'KozakSniper', chatId: 9_000_000_000_042, username: '@kozak_sniper_ua' } as const;

export async function seedTelegram(tx: Tx, { userId, at }: { userId: (nick: string) => string; at: (days: number) => Date }): Promise<void> {
  await tx
    .insert(telegramLinks)
    .values({ userId: userId(DEMO_TELEGRAM.nick), chatId: DEMO_TELEGRAM.chatId, username: DEMO_TELEGRAM.username, linkedAt: at(-7) });
}
