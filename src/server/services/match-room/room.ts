/**
 * A match room's private part (issue 58): what its people read (`GET /api/matches/{id}/room`: their
 * side, the check-in, the lobby details) and the lobby details an organiser, or the host side when
 * the higher seed hosts (`tournaments.lobby_host`), puts on the match. The details never leave the
 * room: no public answer, held page, embed or share card reads `match_rooms`.
 */
import { eq } from 'drizzle-orm';
import type { RoomView } from '../../../lib/api/match-room.ts';
import { isFinished } from '../../../lib/domain/tournament-status.ts';
import type { Database, Tx } from '../../db/client.ts';
import { together } from '../../db/together.ts';
import { matchRooms, users } from '../../db/schema/index.ts';
import { lockedView } from '../competition/stages/match-changes.ts';
import type { Organiser } from '../competition/staff.ts';
import type { LockedMatch } from '../competition/stages/store.ts';
import { publishing } from '../live/live.ts';
import { actionWrite } from '../match-day/match-actions.ts';
import { checkInView, closeDueCheckIns } from './check-in.ts';
import { higherSeed, roomPerson } from './people.ts';

export type RoomRefusal = 'notFound' | 'outsider';

/** Whether the reader may set the lobby details: an organiser, or the host side's people when the higher seed hosts. */
function hosts(found: LockedMatch, person: { slot: 'a' | 'b' | null; organiser: boolean }): boolean {
  if (person.organiser) return true;
  return found.tournament.lobbyHost === 'higherSeed' && person.slot !== null && person.slot === higherSeed(found);
}

/** `GET /api/matches/{id}/room`: the room as one of its people sees it. */
export async function readRoom(
  db: Database,
  matchId: string,
  user: Organiser,
  now = new Date(),
): Promise<{ ok: true; room: RoomView } | { ok: false; reason: RoomRefusal }> {
  const person = await roomPerson(db, matchId, user);
  if (!person.ok) return person;
  // A check-in whose time ran out is ended before it is shown, not at the next sweep.
  const ended = await closeDueCheckIns(db, now, matchId);
  const again = ended > 0 ? await roomPerson(db, matchId, user) : person;
  if (!again.ok) return again;
  const { found, slot, organiser } = again;
  const [[lobby], checkIn] = await Promise.all([
    db
      .select({ text: matchRooms.lobby, at: matchRooms.lobbyAt, by: users.username })
      .from(matchRooms)
      .leftJoin(users, eq(users.id, matchRooms.lobbyBy))
      .where(eq(matchRooms.matchId, matchId)),
    checkInView(db, found),
  ]);
  return {
    ok: true,
    room: {
      side: slot,
      organiser,
      lobby: { text: lobby?.text ?? '', at: lobby?.at?.toISOString() ?? null, by: lobby?.by ?? null, editable: hosts(found, again) },
      checkIn,
    },
  };
}

/** Who may set the match's lobby details, asked before a request's body is read: null when `user` may. */
export async function lobbyHostRefusal(db: Tx, matchId: string, user: Organiser): Promise<'notFound' | 'outsider' | 'notHost' | null> {
  const person = await roomPerson(db, matchId, user);
  if (!person.ok) return person.reason;
  return hosts(person.found, person) ? null : 'notHost';
}

export type LobbyRefusal = RoomRefusal | 'notHost' | 'finished' | 'decided';
export type LobbyDone = { ok: true; tournamentId: string; text: string } | { ok: false; reason: LobbyRefusal };

async function putLobby(db: Tx, matchId: string, user: Organiser, text: string, now = new Date()): Promise<LobbyDone> {
  return db.transaction(async (tx): Promise<LobbyDone> => {
    const person = await roomPerson(tx, matchId, user);
    if (!person.ok) return person;
    const { found, slot } = person;
    if (!hosts(found, person)) return { ok: false, reason: 'notHost' };
    if (isFinished(found.tournament.status)) return { ok: false, reason: 'finished' };
    if (lockedView(found).match.status === 'completed') return { ok: false, reason: 'decided' };
    await tx
      .insert(matchRooms)
      .values({ matchId, lobby: text, lobbyBy: user.id, lobbyAt: now })
      .onConflictDoUpdate({ target: matchRooms.matchId, set: { lobby: text, lobbyBy: user.id, lobbyAt: now } });
    // The history says that they changed, never what they are: it is public.
    await together(tx, [actionWrite({ matchId, kind: 'lobby', userId: user.id, side: person.organiser ? null : slot })]);
    return { ok: true, tournamentId: found.tournament.id, text };
  });
}

/** `PUT /api/matches/{id}/lobby`: the room's people read the new details (`room`: they read them with their token). */
export const setLobby = publishing(putLobby, (done, _db, matchId) => ({ tournamentId: done.tournamentId, kind: 'room', matchId }));
