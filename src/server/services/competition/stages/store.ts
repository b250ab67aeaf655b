import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { BracketParticipant } from '../../../../lib/api/bracket.ts';
import { groupCount, snakeGroups } from '../../../../lib/domain/stage/build.ts';
import { hasGroups } from '../../../../lib/domain/stage/format.ts';
import { gslPlan } from '../../../../lib/domain/stage/gsl.ts';
import { doubleEliminationPlan, singleEliminationPlan, type PlannedMatch } from '../../../../lib/domain/stage/plan.ts';
import { resolveStage, type EnteredResult, type ResolvedMatch } from '../../../../lib/domain/stage/resolve.ts';
import type { Database, Tx } from '../../../db/client.ts';
import { prepared } from '../../../db/prepared.ts';
import { lobbyGames, stageLobbies, stageMatches, stages, tournaments } from '../../../db/schema/index.ts';
import { approvedParticipants } from '../../match-day/participants.ts';

/*
 * The competition engine's service (issue 21, decision 013). A stage is read whole, resolved by
 * the pure engine (`lib/domain/stage`), and only the rows whose state changed are written back, in
 * one statement. Every write locks the tournament row first, so writes to one tournament queue up
 * (as bracket saves always did), bumps the tournament's competition version (the ETag of its
 * bracket and stages), keeps `tournaments.bracket` — the SPEC's view of the single-elimination
 * stage — and tells the statistics which results changed (`countStageResults`).
 *
 * The folder holds it by job. This file reads stages, locks their tournament and keeps loaded
 * stages between requests; `standings.ts` draws tables and places from them, `views.ts` what the
 * API shows; `save.ts` writes a stage's changes (`audit-entries.ts` the audit rows they make);
 * `commands.ts` creates stages and pairs Swiss rounds; `match-changes.ts` changes one match and
 * `match-state.ts` shows it; `disqualify.ts` disqualifies; `spec-bracket.ts` draws and saves the
 * SPEC bracket.
 */

export type TournamentRow = typeof tournaments.$inferSelect;
export type StageRow = typeof stages.$inferSelect;
export type MatchRow = typeof stageMatches.$inferSelect;

/** A stage as the engine sees it: its plan, the row of each planned match, and the resolved state. */
export interface LoadedStage {
  stage: StageRow;
  plan: PlannedMatch[];
  rows: MatchRow[];
  entered: Map<number, EnteredResult>;
  resolved: ResolvedMatch[];
  /** Round robin and Swiss: each group's participants in seed order. */
  groups: string[][];
  /** Free-for-all (issue 59): its lobbies, round by round, with their games; none in other formats. */
  lobbies: LoadedLobby[];
}

export type LobbyRowStored = typeof stageLobbies.$inferSelect;
export type LobbyGameRow = typeof lobbyGames.$inferSelect;

/** A lobby as the engine sees it: its row and its games (proposed ones too). */
export interface LoadedLobby {
  row: LobbyRowStored;
  games: LobbyGameRow[];
}

const matchKey = (m: { group: number | null; side: string | null; round: number; position: number }) =>
  `${m.group ?? ''}:${m.side ?? ''}:${m.round}:${m.position}`;
const rowKey = (r: MatchRow) =>
  matchKey({
    group: r.groupNumber,
    side: r.side,
    round: r.round,
    position: r.position,
  });

/** The tournament row, locked for the rest of the transaction so its bracket and match saves queue up. */
export async function lockTournament(db: Tx, id: string): Promise<TournamentRow | undefined> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, id)).for('update');
  return row;
}

export async function findTournamentRow(db: Tx, id: string): Promise<TournamentRow | undefined> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, id));
  return row;
}

/** The plan of a stage: derived from its seeds for elimination and GSL groups, its rows' fixed sides otherwise. */
function planOf(stage: StageRow, rows: readonly MatchRow[]): PlannedMatch[] {
  if (stage.format === 'gsl') return gslPlan(groupsOf(stage));
  if (stage.format === 'single_elimination')
    return singleEliminationPlan(stage.seeds.length, {
      thirdPlace: stage.settings.thirdPlace,
    });
  if (stage.format === 'double_elimination')
    return doubleEliminationPlan(stage.seeds.length, {
      grandFinal: stage.settings.grandFinal,
    });
  return [...rows]
    .sort((x, y) => (x.groupNumber ?? 0) - (y.groupNumber ?? 0) || x.round - y.round || x.position - y.position)
    .map((r) => ({
      group: r.groupNumber,
      side: null,
      round: r.round,
      position: r.position,
      a: { kind: 'fixed', id: r.participantA },
      b: { kind: 'fixed', id: r.participantB },
    }));
}

