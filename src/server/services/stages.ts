import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { BracketParticipant } from '../../lib/api/bracket.ts';
import type { MatchState, MatchUpdateInput, StageCreateInput, StagesState, StageMatchView, StageView } from '../../lib/api/stages.ts';
import type { DisqualifiedSnapshot, MatchSnapshot, StageSnapshot } from '../../lib/domain/audit.ts';
import type { Bracket } from '../../lib/domain/bracket.ts';
import type { AuditKind } from '../../lib/domain/organisers.ts';
import { normalizeStatus } from '../../lib/domain/tournament-status.ts';
import { crossSeed, draftStage, groupCount, isStageFinished, nextSwissRound, seedOrder, snakeGroups, type NextRoundRefusal } from '../../lib/domain/stage/build.ts';
import { allowsDraws, DEFAULT_POINTS, DEFAULT_TIE_BREAKERS, isElimination, MAX_ROUND_ROBIN_GROUP, MAX_STAGE_PARTICIPANTS } from '../../lib/domain/stage/format.ts';
import { bracketOf, fromBracket } from '../../lib/domain/stage/legacy.ts';
import { groupBandPlacements, tournamentPlacements } from '../../lib/domain/stage/placements.ts';
import { doubleEliminationPlan, singleEliminationPlan, type PlannedMatch } from '../../lib/domain/stage/plan.ts';
import { resetBy, resolveStage, type EnteredResult, type ResolvedMatch } from '../../lib/domain/stage/resolve.ts';
import { judgeResult, type JudgedResult, type ResultRefusal } from '../../lib/domain/stage/result.ts';
import { eliminationPlacements, groupStandings, type Placement, type StandingRow } from '../../lib/domain/stage/standings.ts';
import type { Database, Tx } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { together } from '../db/together.ts';
import { stageMatchId } from './match-ids.ts';
import { matchActions, playerGameStats, stageGroups, stageMatches, stageRounds, stages, teamGameStats, tournaments, users } from '../db/schema/index.ts';
import { actionWrite, actorsOf, announceReady, readyNotices, type SideActor } from './match-actions.ts';
import { auditWrite, recordAudit, type AuditActor, type AuditEntry } from './audit.ts';
import { announce, type Notice } from './notices.ts';
import { approvedParticipants } from './participants.ts';
import { closeCheckInWithin, published, type CheckInClosing } from './registration.ts';
import { countStageResults } from './stage-stats.ts';

/*
 * The competition engine's service (issue 21, decision 013). A stage is read whole, resolved by
 * the pure engine (`lib/domain/stage`), and only the rows whose state changed are written back, in
 * one statement. Every write locks the tournament row first, so writes to one tournament queue up
 * (as bracket saves always did), bumps the tournament's competition version (the ETag of its
 * bracket and stages), keeps `tournaments.bracket` — the SPEC's view of the single-elimination
 * stage — and tells the statistics which results changed (`countStageResults`).
 */

type TournamentRow = typeof tournaments.$inferSelect;
type StageRow = typeof stages.$inferSelect;
type MatchRow = typeof stageMatches.$inferSelect;

/** A stage as the engine sees it: its plan, the row of each planned match, and the resolved state. */
interface LoadedStage {
  stage: StageRow;
  plan: PlannedMatch[];
  rows: MatchRow[];
  entered: Map<number, EnteredResult>;
  resolved: ResolvedMatch[];
  /** Round robin and Swiss: each group's participants in seed order. */
  groups: string[][];
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

/** The plan of a stage: derived from its seeds for elimination, its rows' fixed sides otherwise. */
function planOf(stage: StageRow, rows: readonly MatchRow[]): PlannedMatch[] {
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

const groupsOf = (stage: StageRow): string[][] => {
  if (isElimination(stage.format)) return [];
  const ids = stage.seeds.filter((id): id is string => id !== null);
  return snakeGroups(ids, groupCount(ids.length, stage.settings));
};

function load(stage: StageRow, matchRows: readonly MatchRow[]): LoadedStage {
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
  };
}

/** A stage read while another request replaced it (its rows were read after they were gone). */
class StageRowsMissing extends Error {}

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
async function stagesAt(db: Tx, tournament: { id: string; bracketVersion: number }, locked: boolean): Promise<LoadedStage[]> {
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
 * commit's answer, and reads them again: FINDINGS F27.) Only a transaction of its own: inside
 * another, its end is no commit.
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
async function loadStages(tx: Tx, tournamentId: string): Promise<LoadedStage[]> {
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
  return stageRows.map((stage) =>
    load(
      stage,
      matchRows.filter((r) => r.stageId === stage.id),
    ),
  );
}

/** Whether a loaded stage is over (Swiss: its last round played too). */
const finished = (loaded: LoadedStage): boolean => isStageFinished(loaded.stage.format, loaded.stage.settings, loaded.groups, loaded.resolved);

const tieBreakersOf = (stage: StageRow) => stage.settings.tieBreakers ?? DEFAULT_TIE_BREAKERS[stage.format === 'swiss' ? 'swiss' : 'round_robin'];

function tablesOf(loaded: LoadedStage): StandingRow[][] {
  return loaded.groups.map((members, g) =>
    groupStandings(
      members,
      loaded.resolved.filter((m) => m.plan.group === g + 1),
      {
        tieBreakers: tieBreakersOf(loaded.stage),
        points: loaded.stage.settings.points ?? DEFAULT_POINTS,
      },
    ),
  );
}

/** A stage's places: by elimination, or (once its tables are final) by group rank. */
function placementsOf(loaded: LoadedStage, tables: readonly StandingRow[][]): Placement[] {
  if (isElimination(loaded.stage.format)) {
    return eliminationPlacements(
      loaded.stage.seeds.filter((id): id is string => id !== null),
      loaded.resolved,
    );
  }
  return finished(loaded) ? groupBandPlacements(tables) : [];
}

function matchView(loaded: LoadedStage, index: number): StageMatchView {
  const row = loaded.rows[index]!;
  const state = loaded.resolved[index]!;
  return {
    _id: row.id,
    stage: loaded.stage.id,
    group: row.groupNumber,
    side: row.side,
    round: row.round,
    position: row.position,
    a: state.a,
    b: state.b,
    scoreA: state.result?.scoreA ?? null,
    scoreB: state.result?.scoreB ?? null,
    games: state.result?.games ?? [],
    winner: state.winner,
    forfeit: state.result?.forfeit ?? null,
    status: state.status,
    bye: state.bye,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    comment: row.comment,
    version: row.version,
    completedAt: row.completedAt?.toISOString() ?? null,
    reportState: row.reportState,
  };
}

function stageView(loaded: LoadedStage): StageView {
  const { stage } = loaded;
  const tables = tablesOf(loaded);
  return {
    _id: stage.id,
    tournament: stage.tournamentId,
    number: stage.number,
    name: stage.name,
    format: stage.format,
    seeding: stage.seeding,
    settings: stage.settings,
    seeds: stage.seeds,
    disqualified: stage.disqualified,
    from: stage.fromStageId && stage.advance ? { stageId: stage.fromStageId, advance: stage.advance } : null,
    groups: loaded.groups.map((participants, g) => ({
      number: g + 1,
      participants,
      standings: tables[g] ?? [],
    })),
    matches: loaded.plan.map((_, index) => matchView(loaded, index)),
    placements: placementsOf(loaded, tables),
    complete: finished(loaded),
  };
}

/** The SPEC bracket a tournament shows: its single-elimination stage (the last one), or none. */
function projectedBracket(all: readonly LoadedStage[]): Bracket {
  const playoff = all.findLast((s) => s.stage.format === 'single_elimination');
  return playoff
    ? bracketOf(
        playoff.resolved,
        playoff.rows.map((r) => r.comment),
      )
    : [];
}

/** Every stage of a tournament with its groups, matches, tables and places (`GET …/stages`). */
export async function stagesState(db: Tx, tournamentId: string): Promise<StagesState | null> {
  const loaded = await loadCompetition(db, tournamentId);
  return loaded && stateOf(loaded);
}

/** A tournament's row, its loaded stages and its approved participants: what its state and its places are made of. */
interface LoadedCompetition {
  row: CompetitionOf;
  all: LoadedStage[];
  participants: BracketParticipant[];
}

/** What of a tournament's row its competition needs. */
type CompetitionOf = Pick<typeof tournaments.$inferSelect, 'id' | 'soloOnly' | 'bracketVersion'>;

async function loadCompetition(db: Tx, tournamentId: string): Promise<LoadedCompetition | null> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, tournamentId));
  return row ? loadCompetitionOf(db, row) : null;
}

