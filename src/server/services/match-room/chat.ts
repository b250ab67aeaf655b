/**
 * A match's chat (issue 58, decision 038): the people of its two sides and the tournament's
 * organisers talk in it, each message marked with the side it was written for (or none: an
 * organiser). Who may read and write is `roomPerson`'s answer; the limits, the `after` cursor and the
 * ETag are the team chat's (teams/chat.ts).
 *
 * A message is told to the room's people alone, on their own event streams (`matchChat` with the
 * match's id): the tournament's stream is public, and a chat is not. An organiser who is of neither
 * side and writes while a side's call is open answers that call, as `answerCall` does.
 */
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { MatchChatMessage } from '../../../lib/api/match-chat.ts';
import type { Slot } from '../../../lib/domain/stage/format.ts';
import type { Tx } from '../../db/client.ts';
import { matchMessages, stageMatches, teamMembers, users } from '../../db/schema/index.ts';
import { avatarUrl } from '../accounts/avatars.ts';
import { lockedView } from '../competition/stages/match-changes.ts';
import type { LockedMatch } from '../competition/stages/store.ts';
import { organiserIds } from '../competition/staff.ts';
import { publishing, publishUsers } from '../live/live.ts';
import { answerCallIn } from '../match-day/match-calls.ts';
import { CHAT_HISTORY_LIMIT, CHAT_PAGE_LIMIT, type ChatCursor } from '../teams/chat.ts';
import type { RoomPerson } from './people.ts';

/** A person of the room, as `roomPerson` let them in. */
export type RoomMember = Extract<RoomPerson, { ok: true }>;

/** The author of a new message: what the answer shows of them. */
export interface ChatAuthor {
  id: string;
  username: string;
  avatarImageId: string | null;
}

/** What a read needs before it may answer (even 304): the chat's newest message, and whether the cursor's message is in it. */
export interface MatchChatPoll {
  /** Id of the newest message, or null for an empty chat: the chat's version. */
  newestId: string | null;
  /** Whether a message cursor names a message of this match's chat (true without one). */
  cursorKnown: boolean;
}

/** The chat's newest message, and whether `cursorId` (a message cursor) is one of this chat's. */
export async function matchChatPoll(db: Tx, matchId: string, cursorId: string | null): Promise<MatchChatPoll> {
  const [newest] = await db
    .select({ id: matchMessages.id })
    .from(matchMessages)
    .where(eq(matchMessages.matchId, matchId))
    .orderBy(desc(matchMessages.createdAt), desc(matchMessages.id))
    .limit(1);
  if (!cursorId || cursorId === newest?.id) return { newestId: newest?.id ?? null, cursorKnown: true };
  const [known] = await db
    .select({ id: matchMessages.id })
    .from(matchMessages)
    .where(and(eq(matchMessages.id, cursorId), eq(matchMessages.matchId, matchId)));
  return { newestId: newest?.id ?? null, cursorKnown: Boolean(known) };
}

const messageColumns = {
  id: matchMessages.id,
  message: matchMessages.message,
  createdAt: matchMessages.createdAt,
  slot: matchMessages.slot,
  author: { id: users.id, username: users.username, avatarImageId: users.avatarImageId },
};

interface MessageRow {
  id: string;
  message: string;
  createdAt: Date;
  slot: Slot | null;
  author: ChatAuthor | null;
}

const presentMessage = (row: MessageRow): MatchChatMessage => ({
  _id: row.id,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
  userId: row.author ? { _id: row.author.id, username: row.author.username, avatar: avatarUrl(row.author.id, row.author.avatarImageId) } : null,
  as: row.slot ?? 'organiser',
});

