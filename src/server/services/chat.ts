import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { ChatMessage } from '../../lib/api/chat.ts';
import { isSupportedMoment } from '../../lib/api/input.ts';
import type { Database, Tx } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { chatMessages, teamMembers, teams, users } from '../db/schema/index.ts';
import { presentPerson, teamSignal } from './teams.ts';

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
}

/**
 * One round trip for a chat poll: whether the team exists (undefined when not), whether the reader
 * is a member, the newest message id, and whether a message cursor belongs to this chat.
 */
export async function chatPoll(db: Database, teamId: string, userId: string, cursorId: string | null): Promise<ChatPoll | undefined> {
  const [row] = await (cursorId ? pollAfterMessage(db).execute({ teamId, userId, cursorId }) : pollStatement(db).execute({ teamId, userId }));
  if (!row) return undefined;
  return { member: row.member !== null, newestId: row.newestId, cursorKnown: row.cursorKnown };
}

/** `chatPoll`'s statement, with or without a message cursor to check; prepared (db/prepared.ts): every open chat sends it every few seconds. */
const pollOf = (withCursor: boolean) =>
  prepared((db) => {
    const newest = db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(eq(chatMessages.teamId, teams.id))
      .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
      .limit(1);
    const cursor = withCursor
      ? sql<boolean>`exists(${db
          .select({ id: chatMessages.id })
          .from(chatMessages)
          .where(and(eq(chatMessages.id, sql.placeholder('cursorId')), eq(chatMessages.teamId, teams.id)))})`
      : sql<boolean>`true`;
    return db
      .select({ member: teamMembers.userId, newestId: sql<string | null>`(${newest})`, cursorKnown: cursor })
      .from(teams)
      .leftJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, sql.placeholder('userId'))))
      .where(eq(teams.id, sql.placeholder('teamId')))
      .prepare(withCursor ? 'chat_poll_after_message' : 'chat_poll');
  });
const pollStatement = pollOf(false);
const pollAfterMessage = pollOf(true);

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
    .returning({ id: chatMessages.id, message: chatMessages.message, createdAt: chatMessages.createdAt, signal: teamSignal(teamId) });
  return presentMessage({ ...row!, author });
}