async function loadCompetitionOf(db: Tx, row: CompetitionOf): Promise<LoadedCompetition> {
  const [all, participants] = await Promise.all([stagesAt(db, row, false), approvedParticipants(db, row)]);
  return { row, all, participants };
}

const stateOf = ({ row, all, participants }: LoadedCompetition): StagesState => ({
  tournament: row.id,
  version: row.bracketVersion,
  participants,
  stages: all.map(stageView),
});

/**
 * The stages and places of a tournament its caller has just read (the tournament page shows
 * both): the answers of `stagesState` and `tournamentStandings` from one read of its stages and
 * participants, without reading the tournament again.
 */
export async function competition(db: Tx, tournament: CompetitionOf): Promise<{ state: StagesState; standings: TournamentStandings }> {
  const loaded = await loadCompetitionOf(db, tournament);
  return { state: stateOf(loaded), standings: standingsOf(loaded) };
}

/** The competition version of a tournament (the ETag of its stages), without reading them. */
/** Read by every bracket and stages poll with an ETag, and after every result: prepared (db/prepared.ts). */
const versionStatement = prepared((db) =>
  db
    .select({ version: tournaments.bracketVersion })
    .from(tournaments)
    .where(eq(tournaments.id, sql.placeholder('tournamentId')))
    .prepare('tournament_stages_version'),
);

export async function stagesVersion(db: Database, tournamentId: string): Promise<number | null> {
  const [row] = await versionStatement(db).execute({ tournamentId });
  return row?.version ?? null;
}

export interface TournamentStandings {
  final: boolean;
  placements: (Placement & { name: string })[];
}

/** A tournament's final places (`GET …/standings`): those known so far until every stage is over. */
export async function tournamentStandings(db: Tx, tournamentId: string): Promise<TournamentStandings | null> {
  const loaded = await loadCompetition(db, tournamentId);
  return loaded && standingsOf(loaded);
}

function standingsOf({ all, participants }: LoadedCompetition): TournamentStandings {
  const names = new Map(participants.map((p) => [p._id, p.name]));
  const placements = placementsAcross(all);
  return {
    final: all.length > 0 && all.every(finished),
    placements: placements.map((p) => ({
      ...p,
      name: names.get(p.participant) ?? '',
    })),
  };
}

/** A tournament's places over all its loaded stages. */
const placementsAcross = (all: readonly LoadedStage[]): Placement[] =>
  tournamentPlacements(
    all.map((loaded) => ({ participants: loaded.stage.seeds.filter((id): id is string => id !== null), placements: placementsOf(loaded, tablesOf(loaded)) })),
  );

/**
 * The places of many tournaments at once (the profiles, issue 23), as `tournamentStandings` gives
 * each: only tournaments with stages are in the answer. Two queries whatever their number; read
 * again when a stage was replaced between them, as `loadStages` does.
 */
export async function placementsOfTournaments(db: Tx, tournamentIds: readonly string[]): Promise<Map<string, { final: boolean; placements: Placement[] }>> {
  const result = new Map<string, { final: boolean; placements: Placement[] }>();
  if (tournamentIds.length === 0) return result;
  for (let attempt = 1; ; attempt++) {
    try {
      const stageRows = await db
        .select()
        .from(stages)
        .where(inArray(stages.tournamentId, [...new Set(tournamentIds)]))
        .orderBy(asc(stages.number));
      if (stageRows.length === 0) return result;
      const matchRows = await db
        .select()
        .from(stageMatches)
        .where(
          inArray(
            stageMatches.stageId,
            stageRows.map((s) => s.id),
          ),
        );
      const rowsOf = new Map<string, MatchRow[]>();
      for (const row of matchRows) {
        const own = rowsOf.get(row.stageId) ?? [];
        own.push(row);
        rowsOf.set(row.stageId, own);
      }
      const byTournament = new Map<string, LoadedStage[]>();
      for (const stage of stageRows) {
        const all = byTournament.get(stage.tournamentId) ?? [];
        all.push(load(stage, rowsOf.get(stage.id) ?? []));
        byTournament.set(stage.tournamentId, all);
      }
      for (const [id, all] of byTournament) result.set(id, { final: all.every(finished), placements: placementsAcross(all) });
      return result;
    } catch (error) {
      if (!(error instanceof StageRowsMissing) || attempt >= 3) throw error;
      result.clear();
    }
  }
}

/** The game's rating of each participant (players or teams by the tournament's type); the unrated are absent. */
async function ratingsOf(tx: Tx, tournament: TournamentRow, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = tournament.soloOnly
    ? await tx
        .select({ id: playerGameStats.userId, rating: playerGameStats.rating })
        .from(playerGameStats)
        .where(and(eq(playerGameStats.gameId, tournament.gameId), inArray(playerGameStats.userId, [...ids])))
    : await tx
        .select({ id: teamGameStats.teamId, rating: teamGameStats.rating })
        .from(teamGameStats)
        .where(and(eq(teamGameStats.gameId, tournament.gameId), inArray(teamGameStats.teamId, [...ids])));
  return new Map(rows.map((r) => [r.id, r.rating]));
}

/** Match rows a statement carries: 2 000 × 12 parameters stays under PostgreSQL's 65 535 (a 256-player double elimination is 511). */
const ROWS_PER_STATEMENT = 2000;

/** A match row to insert for plan entry `index` of a new stage (or a new Swiss round). */
function newRow(stageId: string, roundId: string, planned: PlannedMatch, state: ResolvedMatch, now: Date): typeof stageMatches.$inferInsert {
  return {
    id: stageMatchId(stageId, planned),
    stageId,
    roundId,
    groupNumber: planned.group,
    side: planned.side,
    round: planned.round,
    position: planned.position,
    participantA: state.a,
    participantB: state.b,
    winner: state.winner,
    // A new match may be decided at once: a bye, or a disqualified side's forfeit.
    scoreA: state.result?.scoreA ?? null,
    scoreB: state.result?.scoreB ?? null,
    games: state.result?.games ?? [],
    forfeit: state.result?.forfeit ?? null,
    status: state.status,
    completedAt: state.status === 'completed' ? now : null,
  };
}