/** A stored match's result, when it was played: the sides it was played between and what it was. */
function enteredOf(row: MatchRow): EnteredResult | null {
  if (row.status !== 'completed' || !row.participantA || !row.participantB) return null;
  const winner = row.winner === null ? null : row.winner === row.participantA ? 'a' : 'b';
  return {
    a: row.participantA,
    b: row.participantB,
    result: {
      scoreA: row.scoreA,
      scoreB: row.scoreB,
      games: row.games,
      forfeit: row.forfeit,
      winner,
    },
  };
}

/** A resolved match's result as the columns of its row, which the API shows by the same names; a match not played has none. */
export const resultColumns = (result: ResolvedMatch['result']) => ({
  scoreA: result?.scoreA ?? null,
  scoreB: result?.scoreB ?? null,
  games: result?.games ?? [],
  forfeit: result?.forfeit ?? null,
});

function groupsOf(stage: StageRow): string[][] {
  if (!hasGroups(stage.format)) return [];
  const ids = stage.seeds.filter((id): id is string => id !== null);
  return snakeGroups(ids, groupCount(ids.length, stage.settings, stage.format));
}

export function load(stage: StageRow, matchRows: readonly MatchRow[], lobbies: LoadedLobby[] = []): LoadedStage {
  const plan = planOf(stage, matchRows);
  const byKey = new Map(matchRows.map((r) => [rowKey(r), r]));
  const rows = plan.map((m) => {
    const row = byKey.get(matchKey(m));
    if (!row) throw new StageRowsMissing(`stage ${stage.id} has no row for ${matchKey(m)}`);
    return row;
  });
  const entered = new Map<number, EnteredResult>();
  rows.forEach((row, index) => {
    const result = enteredOf(row);
    if (result) entered.set(index, result);
  });
  return {
    stage,
    plan,
    rows,
    entered,
    resolved: resolveStage(plan, stage.seeds, entered, new Set(stage.disqualified)),
    groups: groupsOf(stage),
    lobbies,
  };
}

