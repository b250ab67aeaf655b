import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { ChatMessage } from '../../../lib/api/chat.ts';
import { isSupportedMoment } from '../../../lib/api/input.ts';
import type { Database, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import type { Limit } from '../rate-limit.ts';
import { chatMessages, teamMembers, teams, users } from '../../db/schema/index.ts';
import { presentPerson, teamChatSignal } from './teams.ts';
import { forgetChat } from './held-chats.ts';

/** Messages one player may send per minute, across all their chats (their teams', their matches'). */
export const CHAT_LIMIT: Limit = { max: 30, windowSeconds: 60 };

/** Messages sent when the client has none yet: the latest ones. */
export const CHAT_HISTORY_LIMIT = 100;
/** Most messages one answer carries after a cursor. */
export const CHAT_PAGE_LIMIT = 200;

/** Where the client's copy of the chat ends: after a message, or after a moment. */
export type ChatCursor = { kind: 'message'; id: string } | { kind: 'time'; at: Date };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Reads `after`: a message id or an ISO 8601 time with a zone; null when it is neither. */
export function parseCursor(after: string): ChatCursor | null {
  if (UUID.test(after)) return { kind: 'message', id: after.toLowerCase() };
  if (ISO_TIME.test(after) && isSupportedMoment(after)) return { kind: 'time', at: new Date(after) };
  return null;
}

/** What a chat poll needs to know before it can answer (even 304). */
export interface ChatPoll {
  /** Whether the reader is a member of the team. */
  member: boolean;
  /** Id of the team's newest message, or null for an empty chat: the chat's version, cheap to read. */
  newestId: string | null;
  /** Whether the cursor's message is in this team's chat (true when there is no message cursor). */
  cursorKnown: boolean;
  /**
   * After a message cursor, for a member: the messages after it, oldest first, read in the same
   * round trip (`chatHistory`'s answer). Most polls of an active chat find something new, and a
   * second statement for it was a third of the main thread's statements under the load mix.
   */
  after?: ChatMessage[];
}

/**
 * One round trip for a chat poll: whether the team exists (undefined when not), whether the reader
 * is a member, the newest message id, and whether a message cursor belongs to this chat; after a
 * message cursor, the messages after it too.
 */
export async function chatPoll(db: Database, teamId: string, userId: string, cursorId: string | null): Promise<ChatPoll | undefined> {
  if (cursorId) {
    const [row] = await pollAfterMessage(db).execute({ teamId, userId, cursorId });
    if (!row) return undefined;
    const member = row.member !== null;
    const after = member && row.cursorKnown ? (row.after ?? []).map((m) => presentMessage({ ...m, createdAt: new Date(m.createdAt) })) : undefined;
    return { member, newestId: row.newestId, cursorKnown: row.cursorKnown, ...(after ? { after } : {}) };
  }
  const [row] = await pollStatement(db).execute({ teamId, userId });
  if (!row) return undefined;
  return { member: row.member !== null, newestId: row.newestId, cursorKnown: row.cursorKnown };
}

/** A message as the poll's JSON carries it (`json_build_object`): its time as text. */
type MessageJson = Omit<MessageRow, 'createdAt'> & { createdAt: string };

/**
 * A poll's statement, prepared (db/prepared.ts) as `name`: every open chat sends one every few
 * seconds. The team's row with the reader's membership and its newest message, and `extra`.
 */
const pollOf = <F extends SelectedFields>(db: Database, name: string, extra: F) => {
  const newest = db.select({ id: chatMessages.id }).from(chatMessages).where(eq(chatMessages.teamId, teams.id)).orderBy(desc(chatMessages.createdAt), desc(chatMessages.id)).limit(1);
  return db
    .select({ member: teamMembers.userId, newestId: sql<string | null>`(${newest})`, ...extra })
    .from(teams)
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, sql.placeholder('userId'))))
    .where(eq(teams.id, sql.placeholder('teamId')))
    .prepare(name);
};

/** `chatPoll`'s statement without a cursor. */
const pollStatement = prepared((db) => pollOf(db, 'chat_poll', { cursorKnown: sql<boolean>`true` }));

/**
 * `chatPoll`'s statement after a message cursor: the poll's answers and, for a member whose cursor
 * is in this chat, the messages after it as `chatHistory` reads them (the same order and limit).
 */