/** Inserts the groups, rounds and matches of plan entries: one insert per table, whatever their number. */
async function insertMatches(
  tx: Tx,
  stageId: string,
  plan: readonly PlannedMatch[],
  resolved: readonly ResolvedMatch[],
  groupIds: ReadonlyMap<number, string>,
  tournament: Pick<TournamentRow, 'id' | 'title' | 'soloOnly'>,
) {
  const now = new Date();
  const roundIds = new Map<string, string>();
  const rounds: (typeof stageRounds.$inferInsert)[] = [];
  for (const m of plan) {
    const key = `${m.group ?? ''}:${m.side ?? ''}:${m.round}`;
    if (roundIds.has(key)) continue;
    const id = randomUUID();
    roundIds.set(key, id);
    rounds.push({
      id,
      stageId,
      groupId: m.group ? (groupIds.get(m.group) ?? null) : null,
      side: m.side,
      number: m.round,
    });
  }
  if (rounds.length > 0) await tx.insert(stageRounds).values(rounds);
  const rows = plan.map((m, i) => newRow(stageId, roundIds.get(`${m.group ?? ''}:${m.side ?? ''}:${m.round}`)!, m, resolved[i]!, now));
  // In slices, each under PostgreSQL's 65 535 parameters a statement.
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await tx.insert(stageMatches).values(rows.slice(i, i + ROWS_PER_STATEMENT));
  await announceReady(
    tx,
    tournament,
    rows.filter((r) => r.status === 'ready').map((r) => ({ id: r.id!, a: r.participantA ?? null, b: r.participantB ?? null, scheduledAt: null })),
  );
  return rows.map((r) => r.id!);
}

/** What a match row should hold for its resolved state. */
function desiredRow(row: MatchRow, state: ResolvedMatch, now: Date) {
  const result: JudgedResult | null = state.result;
  const sameResult =
    row.status === 'completed' &&
    state.status === 'completed' &&
    row.participantA === state.a &&
    row.participantB === state.b &&
    row.winner === state.winner &&
    row.scoreA === (result?.scoreA ?? null) &&
    row.scoreB === (result?.scoreB ?? null) &&
    row.forfeit === (result?.forfeit ?? null) &&
    JSON.stringify(row.games) === JSON.stringify(result?.games ?? []);
  return {
    participantA: state.a,
    participantB: state.b,
    status: state.status,
    winner: state.winner,
    scoreA: result?.scoreA ?? null,
    scoreB: result?.scoreB ?? null,
    games: result?.games ?? [],
    forfeit: result?.forfeit ?? null,
    // A corrected result keeps its time, so the ratings replay it where it was played.
    completedAt: state.status !== 'completed' ? null : (row.completedAt ?? now),
    resultChanged: !sameResult && (row.status === 'completed' || state.status === 'completed'),
  };
}

type RowChange = { id: string; version: number } & ReturnType<typeof desiredRow> & { comment: string; scheduledAt: Date | null };

/** The statements that write these changed rows (and bump each one's version), `ROWS_PER_STATEMENT` in each, for `together` (db/together.ts). */
function rowWrites(all: readonly RowChange[], now: Date): SQL[] {
  const writes: SQL[] = [];
  for (let i = 0; i < all.length; i += ROWS_PER_STATEMENT) writes.push(sliceWrite(all.slice(i, i + ROWS_PER_STATEMENT), now));
  return writes;
}

/** A players' report stands while its match stays ready between the same sides; a result, a reset or new sides end it. */
const keepsReport = sql.raw(`v.status = 'ready' and m.participant_a is not distinct from v.a and m.participant_b is not distinct from v.b`);

function sliceWrite(changes: readonly RowChange[], now: Date): SQL {
  const values = changes.map(
    (c) =>
      sql`(${c.id}::uuid, ${c.participantA}::uuid, ${c.participantB}::uuid, ${c.status}, ${c.winner}::uuid, ${c.scoreA}::int, ${c.scoreB}::int, ${JSON.stringify(c.games)}::jsonb, ${c.forfeit}, ${c.completedAt?.toISOString() ?? null}::timestamptz, ${c.comment}, ${c.scheduledAt?.toISOString() ?? null}::timestamptz)`,
  );
  return sql`
    update ${stageMatches} as m set
      participant_a = v.a, participant_b = v.b, status = v.status, winner = v.winner, score_a = v.sa, score_b = v.sb,
      games = v.games, forfeit = v.forfeit, completed_at = v.completed, comment = v.comment, scheduled_at = v.scheduled,
      version = m.version + 1, updated_at = ${now.toISOString()}::timestamptz,
      report_state = case when ${keepsReport} then m.report_state end,
      reported_by = case when ${keepsReport} then m.reported_by end,
      confirm_by = case when ${keepsReport} then m.confirm_by end
    from (values ${sql.join(values, sql`, `)}) as v(id, a, b, status, winner, sa, sb, games, forfeit, completed, comment, scheduled)
    where m.id = v.id`;
}

/** A result someone played: not a bye's, not a disqualified side's forfeit (those follow from other changes). */
const played = (m: ResolvedMatch): boolean => m.result !== null && !m.disqualification;

/** What a change of a match's result is called in the audit log, or null when no played result changed. */
function resultKind(before: ResolvedMatch, after: ResolvedMatch): AuditKind | null {
  if (!played(before) && !played(after)) return null;
  if (!played(after)) return 'resultReset';
  const forfeit = after.result!.forfeit !== null && (!played(before) || before.result!.forfeit !== after.result!.forfeit);
  if (forfeit) return 'forfeit';
  return played(before) ? 'resultCorrected' : 'resultEntered';
}

/**
 * How a stage save goes into the audit log: who made it, and the match they changed, if one (its
 * kind says a dispute was resolved; every other result that changed with it was reset by it).
 */
interface StageAudit {
  actor: AuditActor | null;
  target?: { index: number; disputed: boolean };
}

/** The audit rows of the played results a save changed, each with its match before and after. */
async function resultEntries(
  tx: Tx,
  tournament: TournamentRow,
  loaded: LoadedStage,
  resolved: readonly ResolvedMatch[],
  changed: readonly number[],
  audit: StageAudit,
): Promise<AuditEntry[]> {
  const kinds = changed.flatMap((index) => {
    const kind = resultKind(loaded.resolved[index]!, resolved[index]!);
    return kind ? [{ index, kind }] : [];
  });
  if (kinds.length === 0) return [];
  const names = await actorsOf(
    tx,
    tournament.soloOnly,
    kinds.flatMap(({ index }) => [loaded.resolved[index]!.a, loaded.resolved[index]!.b, resolved[index]!.a, resolved[index]!.b]),
  );
  const snapshot = (m: ResolvedMatch): MatchSnapshot => ({
    a: m.a ? (names.get(m.a)?.name ?? '') : null,
    b: m.b ? (names.get(m.b)?.name ?? '') : null,
    result: played(m) ? { scoreA: m.result!.scoreA, scoreB: m.result!.scoreB, winner: m.result!.winner, forfeit: m.result!.forfeit } : null,
  });
  const target = audit.target;
  const causedBy = target ? loaded.rows[target.index]!.id : null;
  return kinds.map(({ index, kind }) => {
    const isTarget = target?.index === index;
    return {
      tournamentId: tournament.id,
      matchId: loaded.rows[index]!.id,
      actor: audit.actor,
      kind: isTarget && target.disputed && kind !== 'resultReset' ? 'disputeResolved' : kind,
      // A result withdrawn because another match changed names that match.
      subjectId: target && !isTarget ? causedBy : null,
      before: snapshot(loaded.resolved[index]!),
      after: snapshot(resolved[index]!),
    };
  });
}

