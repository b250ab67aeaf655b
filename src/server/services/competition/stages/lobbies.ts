import { and, asc, eq, inArray } from 'drizzle-orm';
import type { LobbyView } from '../../../../lib/api/stages.ts';
import { ffaSettingsOf } from '../../../../lib/domain/stage/format.ts';
import { advancers, ffaLobbies, gameProblem, type FfaLine, type GameRefusal } from '../../../../lib/domain/stage/free-for-all.ts';
import { isFinished } from '../../../../lib/domain/tournament-status.ts';
import type { Database, Tx } from '../../../db/client.ts';
import { lobbyGames, stageLobbies, stages, teams, tournaments } from '../../../db/schema/index.ts';
import type { LobbyGameSnapshot } from '../../../../lib/domain/audit.ts';
import { publishing } from '../../live/live.ts';
import { actorsOf } from '../../match-day/match-actions.ts';
import { countLobbyResults } from '../../statistics/stage-stats.ts';
import { recordAudit, type AuditActor, type AuditEntry } from '../audit.ts';
import { isOrganiser, type Organiser } from '../staff.ts';
import { lobbyView, tableOf } from './ffa-views.ts';
import { bumpTournament } from './save.ts';
import { loadStages, type LoadedLobby, type LoadedStage, type TournamentRow } from './store.ts';
import { tellStageMoments } from './tell.ts';

/*
 * Free-for-all lobbies (issue 59, decision 039): a stage's rounds of lobbies, their games and
 * tables. A lobby's id is the match id its games are entered under (`PUT /api/matches/{id}/games/{n}`):
 * the tournament's organisers enter a game as it stands; a lobby's player (a team's captain)
 * proposes one, which waits for an organiser to enter it. A round's last game writes the next
 * round's lobbies; the final's last game finishes the stage.
 */

/** Writes a round's lobbies from its participants in seed order; the organisation's channels hear the round start (issue 60). */
export async function insertLobbies(
  tx: Tx,
  tournament: { id: string; soloOnly: boolean },
  stageId: string,
  round: number,
  ordered: readonly string[],
  lobbySize: number,
): Promise<void> {
  const lobbies = ffaLobbies(ordered, lobbySize);
  await tx.insert(stageLobbies).values(lobbies.map((members, i) => ({ stageId, round, number: i + 1, members })));
  await tellStageMoments(tx, tournament, stageId, { roundsStarted: [round], ready: [], completed: [] });
}

export type GameRefusalReason = 'notFound' | 'finished' | 'noSuchGame' | 'roundOver' | 'notInLobby' | 'alreadyEntered' | GameRefusal;
export type GameEntered =
  | { ok: true; state: 'confirmed' | 'proposed'; tournamentId: string; lobby: LobbyView; version: number }
  | { ok: false; reason: GameRefusalReason; games?: number };

/** The tournament a lobby belongs to, locked so the tournament's writes queue up. */
async function lockTournamentOfLobby(tx: Tx, lobbyId: string): Promise<TournamentRow | undefined> {
  const [row] = await tx
    .select()
    .from(tournaments)
    .where(
      inArray(
        tournaments.id,
        tx.select({ id: stages.tournamentId }).from(stageLobbies).innerJoin(stages, eq(stages.id, stageLobbies.stageId)).where(eq(stageLobbies.id, lobbyId)),
      ),
    )
    .for('update');
  return row;
}

/** Whether `userId` plays in the lobby: as its player, or as the captain of one of its teams. */
async function playsIn(tx: Tx, tournament: TournamentRow, members: readonly string[], userId: string): Promise<boolean> {
  if (tournament.soloOnly) return members.includes(userId);
  const [captain] = await tx
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.captainId, userId), inArray(teams.id, [...members])))
    .limit(1);
  return captain !== undefined;
}

/**
 * Enters game `number` of a lobby (`PUT /api/matches/{id}/games/{n}`): every member once, the
 * placements 1…n. An organiser's entry stands (and replaces a player's proposal or an earlier
 * entry while the round is on); a lobby's player proposes it for the organisers to enter, until
 * it is entered. The round's last game writes the next round's lobbies, each lobby's top going on.
 */