/** The lobbies of these stages with their games, in round and number order: two queries whatever their number. */
export async function readLobbies(db: Tx, stageIds: readonly string[]): Promise<Map<string, LoadedLobby[]>> {
  const result = new Map<string, LoadedLobby[]>();
  if (stageIds.length === 0) return result;
  const rows = await db
    .select()
    .from(stageLobbies)
    .where(inArray(stageLobbies.stageId, [...stageIds]))
    .orderBy(asc(stageLobbies.round), asc(stageLobbies.number));
  if (rows.length === 0) return result;
  const games = await db
    .select()
    .from(lobbyGames)
    .where(
      inArray(
        lobbyGames.lobbyId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(lobbyGames.number));
  for (const row of rows) {
    const own = result.get(row.stageId) ?? [];
    own.push({ row, games: games.filter((g) => g.lobbyId === row.id) });
    result.set(row.stageId, own);
  }
  return result;
}

/** A stage read while another request replaced it (its rows were read after they were gone). */
export class StageRowsMissing extends Error {}

/**
 * Loaded stages kept by tournament and competition version (`bracket_version`), so a players' action
 * or a read of a match does not read and resolve the whole competition again while nothing in it
 * changed. Sound because every change to a tournament's stages moves that version in the same
 * transaction (the stages' ETag already rests on it), with the tournament row locked: stages read
 * under that lock are exactly those of the version read with it. So only such reads (`lockMatch`)
 * and a committed change's own result (`keepSaved`, `keepingTransaction`) go in; any read may take from it. The loaded
 * stages are never changed in place (every change builds new ones), so one copy serves every reader.
 */
const KEPT_COMPETITIONS = 64;
const keptStages = new Map<string, { version: number; all: LoadedStage[] }>();

/** The stages of `tournamentId` at `version`, if kept; the most recently used are kept longest. */
function stagesKeptAt(tournamentId: string, version: number): LoadedStage[] | undefined {
  const kept = keptStages.get(tournamentId);
  if (kept?.version !== version) return undefined;
  keptStages.delete(tournamentId);
  keptStages.set(tournamentId, kept);
  return kept.all;
}

/** Keeps a tournament's stages as they are at `version`: only what is committed, or read under the tournament's lock. */
function keepStages(tournamentId: string, version: number, all: LoadedStage[]): void {
  frozen(all);
  keptStages.delete(tournamentId);
  keptStages.set(tournamentId, { version, all });
  if (keptStages.size > KEPT_COMPETITIONS) keptStages.delete(keptStages.keys().next().value!);
}

/** Freezes plain objects and arrays all the way down, so a reader changing a kept stage in place fails loudly instead of changing it for everyone. */
function frozen(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (value instanceof Map) return void value.forEach((v) => frozen(v));
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return;
  Object.freeze(value);
  for (const v of Object.values(value)) frozen(v);
}

/** A tournament's stages at the version of its row just read: kept ones, or read (and kept when `locked`). */
export async function stagesAt(db: Tx, tournament: { id: string; bracketVersion: number }, locked: boolean): Promise<LoadedStage[]> {
  const kept = stagesKeptAt(tournament.id, tournament.bracketVersion);
  if (kept) return kept;
  const all = await loadStages(db, tournament.id);
  if (locked) keepStages(tournament.id, tournament.bracketVersion, all);
  return all;
}

/** Forgets every kept competition: a test compares what is kept with a fresh read. */
export function forgetKeptStages(): void {
  keptStages.clear();
}

/** A change of a match saved in a transaction: its tournament's stages as saved, and the competition version it made. */
export type Saved = { after: LockedMatch; version: number };

/**
 * A committed change of a match (the admin's edit): its tournament's stages as it saved them, at the
 * version it made, so the action that follows does not read them again. What a save keeps is what it
 * stored: the rows as it wrote them (`saveStage`, match-reports.ts `reportChange`; `updated_at` included).
 */
export function keepSaved({ after, version }: Saved): void {
  keepStages(after.tournament.id, version, after.all);
}

/**
 * A transaction that changes matches, and keeps what it saved (`savedOf` its value) once it has
 * committed, so the action that follows does not read the stages again; a transaction that fails
 * keeps nothing. (An action already queued on the lock gets it before this one has heard its
 * commit's answer: it finds nothing kept at the new version and reads the stages again, slower but
 * never wrong.) Only a transaction of its own: inside another, its end is no commit.
 */
export async function keepingTransaction<T>(db: Database, work: (tx: Tx) => Promise<T>, savedOf: (value: T) => Saved | undefined): Promise<T> {
  const value = await db.transaction(work);
  const saved = savedOf(value);
  if (saved) keepSaved(saved);
  return value;
}

/**
 * Every stage of a tournament, loaded, in play order: two queries whatever their size. A read
 * outside a write's lock may see a stage another request just replaced between the two queries;
 * it reads again.
 */
export async function loadStages(tx: Tx, tournamentId: string): Promise<LoadedStage[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readStages(tx, tournamentId);
    } catch (error) {
      if (!(error instanceof StageRowsMissing) || attempt >= 3) throw error;
    }
  }
}

/** A tournament's stages in play order, and the match rows of all of them: prepared (db/prepared.ts), as every players' action and read of a match loads them. */
const stagesOf = prepared((db) =>
  db
    .select()
    .from(stages)
    .where(eq(stages.tournamentId, sql.placeholder('tournamentId')))
    .orderBy(asc(stages.number))
    .prepare('stages_of_tournament'),
);
const stageMatchesOf = prepared((db) =>
  db
    .select()
    .from(stageMatches)
    .where(inArray(stageMatches.stageId, db.select({ id: stages.id }).from(stages).where(eq(stages.tournamentId, sql.placeholder('tournamentId')))))
    .prepare('stage_matches_of_tournament'),
);