/**
 * Saves a stage's new state: the rows whose resolved state (or the given comment / time) changed,
 * the statistics of the results that changed, the tournament's version and SPEC bracket, and an
 * audit row for each played result that changed (`audit` says whose change it was).
 */
async function saveStage(
  tx: Tx,
  tournament: TournamentRow,
  all: LoadedStage[],
  loaded: LoadedStage,
  next: {
    entered: Map<number, EnteredResult>;
    seeds?: (string | null)[];
    disqualified?: string[];
    edits?: ReadonlyMap<number, { comment?: string; scheduledAt?: Date | null }>;
  },
  audit: StageAudit,
  alongside?: (saved: LoadedStage) => SQLWrapper[],
): Promise<{ stage: LoadedStage; all: LoadedStage[]; changed: number[]; version: number }> {
  const now = new Date();
  const stage = {
    ...loaded.stage,
    seeds: next.seeds ?? loaded.stage.seeds,
    disqualified: next.disqualified ?? loaded.stage.disqualified,
  };
  const resolved = resolveStage(loaded.plan, stage.seeds, next.entered, new Set(stage.disqualified));
  const changes: RowChange[] = [];
  const changedResults: string[] = [];
  const changed: number[] = [];
  const resultIndexes: number[] = [];
  loaded.rows.forEach((row, index) => {
    const desired = desiredRow(row, resolved[index]!, now);
    const edit = next.edits?.get(index);
    const comment = edit?.comment ?? row.comment;
    const scheduledAt = edit && 'scheduledAt' in edit ? (edit.scheduledAt ?? null) : row.scheduledAt;
    const same =
      !desired.resultChanged &&
      row.participantA === desired.participantA &&
      row.participantB === desired.participantB &&
      row.status === desired.status &&
      row.winner === desired.winner &&
      comment === row.comment &&
      (scheduledAt?.getTime() ?? null) === (row.scheduledAt?.getTime() ?? null);
    if (same) return;
    changes.push({
      id: row.id,
      version: row.version + 1,
      ...desired,
      comment,
      scheduledAt,
    });
    changed.push(index);
    if (desired.resultChanged) {
      changedResults.push(row.id);
      resultIndexes.push(index);
    }
  });
  const byId = new Map(loaded.rows.map((row) => [row.id, row]));
  const notices = await readyNotices(
    tx,
    tournament,
    changes
      .filter((c) => {
        const row = byId.get(c.id)!;
        return c.status === 'ready' && !(row.status === 'ready' && row.participantA === c.participantA && row.participantB === c.participantB);
      })
      .map((c) => ({ id: c.id, a: c.participantA, b: c.participantB, scheduledAt: c.scheduledAt })),
  );
  const rows = loaded.rows.map((row) => {
    const change = changes.find((c) => c.id === row.id);
    if (!change) return row;
    const { resultChanged: _, ...fields } = change;
    const keeps = change.status === 'ready' && row.participantA === change.participantA && row.participantB === change.participantB;
    const report = keeps ? {} : { reportState: null, reportedBy: null, confirmBy: null };
    return { ...row, ...fields, ...report, version: row.version + 1, updatedAt: now };
  });
  const saved: LoadedStage = {
    ...loaded,
    stage,
    rows,
    entered: next.entered,
    resolved,
  };
  const updatedAll = all.map((s) => (s.stage.id === stage.id ? saved : s));
  const bump = tournamentBump(tx, tournament, updatedAll);
  const audited = auditWrite(tx, await resultEntries(tx, tournament, loaded, resolved, resultIndexes, audit));
  // The next matches' notices, the stage, its rows, the tournament's version, the audit rows and the
  // caller's own (a confirmation's history row): one statement (more only past ROWS_PER_STATEMENT rows).
  const [rowsWrite, ...moreRows] = rowWrites(changes, now);
  await together(
    tx,
    [
      ...notices.writes,
      ...(stage.seeds !== loaded.stage.seeds || stage.disqualified !== loaded.stage.disqualified
        ? [tx.update(stages).set({ seeds: stage.seeds, disqualified: stage.disqualified }).where(eq(stages.id, stage.id))]
        : []),
      ...(rowsWrite ? [rowsWrite] : []),
      bump.write,
      ...(audited ? [audited] : []),
      ...(alongside?.(saved) ?? []),
    ],
    notices.signal,
  );
  notices.sent();
  for (const more of moreRows) await tx.execute(more);
  const { version } = bump;
  if (changedResults.length > 0) {
    const counted = new Set(changedResults);
    await countStageResults(tx, tournament, rows.filter((row) => counted.has(row.id)));
  }
  return { stage: saved, all: updatedAll, changed, version };
}

/** The update that bumps the tournament's competition version and keeps its SPEC bracket, and what it makes them. */
function tournamentBump(tx: Tx, tournament: TournamentRow, all: readonly LoadedStage[], extra: Partial<TournamentRow> = {}) {
  const bracket = projectedBracket(all);
  const write = tx
    .update(tournaments)
    .set({
      bracket,
      bracketVersion: sql`${tournaments.bracketVersion} + 1`,
      updatedAt: new Date(),
      ...extra,
    })
    .where(eq(tournaments.id, tournament.id));
  return { write, bracket, version: tournament.bracketVersion + 1 };
}

/** Bumps the tournament's competition version and keeps its SPEC bracket (one update). */
async function bumpTournament(tx: Tx, tournament: TournamentRow, all: readonly LoadedStage[], extra: Partial<TournamentRow> = {}) {
  const { write, bracket, version } = tournamentBump(tx, tournament, all, extra);
  await write;
  return { bracket, version };
}

export type StageRefusal =
  | 'notFound'
  | 'finished'
  | 'noParticipants'
  | 'needTwo'
  | 'tooMany'
  | 'manualParticipants'
  | 'fromNotFound'
  | 'fromNotComplete'
  | 'advanceTooFew'
  | 'thirdPlaceNeedsFour'
  | 'groupTooLarge';

export type StageCreated = { ok: true; stage: StageView; started: boolean } | { ok: false; reason: StageRefusal };

/** Who advances from a finished stage: the top `advance` of each group, cross-seeded; from an elimination stage, the best placed. */
function advancing(source: LoadedStage, advance: number): string[] {
  if (isElimination(source.stage.format)) {
    return placementsOf(source, [])
      .sort((x, y) => x.from - y.from)
      .slice(0, advance)
      .map((p) => p.participant);
  }
  return crossSeed(
    tablesOf(source).map((table) => table.map((row) => row.participant)),
    advance,
  );
}

