import type { LobbyView } from '../../../../lib/api/stages.ts';
import { ffaSettingsOf } from '../../../../lib/domain/stage/format.ts';
import { ffaPlacements, lobbyTable, type FfaLine, type LobbyRow } from '../../../../lib/domain/stage/free-for-all.ts';
import type { Placement } from '../../../../lib/domain/stage/standings.ts';
import type { LoadedLobby, LoadedStage } from './store.ts';

/* A free-for-all stage's lobbies as tables, places and views (issue 59): read, never written, here. */

/** The confirmed games of a lobby, as lines by game (a game not entered yet is left out). */
const confirmedGames = (lobby: LoadedLobby): FfaLine[][] => lobby.games.filter((g) => g.state === 'confirmed').map((g) => g.lines);

/** A lobby's table over its confirmed games. */
export const tableOf = (stage: LoadedStage, lobby: LoadedLobby): LobbyRow[] =>
  lobbyTable(lobby.row.members, confirmedGames(lobby), ffaSettingsOf(stage.stage.settings).points);

/** Whether a free-for-all stage is over: its last round is one lobby, and that lobby played all its games. */
export function ffaFinished(loaded: LoadedStage): boolean {
  const lastRound = Math.max(0, ...loaded.lobbies.map((l) => l.row.round));
  const final = loaded.lobbies.filter((l) => l.row.round === lastRound);
  return final.length === 1 && final[0]!.row.completedAt !== null;
}

/** A finished free-for-all stage's places; none before. */
export function ffaStagePlacements(loaded: LoadedStage): Placement[] {
  if (!ffaFinished(loaded)) return [];
  const rounds = new Map<number, LobbyRow[][]>();
  for (const lobby of loaded.lobbies) rounds.set(lobby.row.round, [...(rounds.get(lobby.row.round) ?? []), tableOf(loaded, lobby)]);
  return ffaPlacements([...rounds.keys()].sort((x, y) => x - y).map((round) => rounds.get(round)!));
}

/** A lobby as everyone sees it: its members, its confirmed games and its table. */
export function lobbyView(loaded: LoadedStage, lobby: LoadedLobby): LobbyView {
  return {
    _id: lobby.row.id,
    round: lobby.row.round,
    number: lobby.row.number,
    members: lobby.row.members,
    games: lobby.games.filter((g) => g.state === 'confirmed').map((g) => ({ number: g.number, lines: g.lines })),
    table: tableOf(loaded, lobby),
    complete: lobby.row.completedAt !== null,
    scheduledAt: lobby.row.scheduledAt?.toISOString() ?? null,
    version: lobby.row.version,
  };
}