async function writeGame(db: Database, lobbyId: string, number: number, lines: FfaLine[], user: Organiser): Promise<GameEntered> {
  return db.transaction(async (tx): Promise<GameEntered> => {
    const tournament = await lockTournamentOfLobby(tx, lobbyId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    const all = await loadStages(tx, tournament.id);
    const loaded = all.find((s) => s.lobbies.some((l) => l.row.id === lobbyId))!;
    const lobby = loaded.lobbies.find((l) => l.row.id === lobbyId)!;
    const organiser = await isOrganiser(tx, user, tournament.id);
    if (!organiser && !(await playsIn(tx, tournament, lobby.row.members, user.id))) return { ok: false, reason: 'notInLobby' };
    if (isFinished(tournament.status)) return { ok: false, reason: 'finished' };
    const settings = ffaSettingsOf(loaded.stage.settings);
    if (number > settings.games) return { ok: false, reason: 'noSuchGame', games: settings.games };
    if (loaded.lobbies.some((l) => l.row.round > lobby.row.round)) return { ok: false, reason: 'roundOver' };
    const problem = gameProblem(lobby.row.members, lines, new Set(loaded.stage.disqualified));
    if (problem) return { ok: false, reason: problem };
    const existing = lobby.games.find((g) => g.number === number);
    if (!organiser && existing?.state === 'confirmed') return { ok: false, reason: 'alreadyEntered' };
    const state = organiser ? ('confirmed' as const) : ('proposed' as const);
    const ordered = [...lines].sort((x, y) => x.placement - y.placement);
    await tx
      .insert(lobbyGames)
      .values({ lobbyId, number, lines: ordered, state, enteredBy: user.id })
      .onConflictDoUpdate({ target: [lobbyGames.lobbyId, lobbyGames.number], set: { lines: ordered, state, enteredBy: user.id, enteredAt: new Date() } });
    const confirmed = new Set([...lobby.games.filter((g) => g.state === 'confirmed').map((g) => g.number), ...(organiser ? [number] : [])]);
    const complete = confirmed.size >= settings.games;
    await tx
      .update(stageLobbies)
      .set({ version: lobby.row.version + 1, completedAt: complete ? (lobby.row.completedAt ?? new Date()) : null })
      .where(eq(stageLobbies.id, lobbyId));
    if (organiser) await recordAudit(tx, await gameEntry(tx, tournament, loaded, lobby, number, existing, ordered, user));
    let reloaded = await loadStages(tx, tournament.id);
    if (organiser) {
      const stage = reloaded.find((s) => s.stage.id === loaded.stage.id)!;
      const now = stage.lobbies.find((l) => l.row.id === lobbyId)!;
      await countLobbyResults(tx, tournament, [{ id: lobbyId, completedAt: now.row.completedAt, table: tableOf(stage, now) }]);
    }
    if (organiser && complete) reloaded = await nextRound(tx, tournament, reloaded, loaded.stage.id, lobby.row.round);
    // A proposal is the organisers' to see: the public competition has not changed.
    const { version } = organiser ? await bumpTournament(tx, tournament, reloaded) : { version: tournament.bracketVersion };
    const stage = reloaded.find((s) => s.stage.id === loaded.stage.id)!;
    return {
      ok: true,
      state,
      tournamentId: tournament.id,
      lobby: lobbyView(
        stage,
        stage.lobbies.find((l) => l.row.id === lobbyId)!,
      ),
      version,
    };
  });
}

/** The audit row of an organiser's entry: a game entered, or one that stood corrected (a player's proposal was no result). */
async function gameEntry(
  tx: Tx,
  tournament: TournamentRow,
  loaded: LoadedStage,
  lobby: LoadedLobby,
  game: number,
  existing: LoadedLobby['games'][number] | undefined,
  lines: readonly FfaLine[],
  actor: AuditActor,
): Promise<AuditEntry> {
  const before = existing?.state === 'confirmed' ? existing.lines : null;
  const names = await actorsOf(tx, tournament.soloOnly, lobby.row.members);
  const final = loaded.lobbies.filter((l) => l.row.round === lobby.row.round).length === 1;
  const snapshot = (ordered: readonly FfaLine[]): LobbyGameSnapshot => ({
    round: lobby.row.round,
    lobby: lobby.row.number,
    final,
    game,
    order: [...ordered].sort((x, y) => x.placement - y.placement).map((line) => names.get(line.participant)?.name ?? ''),
  });
  return {
    tournamentId: tournament.id,
    matchId: lobby.row.id,
    actor,
    kind: before ? 'lobbyGameCorrected' : 'lobbyGameEntered',
    subjectId: loaded.stage.id,
    before: before ? snapshot(before) : null,
    after: snapshot(lines),
  };
}

/** When every lobby of the round is complete and more than one played it, writes the next round's lobbies. */
async function nextRound(tx: Tx, tournament: { id: string; soloOnly: boolean }, all: LoadedStage[], stageId: string, round: number): Promise<LoadedStage[]> {
  const stage = all.find((s) => s.stage.id === stageId)!;
  const lobbies = stage.lobbies.filter((l) => l.row.round === round);
  if (lobbies.length < 2 || lobbies.some((l) => l.row.completedAt === null)) return all;
  const settings = ffaSettingsOf(stage.stage.settings);
  const out = new Set(stage.stage.disqualified);
  const going = advancers(
    lobbies.map((l) => tableOf(stage, l).filter((row) => !out.has(row.participant))),
    settings.advance ?? 1,
  );
  await insertLobbies(tx, tournament, stageId, round + 1, going, settings.lobbySize);
  return loadStages(tx, tournament.id);
}

/** A game entered or proposed: once it committed, the tournament's viewers hear of it. */
export const enterGame = publishing(writeGame, (entered) =>
  entered.state === 'confirmed' ? { tournamentId: entered.tournamentId, kind: 'stage', version: entered.version } : null,
);

/** Who the caller is to a lobby: an organiser of its tournament, one of its players, or nobody of it. */
export type LobbyPerson = { ok: true; organiser: boolean } | { ok: false; reason: 'notFound' | 'notInLobby' };

export async function lobbyPerson(db: Tx, lobbyId: string, user: Organiser): Promise<LobbyPerson> {
  const [found] = await db
    .select({ members: stageLobbies.members, tournament: tournaments })
    .from(stageLobbies)
    .innerJoin(stages, eq(stages.id, stageLobbies.stageId))
    .innerJoin(tournaments, eq(tournaments.id, stages.tournamentId))
    .where(eq(stageLobbies.id, lobbyId));
  if (!found) return { ok: false, reason: 'notFound' };
  if (await isOrganiser(db, user, found.tournament.id)) return { ok: true, organiser: true };
  return (await playsIn(db, found.tournament, found.members, user.id)) ? { ok: true, organiser: false } : { ok: false, reason: 'notInLobby' };
}

/** A lobby's games, proposals included, for its players and the tournament's organisers (the guard has let the caller in). */
export async function lobbyGamesOf(db: Tx, lobbyId: string) {
  const games = await db.select().from(lobbyGames).where(eq(lobbyGames.lobbyId, lobbyId)).orderBy(asc(lobbyGames.number));
  return games.map((g) => ({ number: g.number, lines: g.lines, state: g.state, enteredAt: g.enteredAt.toISOString() }));
}