/** A refusal found inside a change's transaction, thrown so the transaction rolls back whole. */
class Refused<T> extends Error {
  readonly outcome: T;
  constructor(outcome: T) {
    super('refused');
    this.outcome = outcome;
  }
}

/**
 * Runs a draw in one transaction that a refusal rolls back whole: a draw closes check-in before it
 * can tell whether enough checked in, and a refused draw must leave no drops, promotions or audit
 * rows behind. The close's notices go out only once the draw committed.
 */
async function drawing<T extends { ok: boolean }>(db: Tx, tournamentId: string, draw: (tx: Tx, close: (tx: Tx) => Promise<void>) => Promise<T>): Promise<T> {
  let closing = { closed: false } as CheckInClosing;
  const close = async (tx: Tx) => {
    closing = await closeCheckInWithin(tx, tournamentId);
  };
  try {
    const outcome = await db.transaction(async (tx) => {
      const result = await draw(tx, close);
      if (!result.ok) throw new Refused(result);
      return result;
    });
    if (closing.closed) published(tournamentId, 'checkIn', closing.told);
    return outcome;
  } catch (error) {
    if (error instanceof Refused) return error.outcome as T;
    throw error;
  }
}

/**
 * Creates a stage (issue 21, `POST …/stages`) in one transaction and a fixed number of queries:
 * its participants are the approved ones (or the top of an earlier stage's groups), seeded as
 * asked; the whole stage is built in memory and written with one insert per table. Creating the
 * first stage closes applications, as drawing a bracket does.
 */
export async function createStage(db: Tx, tournamentId: string, input: StageCreateInput, actor: AuditActor): Promise<StageCreated> {
  return drawing(db, tournamentId, async (tx, closeCheckIn): Promise<StageCreated> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    if (normalizeStatus(tournament.status) === 'finished') return { ok: false, reason: 'finished' };
    let all = await loadStages(tx, tournamentId);
    const seeding = input.seeding ?? 'order';
    const settings = input.settings ?? {};
    let pool: string[];
    // Disqualified in the stage that feeds this one: they forfeit here too.
    let carried: string[] = [];
    if (input.from) {
      const source = all.find((s) => s.stage.id === input.from!.stageId);
      if (!source) return { ok: false, reason: 'fromNotFound' };
      if (!finished(source)) return { ok: false, reason: 'fromNotComplete' };
      pool = advancing(source, input.from.advance);
      carried = source.stage.disqualified.filter((id) => pool.includes(id));
      if (pool.length < 2) return { ok: false, reason: 'advanceTooFew' };
    } else {
      // Check-in (issue 22): its end is carried out first, and only those who checked in are seeded.
      if (tournament.checkInEnabled && !tournament.checkInClosedAt) await closeCheckIn(tx);
      const approved = await approvedParticipants(tx, tournament, { checkedInOnly: tournament.checkInEnabled });
      if (approved.length === 0) return { ok: false, reason: 'noParticipants' };
      pool = approved.map((p) => p._id);
    }
    if (pool.length < 2) return { ok: false, reason: 'needTwo' };
    if (pool.length > MAX_STAGE_PARTICIPANTS) return { ok: false, reason: 'tooMany' };
    if (input.format === 'single_elimination' && settings.thirdPlace && pool.length < 4) return { ok: false, reason: 'thirdPlaceNeedsFour' };
    if (input.format === 'round_robin' && Math.ceil(pool.length / groupCount(pool.length, settings)) > MAX_ROUND_ROBIN_GROUP) {
      return { ok: false, reason: 'groupTooLarge' };
    }
    if (seeding === 'manual') {
      const given = input.participants ?? [];
      if (given.length !== pool.length || new Set(given).size !== given.length || given.some((id) => !pool.includes(id))) {
        return { ok: false, reason: 'manualParticipants' };
      }
      pool = [...given];
    }
    const ratings = seeding === 'rating' || input.format === 'swiss' ? await ratingsOf(tx, tournament, pool) : new Map<string, number>();
    // Playoffs keep the cross-seeded order; `standard` pairs it 1 v n.
    const ordered = input.from ? pool : seedOrder(pool, seeding, ratings);
    const draft = draftStage(input.format, settings, ordered, input.from ? 'standard' : seeding, ratings);
    const top = all.at(-1)?.stage.number ?? 0;
    const [stage] = await tx
      .insert(stages)
      .values({
        tournamentId: tournament.id,
        number: top + 1,
        name: input.name ?? '',
        format: input.format,
        // Playoffs from groups are cross-seeded and paired 1 v n, whatever was asked.
        seeding: input.from ? 'standard' : seeding,
        settings,
        seeds: draft.seeds,
        disqualified: carried,
        fromStageId: input.from?.stageId ?? null,
        advance: input.from?.advance ?? null,
      })
      .returning();
    const groupIds = new Map(draft.groups.map((_, g) => [g + 1, randomUUID()]));
    if (groupIds.size > 0)
      await tx.insert(stageGroups).values(
        [...groupIds].map(([number, id]) => ({
          id,
          stageId: stage!.id,
          number,
        })),
      );
    const resolved = resolveStage(draft.plan, draft.seeds, new Map(), new Set(carried));
    await insertMatches(tx, stage!.id, draft.plan, resolved, groupIds, tournament);
    const started = normalizeStatus(tournament.status) === 'pending';
    const [created] = await loadStages(tx, tournament.id).then((loaded) => {
      all = loaded;
      return loaded.filter((s) => s.stage.id === stage!.id);
    });
    await bumpTournament(tx, tournament, all, started ? { status: 'started' } : {});
    await recordAudit(tx, stageCreatedEntry(tournament.id, created!.stage, actor));
    return { ok: true, stage: stageView(created!), started };
  });
}

/** A stage as the audit log keeps it. */
const stageSnapshot = (stage: StageRow, results?: number): StageSnapshot => ({
  name: stage.name,
  number: stage.number,
  format: stage.format,
  participants: stage.seeds.filter((id) => id !== null).length,
  ...(results === undefined ? {} : { results }),
});

const stageCreatedEntry = (tournamentId: string, stage: StageRow, actor: AuditActor): AuditEntry => ({
  tournamentId,
  actor,
  kind: 'stageCreated',
  subjectId: stage.id,
  after: stageSnapshot(stage),
});

/** Withdraws every result of these stages from the statistics and deletes the stages (each a `stageReset` in the audit log). */
async function withdrawStages(tx: Tx, tournament: TournamentRow, all: readonly LoadedStage[], actor: AuditActor) {
  if (all.length === 0) return;
  const tournamentId = tournament.id;
  await recordAudit(
    tx,
    all.map((s) => ({
      tournamentId,
      actor,
      kind: 'stageReset' as const,
      subjectId: s.stage.id,
      before: stageSnapshot(s.stage, s.resolved.filter(played).length),
    })),
  );
  const withdrawn = { status: 'waiting' as const, winner: null, completedAt: null };
  const withResults = all.flatMap((s) => s.rows.filter((_, i) => s.resolved[i]?.result).map((r) => ({ ...r, ...withdrawn })));
  if (withResults.length > 0) {
    await tx
      .update(stageMatches)
      .set(withdrawn)
      .where(
        inArray(
          stageMatches.id,
          withResults.map((r) => r.id),
        ),
      );
    await countStageResults(tx, tournament, withResults);
  }
  await tx.delete(stages).where(
    inArray(
      stages.id,
      all.map((s) => s.stage.id),
    ),
  );
}

