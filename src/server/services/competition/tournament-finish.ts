/**
 * The `tournamentFinished` notice (issue 22): when a tournament becomes finished, every
 * participant hears their place — the player, or each member (captain included) of a team.
 */
import { inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { teamMembers, teams, type tournaments } from '../../db/schema/index.ts';
import { announce, type Notice } from '../notices/notices.ts';
import { approvedParticipants } from '../match-day/participants.ts';
import { tournamentStandings } from './stages/standings.ts';
import { getTournament } from './tournaments.ts';
import { tellOrganisation } from '../integrations/events.ts';

type FinishedTournament = Pick<typeof tournaments.$inferSelect, 'id' | 'title' | 'soloOnly'>;

/**
 * Announces the finish to each participant with their place from the stages' standings ("1",
 * "3–4"), or none when the stages do not place them. Call it in the transaction that turns the
 * status to finished, under the tournament's row lock, so one finish is announced once.
 */
export async function announceFinished(tx: Tx, tournament: FinishedTournament): Promise<void> {
  // The organisation's channels hear of the champion (issue 60), in the same transaction.
  await tellOrganisation(tx, tournament.id, 'tournament.finished', { champion: (await getTournament(tx, tournament.id))?.winner?.name ?? null });
  const participants = await approvedParticipants(tx, tournament);
  if (participants.length === 0) return;
  const standings = await tournamentStandings(tx, tournament.id);
  const places = new Map((standings?.placements ?? []).map((p) => [p.participant, p.from === p.to ? String(p.from) : `${p.from}–${p.to}`]));
  const ids = participants.map((p) => p._id);
  // Whom each participant stands for: the player, or the team's members and its captain.
  const readers = new Map<string, string>(); // user → participant
  if (tournament.soloOnly) {
    for (const id of ids) readers.set(id, id);
  } else {
    const [members, captains] = await Promise.all([
      tx.select({ teamId: teamMembers.teamId, userId: teamMembers.userId }).from(teamMembers).where(inArray(teamMembers.teamId, ids)),
      tx.select({ teamId: teams.id, userId: teams.captainId }).from(teams).where(inArray(teams.id, ids)),
    ]);
    for (const { teamId, userId } of [...captains, ...members]) if (userId && !readers.has(userId)) readers.set(userId, teamId);
  }
  const notices: Notice[] = [...readers].map(([userId, participant]) => {
    const place = places.get(participant);
    return {
      userId,
      kind: 'tournamentFinished',
      params: { tournament: tournament.title, ...(place ? { place } : {}) },
      link: `/tournaments/${tournament.id}`,
      tournamentId: tournament.id,
    };
  });
  await announce(tx, notices);
}