/** The match's chat oldest first: the latest messages, or those after the cursor (as the team chat reads). */
export async function matchChatHistory(db: Tx, matchId: string, cursor: ChatCursor | null): Promise<MatchChatMessage[]> {
  const base = db.select(messageColumns).from(matchMessages).leftJoin(users, eq(users.id, matchMessages.userId));
  if (!cursor) {
    const latest = await base
      .where(eq(matchMessages.matchId, matchId))
      .orderBy(desc(matchMessages.createdAt), desc(matchMessages.id))
      .limit(CHAT_HISTORY_LIMIT);
    return latest.reverse().map(presentMessage);
  }
  const after =
    cursor.kind === 'time'
      ? gt(matchMessages.createdAt, cursor.at)
      : // Against the cursor's own stored values: exact, whatever the clock's precision.
        sql`(${matchMessages.createdAt}, ${matchMessages.id}) > (select m.created_at, m.id from ${matchMessages} m where m.id = ${cursor.id})`;
  const rows = await base
    .where(and(eq(matchMessages.matchId, matchId), after))
    .orderBy(asc(matchMessages.createdAt), asc(matchMessages.id))
    .limit(CHAT_PAGE_LIMIT);
  return rows.map(presentMessage);
}

/**
 * Everyone a message is told to: the people of both sides (the players, or every member of the
 * teams), the tournament's organisers, and the site's admins, who organise every tournament.
 */
async function roomPeopleIds(db: Tx, found: LockedMatch): Promise<string[]> {
  const { match } = lockedView(found);
  const sides = [match.a, match.b].filter((id): id is string => id !== null);
  const players = found.tournament.soloOnly
    ? sides
    : sides.length === 0
      ? []
      : (await db.select({ id: teamMembers.userId }).from(teamMembers).where(inArray(teamMembers.teamId, sides))).map((r) => r.id);
  const [organisers, admins] = await Promise.all([
    organiserIds(db, found.tournament.id),
    db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')),
  ]);
  return [...new Set([...players, ...organisers, ...admins.map((r) => r.id)])];
}

export type PostDone = { ok: true; tournamentId: string; message: MatchChatMessage; answeredCall: boolean; told: string[] };

/**
 * Stores a message (trimmed and checked already) of a person of the room, as their side, or as an
 * organiser when they are of neither. Such an organiser's message answers the match's open call
 * (`answerCallIn`, in the same transaction). Returns the message as the API shows it.
 */
async function post(db: Tx, matchId: string, person: RoomMember, author: ChatAuthor, message: string): Promise<PostDone> {
  const answersCalls = person.slot === null && person.organiser;
  const done = await db.transaction(async (tx) => {
    let answeredCall = false;
    if (answersCalls) {
      // Read here, not from the match as the room found it: a call moves no version, so a held copy may be older.
      const [row] = await tx.select({ calledAt: stageMatches.calledAt }).from(stageMatches).where(eq(stageMatches.id, matchId));
      if (row?.calledAt) answeredCall = (await answerCallIn(tx, matchId, author)).ok;
    }
    // Millisecond time, as the API shows it, so an `after` time taken from a message is exact.
    const [row] = await tx
      .insert(matchMessages)
      .values({ matchId, userId: author.id, slot: person.slot, message, createdAt: new Date() })
      .returning({ id: matchMessages.id, message: matchMessages.message, createdAt: matchMessages.createdAt, slot: matchMessages.slot });
    return { answeredCall, message: presentMessage({ ...row!, author }), told: await roomPeopleIds(tx, person.found) };
  });
  return { ok: true, tournamentId: person.found.tournament.id, ...done };
}

/**
 * `POST /api/matches/{id}/chat`: the message, told at once to the room's people's own streams; an
 * answered call is told to the control room as `answerCall` tells it (the `call` event, ids only).
 */
export const postMatchMessage = publishing(
  async (...args: Parameters<typeof post>) => {
    const done = await post(...args);
    publishUsers(done.told, 'matchChat', args[1]);
    return done;
  },
  (done, _db, matchId) => (done.answeredCall ? { tournamentId: done.tournamentId, kind: 'call', matchId } : null),
);