export type MatchRefusal = 'notFound' | 'finished' | 'notReady' | 'bye' | 'noResult' | 'feedsLater' | ResultRefusal;

export type MatchSaved =
  | {
      ok: true;
      stale: false;
      preview: boolean;
      match: StageMatchView;
      reset: StageMatchView[];
      tournamentId: string;
      /** The match as saved, its tournament still locked (as it was, for a preview), and the competition version it has now. */
      after: LockedMatch;
      version: number;
    }
  | { ok: true; stale: true; match: StageMatchView }
  | { ok: false; reason: MatchRefusal; bestOf: number };

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
const readTournamentOfMatch = tournamentOfMatch(false);

/** Finds the stage match, its tournament locked: the tournament's writes queue up. */
export async function lockMatch(tx: Tx, matchId: string): Promise<LockedMatch | null> {
  const [tournament] = await lockTournamentOfMatch(tx).execute({ matchId });
  if (!tournament) return null;
  return locate(tournament, await stagesAt(tx, tournament, true), matchId);
}

/** The match among its tournament's loaded stages. */
function locate(tournament: TournamentRow, all: LoadedStage[], matchId: string): LockedMatch | null {
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

/** The locked match as the API shows it, its stored row, and the rules its result is judged by. */
export function lockedView(found: LockedMatch) {
  const { loaded, index, all } = found;
  return {
    match: matchView(loaded, index),
    row: loaded.rows[index]!,
    rules: { bestOf: loaded.stage.settings.bestOf ?? 1, draws: allowsDraws(loaded.stage.format) },
    // A later stage was seeded from this one's tables: a changed result here would not reach it.
    feedsLater: all.some((s) => s.stage.fromStageId === loaded.stage.id),
  };
}

/**
 * Changes a match whose tournament the caller locked (`lockMatch`): its result (entered,
 * corrected or withdrawn), comment or time. The admin's edit and a players' confirmed report both
 * end here, so a result is applied one way whoever gives it: later matches reset, the statistics
 * and ratings follow, the tournament's version moves.
 */
export async function changeLockedMatch(
  tx: Tx,
  found: LockedMatch,
  input: Omit<MatchUpdateInput, 'version'>,
  actor: AuditActor | null,
  alongside?: (match: StageMatchView) => SQLWrapper[],
): Promise<MatchSaved> {
  const { tournament, all, loaded, index } = found;
  const bestOf = loaded.stage.settings.bestOf ?? 1;
  if (normalizeStatus(tournament.status) === 'finished') return { ok: false, reason: 'finished', bestOf };
  const state = loaded.resolved[index]!;
  const entered = new Map(loaded.entered);
  const wantsResult = input.scoreA !== undefined || input.scoreB !== undefined || (input.games?.length ?? 0) > 0 || Boolean(input.forfeit);
  // A later stage was seeded from this one's tables: a changed result here would not reach it.
  if ((wantsResult || input.reset) && all.some((s) => s.stage.fromStageId === loaded.stage.id)) return { ok: false, reason: 'feedsLater', bestOf };
  if (input.reset) {
    if (state.bye) return { ok: false, reason: 'bye', bestOf };
    if (!entered.has(index)) return { ok: false, reason: 'noResult', bestOf };
    entered.delete(index);
  } else if (wantsResult) {
    if (state.bye) return { ok: false, reason: 'bye', bestOf };
    if (!state.a || !state.b) return { ok: false, reason: 'notReady', bestOf };
    const judged = judgeResult(input, {
      bestOf,
      draws: allowsDraws(loaded.stage.format),
    });
    if (!judged.ok) return { ok: false, reason: judged.reason, bestOf };
    entered.set(index, { a: state.a, b: state.b, result: judged.result });
  }
  const edit: { comment?: string; scheduledAt?: Date | null } = {};
  if (input.comment !== undefined) edit.comment = input.comment;
  if (input.scheduledAt !== undefined) edit.scheduledAt = input.scheduledAt === null ? null : new Date(input.scheduledAt);
  const after = resolveStage(loaded.plan, loaded.stage.seeds, entered, new Set(loaded.stage.disqualified));
  const resetIndexes = resetBy(loaded.resolved, after).filter((i) => i !== index);
  if (input.preview) {
    const previewed = { ...loaded, resolved: after };
    return {
      ok: true,
      stale: false,
      preview: true,
      match: matchView(previewed, index),
      reset: resetIndexes.map((i) => matchView(previewed, i)),
      tournamentId: tournament.id,
      after: found,
      version: tournament.bracketVersion,
    };
  }
  const { stage, all: savedAll, version } = await saveStage(
    tx,
    tournament,
    all,
    loaded,
    {
      entered,
      edits: new Map([[index, edit]]),
    },
    { actor, target: { index, disputed: loaded.rows[index]!.reportState === 'disputed' } },
    alongside && ((saved) => alongside(matchView(saved, index))),
  );
  return {
    ok: true,
    stale: false,
    preview: false,
    match: matchView(stage, index),
    reset: resetIndexes.map((i) => matchView(stage, i)),
    tournamentId: tournament.id,
    after: { tournament: { ...tournament, bracketVersion: version }, all: savedAll, loaded: stage, index },
    version,
  };
}

/**
 * Enters, corrects or withdraws a match's result, or changes its comment or time (issue 21,
 * `PATCH /api/matches/{id}`), in one transaction. An edit based on an older version of the match
 * changes nothing. A changed result resets the matches built on the old one (`preview` only lists
 * them); the statistics follow. A result or a withdrawal by `actor` goes into the match's
 * history and the audit log and ends the players' reports; a dispute it settles is announced to both sides.
 */
export async function updateMatch(db: Tx, matchId: string, input: MatchUpdateInput, actor: AuditActor): Promise<MatchSaved> {
  return db.transaction(async (tx): Promise<MatchSaved> => {
    const found = await lockMatch(tx, matchId);
    if (!found) return { ok: false, reason: 'notFound', bestOf: 1 };
    const { loaded, index, tournament } = found;
    const row = loaded.rows[index]!;
    if (row.version !== input.version) return { ok: true, stale: true, match: matchView(loaded, index) };
    const wantsResult = input.scoreA !== undefined || input.scoreB !== undefined || (input.games?.length ?? 0) > 0 || Boolean(input.forfeit);
    // The history row goes in the statement that saves the result (`saveStage`).
    const history = (m: StageMatchView): SQLWrapper[] =>
      input.reset
        ? [actionWrite({ matchId, kind: 'reset', userId: actor.id })]
        : wantsResult
          ? [actionWrite({ matchId, kind: 'result', userId: actor.id, scoreA: m.scoreA, scoreB: m.scoreB, games: m.games, reason: input.comment ?? '' })]
          : [];
    const saved = await changeLockedMatch(tx, found, input, actor, history);
    if (!saved.ok || saved.stale || saved.preview) return saved;
    if ((input.reset || wantsResult) && row.reportState === 'disputed' && saved.match.status === 'completed') {
      await announceResolved(tx, tournament, saved.match);
    }
    return saved;
  });
}

/** `disputeResolved` to both sides of a match the admin decided. */
async function announceResolved(tx: Tx, tournament: TournamentRow, match: StageMatchView) {
  const actors = await actorsOf(tx, tournament.soloOnly, [match.a, match.b]);
  const notices: Notice[] = [match.a, match.b].flatMap((id) => {
    const actor = id ? actors.get(id) : undefined;
    const opponent = actors.get((id === match.a ? match.b : match.a) ?? '');
    return actor
      ? [
          {
            userId: actor.userId,
            kind: 'disputeResolved' as const,
            params: { tournament: tournament.title, opponent: opponent?.name ?? '', score: `${match.scoreA ?? '–'}:${match.scoreB ?? '–'}` },
            link: `/matches/${match._id}`,
            tournamentId: tournament.id,
          },
        ]
      : [];
  });
  await announce(tx, notices);
}

/** A stage match with its stage and tournament (`GET /api/matches/{id}`). */
export async function findMatch(db: Tx, matchId: string): Promise<MatchState | null> {
  const [tournament] = await readTournamentOfMatch(db).execute({ matchId });
  if (!tournament) return null;
  const found = locate(tournament, await stagesAt(db, tournament, false), matchId);
  return found && matchState(db, found);
}

/**
 * A match as `GET /api/matches/{id}` shows it, from its loaded stage. A players' action answers with
 * it right after its commit, from the stage as it saved it and the actors it already read (`known`),
 * instead of reading the whole match again.
 */
export async function matchState(db: Tx, { tournament, loaded, index }: LockedMatch, known?: ReadonlyMap<string, SideActor>): Promise<MatchState> {
  const { stage } = loaded;
  const { a, b } = loaded.resolved[index]!;
  const sides = [a, b].filter((id): id is string => id !== null);
  const [participants, day] = await Promise.all([
    sides.length > 0 ? approvedParticipants(db, tournament, { only: sides }) : [],
    matchDay(db, tournament, loaded.rows[index]!, loaded.resolved[index]!, known),
  ]);
  return {
    match: matchView(loaded, index),
    stage: {
      _id: stage.id,
      format: stage.format,
      name: stage.name,
      number: stage.number,
      settings: stage.settings,
    },
    tournament: {
      _id: tournament.id,
      title: tournament.title,
      soloOnly: tournament.soloOnly,
    },
    participants,
    ...day,
  };
}

/** A match's history, oldest first, with who acted: prepared (db/prepared.ts), as every players' action and read of a match answers with it. */
const historyOf = prepared((db) =>
  db
    .select({ action: matchActions, username: users.username })
    .from(matchActions)
    .leftJoin(users, eq(users.id, matchActions.userId))
    .where(eq(matchActions.matchId, sql.placeholder('matchId')))
    .orderBy(asc(matchActions.createdAt), asc(matchActions.id))
    .prepare('match_history'),
);

/** A match's players' side (issue 22): who acts for each side, the report waiting or disputed, the history. */
async function matchDay(
  db: Tx,
  tournament: TournamentRow,
  row: MatchRow,
  state: ResolvedMatch,
  known?: ReadonlyMap<string, SideActor>,
): Promise<Pick<MatchState, 'actors' | 'report' | 'actions'>> {
  const sides = [state.a, state.b];
  const [actors, history] = await Promise.all([
    known && sides.every((id) => id === null || known.has(id)) ? known : actorsOf(db, tournament.soloOnly, sides),
    historyOf(db).execute({ matchId: row.id }),
  ]);
  const reported = history.findLast((h) => h.action.kind === 'report')?.action;
  return {
    actors: { a: (state.a && actors.get(state.a)?.userId) ?? null, b: (state.b && actors.get(state.b)?.userId) ?? null },
    report:
      row.reportState && row.reportedBy && reported
        ? {
            state: row.reportState,
            side: row.reportedBy,
            scoreA: reported.scoreA,
            scoreB: reported.scoreB,
            games: reported.games ?? [],
            confirmBy: row.confirmBy?.toISOString() ?? null,
          }
        : null,
    actions: history.map(({ action: a, username }) => ({
      _id: a.id,
      kind: a.kind,
      user: a.userId && username !== null ? { _id: a.userId, username } : null,
      side: a.side,
      scoreA: a.scoreA,
      scoreB: a.scoreB,
      games: a.games,
      reason: a.reason,
      at: a.createdAt.toISOString(),
    })),
  };
}

export type NextRound = { ok: true; stage: StageView; round: number } | { ok: false; reason: 'tournamentNotFound' | 'notFound' | 'finished' | NextRoundRefusal };

/** Pairs the next Swiss round of a stage (`POST …/stages/{stageId}/next-round`). */
export async function pairNextRound(db: Tx, tournamentId: string, stageId: string): Promise<NextRound> {
  return db.transaction(async (tx): Promise<NextRound> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'tournamentNotFound' };
    const all = await loadStages(tx, tournamentId);
    const loaded = all.find((s) => s.stage.id === stageId);
    if (!loaded) return { ok: false, reason: 'notFound' };
    if (normalizeStatus(tournament.status) === 'finished') return { ok: false, reason: 'finished' };
    if (loaded.stage.format !== 'swiss') return { ok: false, reason: 'notSwiss' };
    const ratings = await ratingsOf(tx, tournament, loaded.groups.flat());
    // The disqualified are paired no more (nor given a bye's points).
    const out = new Set(loaded.stage.disqualified);
    const playing = loaded.groups.map((members) => members.filter((id) => !out.has(id)));
    const next = nextSwissRound(loaded.stage.settings, playing, loaded.resolved, ratings);
    if (!next.ok) return next;
    const groupRows = await tx.select().from(stageGroups).where(eq(stageGroups.stageId, stageId));
    const groupIds = new Map(groupRows.map((g) => [g.number, g.id]));
    const fresh = resolveStage(next.plan, [], new Map(), new Set(loaded.stage.disqualified));
    await insertMatches(tx, stageId, next.plan, fresh, groupIds, tournament);
    const reloaded = await loadStages(tx, tournamentId);
    await bumpTournament(tx, tournament, reloaded);
    return {
      ok: true,
      stage: stageView(reloaded.find((s) => s.stage.id === stageId)!),
      round: next.round,
    };
  });
}

