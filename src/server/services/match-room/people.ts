/**
 * Who belongs in a match's room (issue 58): the people of its two sides and the tournament's
 * organisers. A side's people are its player, or every member of its team (the captain acts for it
 * in the veto and the reports, match-actions.ts `actingSide`; anyone of the team may check in, read
 * the lobby, chat and add evidence). Everyone else is an outsider: the room's private parts answer
 * them 403, and a guest's page never holds them.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { seedNumber } from '../../../lib/domain/stage/build.ts';
import type { Slot } from '../../../lib/domain/stage/format.ts';
import type { Tx } from '../../db/client.ts';
import { teamMembers } from '../../db/schema/index.ts';
import { lockedView } from '../competition/stages/match-changes.ts';
import { isOrganiser, type Organiser } from '../competition/staff.ts';
import { locate, readTournamentOfMatch, stagesAt, type LockedMatch } from '../competition/stages/store.ts';

/** The match among its tournament's stages, read without a lock. */
export async function findRoomMatch(db: Tx, matchId: string): Promise<LockedMatch | null> {
  const [tournament] = await readTournamentOfMatch(db).execute({ matchId });
  return tournament ? locate(tournament, await stagesAt(db, tournament, false), matchId) : null;
}

/** The side whose people `userId` is among (the player; any member of the team), or null. */
export async function sideOfPerson(db: Tx, found: LockedMatch, userId: string): Promise<Slot | null> {
  const { match } = lockedView(found);
  if (found.tournament.soloOnly) return match.a === userId ? 'a' : match.b === userId ? 'b' : null;
  const teamIds = [match.a, match.b].filter((id): id is string => id !== null);
  if (teamIds.length === 0) return null;
  const rows = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.userId, userId), inArray(teamMembers.teamId, teamIds)));
  const teams = new Set(rows.map((r) => r.teamId));
  return match.a && teams.has(match.a) ? 'a' : match.b && teams.has(match.b) ? 'b' : null;
}

/** The side seeded higher in the match's stage (`seedNumber`), or null when the seeds cannot tell. */
export function higherSeed(found: LockedMatch): Slot | null {
  const { match } = lockedView(found);
  if (!match.a || !match.b) return null;
  const a = seedNumber(found.loaded.stage, match.a);
  const b = seedNumber(found.loaded.stage, match.b);
  if (!a || !b || a === b) return null;
  return a < b ? 'a' : 'b';
}

/** A person of the room: the side they belong to, or null for an organiser of neither side. */
export type RoomPerson = { ok: true; found: LockedMatch; slot: Slot | null; organiser: boolean } | { ok: false; reason: 'notFound' | 'outsider' };

/** Whether `user` belongs in the match's room, and as whom. A side's person who also organises is both. */
export async function roomPerson(db: Tx, matchId: string, user: Organiser, known?: LockedMatch): Promise<RoomPerson> {
  const found = known ?? (await findRoomMatch(db, matchId));
  if (!found) return { ok: false, reason: 'notFound' };
  const [slot, organiser] = await Promise.all([sideOfPerson(db, found, user.id), isOrganiser(db, user, found.tournament.id)]);
  if (!slot && !organiser) return { ok: false, reason: 'outsider' };
  return { ok: true, found, slot, organiser };
}