async function readStages(tx: Tx, tournamentId: string): Promise<LoadedStage[]> {
  const stageRows = await stagesOf(tx).execute({ tournamentId });
  if (stageRows.length === 0) return [];
  // Rows of a stage made after the first statement have no stage here and are left out; a stage
  // replaced between the two has rows missing, and `load` says so.
  const matchRows = await stageMatchesOf(tx).execute({ tournamentId });
  // Only a free-for-all stage has lobbies: other competitions read nothing more.
  const lobbies = await readLobbies(
    tx,
    stageRows.filter((s) => s.format === 'free_for_all').map((s) => s.id),
  );
  return stageRows.map((stage) =>
    load(
      stage,
      matchRows.filter((r) => r.stageId === stage.id),
      lobbies.get(stage.id),
    ),
  );
}

/** A tournament's row, its loaded stages and its approved participants: what its state and its places are made of. */
export interface LoadedCompetition {
  row: CompetitionOf;
  all: LoadedStage[];
  participants: BracketParticipant[];
}

/** What of a tournament's row its competition needs. */
export type CompetitionOf = Pick<typeof tournaments.$inferSelect, 'id' | 'soloOnly' | 'bracketVersion'>;

export async function loadCompetition(db: Tx, tournamentId: string): Promise<LoadedCompetition | null> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, tournamentId));
  return row ? loadCompetitionOf(db, row) : null;
}

export async function loadCompetitionOf(db: Tx, row: CompetitionOf): Promise<LoadedCompetition> {
  const [all, participants] = await Promise.all([stagesAt(db, row, false), approvedParticipants(db, row)]);
  return { row, all, participants };
}

/** Read by every bracket and stages poll with an ETag, and after every result: prepared (db/prepared.ts). */
const versionStatement = prepared((db) =>
  db
    .select({ version: tournaments.bracketVersion })
    .from(tournaments)
    .where(eq(tournaments.id, sql.placeholder('tournamentId')))
    .prepare('tournament_stages_version'),
);

/** The competition version of a tournament (the ETag of its stages), without reading them. */
export async function stagesVersion(db: Database, tournamentId: string): Promise<number | null> {
  const [row] = await versionStatement(db).execute({ tournamentId });
  return row?.version ?? null;
}

/**
 * The tournament a stage match belongs to, read in the same statement as the match's lookup; locked
 * for the rest of the transaction (`lock`) so the tournament's writes queue up. Prepared
 * (db/prepared.ts): every players' action and read of a match starts here.
 */
const tournamentOfMatch = (lock: boolean) =>
  prepared((db) => {
    const query = db
      .select()
      .from(tournaments)
      .where(
        inArray(
          tournaments.id,
          db
            .select({ id: stages.tournamentId })
            .from(stageMatches)
            .innerJoin(stages, eq(stages.id, stageMatches.stageId))
            .where(eq(stageMatches.id, sql.placeholder('matchId'))),
        ),
      );
    return lock ? query.for('update').prepare('lock_tournament_of_match') : query.prepare('tournament_of_match');
  });
const lockTournamentOfMatch = tournamentOfMatch(true);
export const readTournamentOfMatch = tournamentOfMatch(false);

/** Finds the stage match, its tournament locked: the tournament's writes queue up. */
export async function lockMatch(tx: Tx, matchId: string): Promise<LockedMatch | null> {
  const [tournament] = await lockTournamentOfMatch(tx).execute({ matchId });
  if (!tournament) return null;
  return locate(tournament, await stagesAt(tx, tournament, true), matchId);
}

/** The match among its tournament's loaded stages. */
export function locate(tournament: TournamentRow, all: LoadedStage[], matchId: string): LockedMatch | null {
  for (const loaded of all) {
    const index = loaded.rows.findIndex((r) => r.id === matchId);
    if (index !== -1) return { tournament, all, loaded, index };
  }
  return null;
}

/** A stage match read with its tournament locked (`lockMatch`): the tournament, its stages, and the match's stage and place in it. */
export interface LockedMatch {
  /** As locked, with the competition version as this transaction's changes left it. */
  tournament: TournamentRow;
  all: LoadedStage[];
  loaded: LoadedStage;
  index: number;
}