export type Disqualified =
  | { ok: true; stages: StageView[] }
  | {
      ok: false;
      reason: 'notFound' | 'finished' | 'notParticipant' | 'already';
    };

/**
 * Disqualifies a participant (issue 21): in every stage they play, each match of theirs not yet
 * played is forfeited to the opponent, now and as later ones come; results already entered stand.
 */
export async function disqualify(db: Tx, tournamentId: string, participant: string, actor: AuditActor): Promise<Disqualified> {
  return db.transaction(async (tx): Promise<Disqualified> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    if (normalizeStatus(tournament.status) === 'finished') return { ok: false, reason: 'finished' };
    let all = await loadStages(tx, tournamentId);
    const playing = all.filter((s) => s.stage.seeds.includes(participant));
    if (playing.length === 0) return { ok: false, reason: 'notParticipant' };
    if (playing.every((s) => s.stage.disqualified.includes(participant))) return { ok: false, reason: 'already' };
    let forfeits = 0;
    for (const loaded of playing) {
      if (loaded.stage.disqualified.includes(participant)) continue;
      const current = all.find((s) => s.stage.id === loaded.stage.id)!;
      const { stage, changed } = await saveStage(
        tx,
        tournament,
        all,
        current,
        {
          entered: current.entered,
          disqualified: [...current.stage.disqualified, participant],
        },
        { actor },
      );
      forfeits += changed.filter((i) => stage.resolved[i]!.disqualification && !current.resolved[i]!.disqualification).length;
      all = all.map((s) => (s.stage.id === stage.stage.id ? stage : s));
    }
    const name = (await actorsOf(tx, tournament.soloOnly, [participant])).get(participant)?.name ?? '';
    const after: DisqualifiedSnapshot = { participant: name, forfeits };
    await recordAudit(tx, { tournamentId, actor, kind: 'disqualified', subjectId: participant, after });
    return { ok: true, stages: all.map(stageView) };
  });
}

