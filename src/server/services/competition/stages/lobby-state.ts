import { eq } from 'drizzle-orm';
import type { LobbyState } from '../../../../lib/api/stages.ts';
import { ffaSettingsOf } from '../../../../lib/domain/stage/format.ts';
import type { Tx } from '../../../db/client.ts';
import { stageLobbies, stages, tournaments } from '../../../db/schema/index.ts';
import { approvedParticipants } from '../../match-day/participants.ts';
import { lobbyView } from './ffa-views.ts';
import { stagesAt } from './store.ts';

/*
 * One free-for-all lobby as its page shows it (issue 59, `GET /api/lobbies/{id}`): read, never
 * written, here. The games are entered under the lobby's id as a match's (lobbies.ts).
 */

/** A lobby with its tournament, stage and round, its table and confirmed games, and its members' names; null when there is no such lobby. */
export async function findLobby(db: Tx, lobbyId: string): Promise<LobbyState | null> {
  const [found] = await db
    .select({ tournament: tournaments, stageId: stageLobbies.stageId })
    .from(stageLobbies)
    .innerJoin(stages, eq(stages.id, stageLobbies.stageId))
    .innerJoin(tournaments, eq(tournaments.id, stages.tournamentId))
    .where(eq(stageLobbies.id, lobbyId));
  if (!found) return null;
  const { tournament } = found;
  // The stages at the competition version just read: kept ones when nothing changed since.
  const loaded = (await stagesAt(db, tournament, false)).find((s) => s.stage.id === found.stageId);
  const lobby = loaded?.lobbies.find((l) => l.row.id === lobbyId);
  // Gone between the two reads (its stage replaced): no such lobby any more.
  if (!loaded || !lobby) return null;
  const settings = ffaSettingsOf(loaded.stage.settings);
  const round = lobby.row.round;
  const inRound = loaded.lobbies.filter((l) => l.row.round === round).length;
  const participants = await approvedParticipants(db, tournament, { only: lobby.row.members });
  return {
    tournament: {
      _id: tournament.id,
      title: tournament.title,
      soloOnly: tournament.soloOnly,
      timeZone: tournament.timeZone,
      status: tournament.status,
      organisation: tournament.organisationId,
    },
    stage: {
      _id: loaded.stage.id,
      number: loaded.stage.number,
      name: loaded.stage.name,
      games: settings.games,
      points: { placement: [...settings.points.placement], kill: settings.points.kill },
      round,
      lobbies: inRound,
      // A round of one lobby is the last: the final, which decides the places.
      final: inRound === 1,
      current: !loaded.lobbies.some((l) => l.row.round > round),
    },
    lobby: lobbyView(loaded, lobby),
    participants,
  };
}