const pollAfterMessage = prepared((db) => {
  const cursor = sql.placeholder('cursorId');
  const known = sql<boolean>`exists(${db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.id, cursor), eq(chatMessages.teamId, teams.id)))})`;
  const after = sql<MessageJson[] | null>`case when ${teamMembers.userId} is not null then (
    select json_agg(json_build_object('id', m.id, 'message', m.message, 'createdAt', m.created_at, 'author',
      case when m.author_id is null then null else json_build_object('id', m.author_id, 'username', m.username, 'email', m.email, 'avatarImageId', m.avatar_image_id) end)
      order by m.created_at, m.id)
    from (
      select c.id, c.message, c.created_at, u.id as author_id, u.username, u.email, u.avatar_image_id
      from ${chatMessages} c left join ${users} u on u.id = c.user_id
      where c.team_id = ${teams.id} and (c.created_at, c.id) > (select k.created_at, k.id from ${chatMessages} k where k.id = ${cursor} and k.team_id = ${teams.id})
      order by c.created_at, c.id
      limit ${sql.raw(String(CHAT_PAGE_LIMIT))}
    ) m) end`;
  return pollOf(db, 'chat_poll_with_messages', { cursorKnown: known, after });
});

/**
 * The ETag of one answer: the newest message and the cursor asked with. Messages are never
 * edited, so while no new one arrives the same request gets the same tag.
 */
export function chatEtag(newestId: string | null, after: string | undefined): string {
  const digest = createHash('sha256')
    .update(`${newestId ?? 'empty'}|${after ?? ''}`)
    .digest('base64url')
    .slice(0, 22);
  return `"chat-${digest}"`;
}

/** Whether an If-None-Match header names `etag` (weak or strong, one of several, or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}

const messageColumns = {
  id: chatMessages.id,
  message: chatMessages.message,
  createdAt: chatMessages.createdAt,
  author: { id: users.id, username: users.username, email: users.email, avatarImageId: users.avatarImageId },
};
type MessageRow = {
  id: string;
  message: string;
  createdAt: Date;
  author: { id: string; username: string; email: string; avatarImageId: string | null } | null;
};

const presentMessage = (row: MessageRow): ChatMessage => ({
  _id: row.id,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
  userId: row.author ? presentPerson(row.author) : null,
});

/** The chat oldest first: the latest messages, or those after the cursor. */
export async function chatHistory(db: Tx, teamId: string, cursor: ChatCursor | null): Promise<ChatMessage[]> {
  const base = db.select(messageColumns).from(chatMessages).leftJoin(users, eq(users.id, chatMessages.userId));
  if (!cursor) {
    const latest = await base
      .where(eq(chatMessages.teamId, teamId))
      .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
      .limit(CHAT_HISTORY_LIMIT);
    return latest.reverse().map(presentMessage);
  }
  const after =
    cursor.kind === 'time'
      ? gt(chatMessages.createdAt, cursor.at)
      : // Row comparison against the cursor's own stored values: exact, whatever the clock precision.
        sql`(${chatMessages.createdAt}, ${chatMessages.id}) > (select c.created_at, c.id from ${chatMessages} c where c.id = ${cursor.id})`;
  const rows = await base
    .where(and(eq(chatMessages.teamId, teamId), after))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
    .limit(CHAT_PAGE_LIMIT);
  return rows.map(presentMessage);
}

/** Stores a message (already trimmed and checked), tells the team's open pages, and returns it as the API shows it. */
export async function postMessage(db: Tx, teamId: string, author: { id: string; username: string; email: string; avatarImageId: string | null }, message: string): Promise<ChatMessage> {
  // Millisecond time, as the API shows it, so an `after` time taken from a message is exact.
  // One statement: the message and the signal to the other members' chats (read at once instead of
  // at their next 6 s tick) commit together, with no transaction around them.
  const [row] = await db
    .insert(chatMessages)
    .values({ teamId, userId: author.id, message, createdAt: new Date() })
    .returning({ id: chatMessages.id, message: chatMessages.message, createdAt: chatMessages.createdAt, signal: teamChatSignal(teamId) });
  // Its signal forgets the chat on every instance, this one too, but a member's next poll may come first.
  forgetChat(teamId);
  return presentMessage({ ...row!, author });
}