/* The SPEC bracket (`POST/PATCH …/bracket`) over the single-elimination stage. */

/** Whether a tournament's stages hold a result someone played (byes do not count). */
/**
 * Whether a tournament runs stages the SPEC bracket cannot show (other formats, or several
 * stages): the bracket window may then neither draw over them nor clear them.
 */
const hasOtherStages = (all: readonly LoadedStage[]) => all.some((s) => s.stage.format !== 'single_elimination') || all.length > 1;

const hasPlayedResults = (all: readonly LoadedStage[]) => all.some((s) => s.resolved.some((m) => m.result && !m.disqualification));

export type BracketDraw =
  | {
      ok: true;
      bracket: Bracket;
      version: number;
      participants: BracketParticipant[];
      row: TournamentRow;
      started: boolean;
    }
  | {
      ok: false;
      reason: 'notFound' | 'hasResults' | 'noParticipants' | 'needTwo' | 'otherStages';
    };

/**
 * Draws the SPEC bracket (SPEC §4 Bracket creation): a single-elimination stage of the approved
 * participants in place of any stages there were (over played results only with `replace`).
 */
export async function drawSingleElimination(
  db: Tx,
  tournamentId: string,
  options: { seeding: 'order' | 'standard'; replace: boolean },
  actor: AuditActor,
): Promise<BracketDraw> {
  return drawing(db, tournamentId, async (tx, closeCheckIn): Promise<BracketDraw> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    const all = await loadStages(tx, tournamentId);
    if (hasOtherStages(all)) return { ok: false, reason: 'otherStages' };
    if (hasPlayedResults(all) && !options.replace) return { ok: false, reason: 'hasResults' };
    // As a first stage does: check-in ends first, and only those who checked in are drawn.
    if (all.length === 0 && tournament.checkInEnabled && !tournament.checkInClosedAt) await closeCheckIn(tx);
    const participants = await approvedParticipants(tx, tournament, { checkedInOnly: tournament.checkInEnabled });
    if (participants.length === 0) return { ok: false, reason: 'noParticipants' };
    if (participants.length < 2) return { ok: false, reason: 'needTwo' };
    await withdrawStages(tx, tournament, all, actor);
    const draft = draftStage(
      'single_elimination',
      {},
      participants.map((p) => p._id),
      options.seeding,
    );
    const [stage] = await tx
      .insert(stages)
      .values({
        tournamentId: tournament.id,
        number: 1,
        format: 'single_elimination',
        seeding: options.seeding,
        seeds: draft.seeds,
      })
      .returning();
    await insertMatches(tx, stage!.id, draft.plan, resolveStage(draft.plan, draft.seeds, new Map()), new Map(), tournament);
    await recordAudit(tx, stageCreatedEntry(tournament.id, stage!, actor));
    const started = normalizeStatus(tournament.status) === 'pending';
    const { bracket, version } = await bumpTournament(tx, tournament, await loadStages(tx, tournament.id), started ? { status: 'started' } : {});
    return {
      ok: true,
      bracket,
      version,
      participants,
      row: started ? { ...tournament, status: 'started' } : tournament,
      started,
    };
  });
}

/**
 * Saves an edited SPEC bracket onto the single-elimination stage (the caller has checked it with
 * the engine's `findProblem`): its first round becomes the seeds, its winners the results, its
 * comments the matches' comments. A tournament without one gets one; an empty bracket clears them.
 */
export async function saveSingleElimination(
  tx: Tx,
  tournament: TournamentRow,
  bracket: Bracket,
  actor: AuditActor,
): Promise<{ ok: true; bracket: Bracket; version: number } | { ok: false; reason: 'otherStages' }> {
  const all = await loadStages(tx, tournament.id);
  // With other stages, the bracket window edits the single-elimination playoff in place, no more.
  const playoff = all.findLast((s) => s.stage.format === 'single_elimination');
  if (hasOtherStages(all) && (bracket.length === 0 || !playoff || playoff.stage.seeds.length !== (bracket[0]?.matches.length ?? 0) * 2)) {
    return { ok: false, reason: 'otherStages' };
  }
  if (bracket.length === 0) {
    await withdrawStages(tx, tournament, all, actor);
    return { ok: true, ...(await bumpTournament(tx, tournament, [])) };
  }
  let stage = all.findLast((s) => s.stage.format === 'single_elimination');
  const { seeds, entered, comments } = fromBracket(bracket, stage?.entered);
  // The SPEC bracket holds the winners' side only: the third-place match keeps its result.
  stage?.entered.forEach((result, index) => {
    if (stage!.plan[index]?.side !== 'winners') entered.set(index, result);
  });
  if (!stage || stage.stage.seeds.length !== seeds.length) {
    if (stage) await withdrawStages(tx, tournament, [stage], actor);
    const [created] = await tx
      .insert(stages)
      .values({
        tournamentId: tournament.id,
        number: (all.at(-1)?.stage.number ?? 0) + 1,
        format: 'single_elimination',
        seeds,
      })
      .returning();
    const plan = singleEliminationPlan(seeds.length);
    await insertMatches(tx, created!.id, plan, resolveStage(plan, seeds, new Map()), new Map(), tournament);
    await recordAudit(tx, stageCreatedEntry(tournament.id, created!, actor));
    const reloaded = await loadStages(tx, tournament.id);
    stage = reloaded.find((s) => s.stage.id === created!.id)!;
    return { ok: true, ...(await saveAndProject(tx, tournament, reloaded, stage, seeds, entered, comments, actor)) };
  }
  return { ok: true, ...(await saveAndProject(tx, tournament, all, stage, seeds, entered, comments, actor)) };
}

async function saveAndProject(
  tx: Tx,
  tournament: TournamentRow,
  all: LoadedStage[],
  stage: LoadedStage,
  seeds: (string | null)[],
  entered: Map<number, EnteredResult>,
  comments: readonly string[],
  actor: AuditActor,
): Promise<{ bracket: Bracket; version: number }> {
  const edits = new Map(comments.map((comment, index) => [index, { comment }]));
  // Each result the save changed is a row of its own (entered, corrected or withdrawn): a bracket save has no one match it is about.
  const { stage: saved } = await saveStage(tx, tournament, all, stage, { entered, seeds, edits }, { actor });
  const bracket = bracketOf(
    saved.resolved,
    saved.rows.map((r) => r.comment),
  );
  return { bracket, version: tournament.bracketVersion + 1 };
}
