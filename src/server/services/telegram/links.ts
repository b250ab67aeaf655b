/**
 * Linking a user's account with their Telegram (issue 60, decision 043). The cabinet asks for a
 * one-time token (random, kept only as its SHA-256, 15 minutes, one per user: a new one replaces
 * the old) and opens `t.me/<bot>?start=<token>`; the bot's `/start <token>` links the chat it came
 * from, once. A Telegram user linked to another account is refused, never moved: moving it would
 * let whoever holds a token take over another account's notices and commands.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.ts';
import { telegramLinks, telegramLinkTokens, users } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../db-errors.ts';

/** How long a link token is valid. */
export const LINK_TOKEN_MS = 15 * 60_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token as Telegram's deep link carries it: `start` takes 1–64 of A–Z, a–z, 0–9, _ and -. */
export const isLinkToken = (value: string): boolean => /^[\w-]{32,64}$/.test(value);

/** Makes the user's link token (replacing any older one) and returns it; only its hash is kept. */
export async function newLinkToken(db: Tx, userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  const row = { userId, tokenHash: hashOf(token), expiresAt: new Date(now.getTime() + LINK_TOKEN_MS), createdAt: now };
  await db.insert(telegramLinkTokens).values(row).onConflictDoUpdate({ target: telegramLinkTokens.userId, set: row });
  return token;
}

/** Who wrote to the bot: their Telegram user id (also their private chat's), and the name to show. */
export interface TelegramPerson {
  chatId: number;
  name: string;
}

export type LinkResult = { ok: true; username: string } | { ok: false; reason: 'badToken' | 'taken' };

/**
 * Links `person` to the account whose token this is, using the token up: an unknown, used or
 * expired token links nothing, and a Telegram user linked to another account is refused. Linking
 * the same account again from another chat moves the account to the new chat.
 */
export async function linkByToken(db: Database, token: string, person: TelegramPerson, now = new Date()): Promise<LinkResult> {
  if (!isLinkToken(token)) return { ok: false, reason: 'badToken' };
  try {
    return await db.transaction(async (tx): Promise<LinkResult> => {
      // Deleting it first uses it up whatever follows: a token works once even when two chats race.
      const [used] = await tx
        .delete(telegramLinkTokens)
        .where(and(eq(telegramLinkTokens.tokenHash, hashOf(token)), gt(telegramLinkTokens.expiresAt, now)))
        .returning({ userId: telegramLinkTokens.userId });
      if (!used) return { ok: false, reason: 'badToken' };
      const [holder] = await tx.select({ userId: telegramLinks.userId }).from(telegramLinks).where(eq(telegramLinks.chatId, person.chatId));
      if (holder && holder.userId !== used.userId) return { ok: false, reason: 'taken' };
      const row = { userId: used.userId, chatId: person.chatId, username: person.name.slice(0, 100), linkedAt: now };
      await tx.insert(telegramLinks).values(row).onConflictDoUpdate({ target: telegramLinks.userId, set: row });
      const [user] = await tx.select({ username: users.username }).from(users).where(eq(users.id, used.userId));
      return { ok: true, username: user?.username ?? '' };
    });
  } catch (error) {
    // Another account linked this chat in the same moment.
    if (isUniqueViolation(error)) return { ok: false, reason: 'taken' };
    throw error;
  }
}

/** The account a chat is linked to, with its language; null for a chat linked to none. */
export async function accountOfChat(db: Tx, chatId: number) {
  const [row] = await db
    .select({ userId: telegramLinks.userId, locale: users.locale, username: users.username, role: users.role })
    .from(telegramLinks)
    .innerJoin(users, eq(users.id, telegramLinks.userId))
    .where(eq(telegramLinks.chatId, chatId));
  return row ?? null;
}

/** The user's link as the cabinet shows it: the Telegram name and since when; null when not linked. */
export async function linkOf(db: Tx, userId: string): Promise<{ username: string; linkedAt: Date } | null> {
  const [row] = await db
    .select({ username: telegramLinks.username, linkedAt: telegramLinks.linkedAt })
    .from(telegramLinks)
    .where(eq(telegramLinks.userId, userId));
  return row ?? null;
}

/** Unlinks the user (their waiting messages with it); false when they were not linked. */
export async function unlinkUser(db: Tx, userId: string): Promise<boolean> {
  const gone = await db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)).returning({ userId: telegramLinks.userId });
  await db.delete(telegramLinkTokens).where(eq(telegramLinkTokens.userId, userId));
  return gone.length > 0;
}

/** Unlinks whatever account a chat is linked to (`/stop`, or the bot blocked); false when none was. */
export async function unlinkChat(db: Tx, chatId: number): Promise<boolean> {
  const gone = await db.delete(telegramLinks).where(eq(telegramLinks.chatId, chatId)).returning({ userId: telegramLinks.userId });
  return gone.length > 0;
}
