import { randomUUID } from 'node:crypto';
import { eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PlannedMatch } from '../../../../lib/domain/stage/plan.ts';
import { resolveStage, type EnteredResult, type ResolvedMatch } from '../../../../lib/domain/stage/resolve.ts';
import type { Tx } from '../../../db/client.ts';
import { stageMatches, stageRounds, stages, tournaments } from '../../../db/schema/index.ts';
import { together } from '../../../db/together.ts';
import { auditWrite, recordAudit, type AuditActor } from '../audit.ts';
import { announceReady, readyNotices } from '../../match-day/match-actions.ts';
import { pairingResets } from '../../match-room/pairing.ts';
import { stageMatchId } from '../match-ids.ts';
import { countLobbyResults, countStageResults } from '../../statistics/stage-stats.ts';
import { played, resultEntries, stageSnapshot, type StageAudit } from './audit-entries.ts';
import { tellStageMoments } from './tell.ts';
import { resultColumns, type LoadedStage, type MatchRow, type TournamentRow } from './store.ts';
import { projectedBracket } from './views.ts';

/*
 * Writing stages: new matches inserted, a stage's changed rows written back in one statement, the
 * tournament's competition version bumped with its SPEC bracket, stages withdrawn.
 */

/** Match rows a statement carries: 2 000 × 14 parameters stays under PostgreSQL's 65 535 (a 256-player double elimination is 511). */
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
    ...resultColumns(state.result),
    status: state.status,
    completedAt: state.status === 'completed' ? now : null,
    readyAt: readySince(null, state, now),
  };
}

/** Inserts the groups, rounds and matches of plan entries: one insert per table, whatever their number. */
export async function insertMatches(
  tx: Tx,
  stageId: string,
  plan: readonly PlannedMatch[],
  resolved: readonly ResolvedMatch[],
  groupIds: ReadonlyMap<number, string>,
  tournament: Pick<TournamentRow, 'id' | 'title' | 'soloOnly' | 'timeZone' | 'matchCheckInMinutes'>,
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
  const ready = plan.flatMap((m, i) => (rows[i]!.status === 'ready' ? [{ id: rows[i]!.id!, round: m.round, a: rows[i]!.participantA ?? null, b: rows[i]!.participantB ?? null }] : []));
  await tellStageMoments(tx, tournament, stageId, { roundsStarted: ready.map((m) => m.round), ready, completed: [] });
  return rows.map((r) => r.id!);
}

/**
 * Since when the match has been ready between its present sides (its check-in's timer runs from
 * there, services/match-room/check-in.ts): kept while it stays ready between the same two, now when
 * it becomes ready, null otherwise.
 */
function readySince(
  row: Pick<MatchRow, 'status' | 'participantA' | 'participantB' | 'readyAt'> | null,
  state: { status: string; a: string | null; b: string | null },
  now: Date,
): Date | null {
  if (state.status !== 'ready' || !state.a || !state.b) return null;
  const same = row?.status === 'ready' && row.participantA === state.a && row.participantB === state.b;
  return same ? (row.readyAt ?? now) : now;
}

/** What a match row should hold for its resolved state. */
function desiredRow(row: MatchRow, state: ResolvedMatch, now: Date) {
  const result = resultColumns(state.result);
  const sameResult =
    row.status === 'completed' &&
    state.status === 'completed' &&
    row.participantA === state.a &&
    row.participantB === state.b &&
    row.winner === state.winner &&
    row.scoreA === result.scoreA &&
    row.scoreB === result.scoreB &&
    row.forfeit === result.forfeit &&
    JSON.stringify(row.games) === JSON.stringify(result.games);
  return {
    participantA: state.a,
    participantB: state.b,
    status: state.status,
    winner: state.winner,
    ...result,
    // A corrected result keeps its time, so the ratings replay it where it was played.
    completedAt: state.status !== 'completed' ? null : (row.completedAt ?? now),
    resultChanged: !sameResult && (row.status === 'completed' || state.status === 'completed'),
  };
}

type RowChange = { id: string; version: number } & ReturnType<typeof desiredRow> & {
    comment: string;
    commentPublic: boolean;
    scheduledAt: Date | null;
    readyAt: Date | null;
  };

/** What an edit of a match may change besides its result: its comment, whether everyone sees it, its time. */
export type MatchEdit = { comment?: string; commentPublic?: boolean; scheduledAt?: Date | null };

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
      sql`(${c.id}::uuid, ${c.participantA}::uuid, ${c.participantB}::uuid, ${c.status}, ${c.winner}::uuid, ${c.scoreA}::int, ${c.scoreB}::int, ${JSON.stringify(c.games)}::jsonb, ${c.forfeit}, ${c.completedAt?.toISOString() ?? null}::timestamptz, ${c.comment}, ${c.commentPublic}::boolean, ${c.scheduledAt?.toISOString() ?? null}::timestamptz, ${c.readyAt?.toISOString() ?? null}::timestamptz)`,
  );
  return sql`
    update ${stageMatches} as m set
      participant_a = v.a, participant_b = v.b, status = v.status, winner = v.winner, score_a = v.sa, score_b = v.sb,
      games = v.games, forfeit = v.forfeit, completed_at = v.completed, comment = v.comment, comment_public = v.comment_public, scheduled_at = v.scheduled, ready_at = v.ready,
      version = m.version + 1, updated_at = ${now.toISOString()}::timestamptz,
      report_state = case when ${keepsReport} then m.report_state end,
      reported_by = case when ${keepsReport} then m.reported_by end,
      confirm_by = case when ${keepsReport} then m.confirm_by end
    from (values ${sql.join(values, sql`, `)}) as v(id, a, b, status, winner, sa, sb, games, forfeit, completed, comment, comment_public, scheduled, ready)
    where m.id = v.id`;
}

/**
 * Saves a stage's new state: the rows whose resolved state (or the given comment, its publicity / time) changed,
 * the statistics of the results that changed, the tournament's version and SPEC bracket, and an
 * audit row for each played result that changed (`audit` says whose change it was).
 */
export async function saveStage(
  tx: Tx,
  tournament: TournamentRow,
  all: LoadedStage[],
  loaded: LoadedStage,
  next: {
    entered: Map<number, EnteredResult>;
    seeds?: (string | null)[];
    disqualified?: string[];
    edits?: ReadonlyMap<number, MatchEdit>;
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
    const commentPublic = edit?.commentPublic ?? row.commentPublic;
    const scheduledAt = edit && 'scheduledAt' in edit ? (edit.scheduledAt ?? null) : row.scheduledAt;
    const same =
      !desired.resultChanged &&
      row.participantA === desired.participantA &&
      row.participantB === desired.participantB &&
      row.status === desired.status &&
      row.winner === desired.winner &&
      comment === row.comment &&
      commentPublic === row.commentPublic &&
      (scheduledAt?.getTime() ?? null) === (row.scheduledAt?.getTime() ?? null);
    if (same) return;
    changes.push({
      id: row.id,
      version: row.version + 1,
      ...desired,
      comment,
      commentPublic,
      scheduledAt,
      readyAt: readySince(row, { status: desired.status, a: desired.participantA, b: desired.participantB }, now),
    });
    changed.push(index);
    if (desired.resultChanged) {
      changedResults.push(row.id);
      resultIndexes.push(index);
    }
  });
  const byId = new Map(loaded.rows.map((row) => [row.id, row]));
  const sameSides = (c: RowChange) => {
    const row = byId.get(c.id)!;
    return row.participantA === c.participantA && row.participantB === c.participantB;
  };
  // Only a match that was ready or played can have a room under way.
  const hadRoom = (c: RowChange) => byId.get(c.id)!.status !== 'waiting';
  const rooms = pairingResets(tx, {
    newSides: changes.filter((c) => hadRoom(c) && !sameSides(c)).map((c) => c.id),
    replayed: changes.filter((c) => c.status === 'ready' && byId.get(c.id)!.status === 'completed' && sameSides(c)).map((c) => c.id),
  });
  const madeReady = changes.filter((c) => {
    const row = byId.get(c.id)!;
    return c.status === 'ready' && !(row.status === 'ready' && row.participantA === c.participantA && row.participantB === c.participantB);
  });
  const notices = await readyNotices(
    tx,
    tournament,
    madeReady.map((c) => ({ id: c.id, a: c.participantA, b: c.participantB, scheduledAt: c.scheduledAt })),
  );
  // A round starts with its first match made ready: none of its matches was ready or played before.
  const roundOf = new Map(loaded.rows.map((row, index) => [row.id, loaded.plan[index]!.round]));
  const begun = new Set(loaded.rows.filter((row) => row.status !== 'waiting').map((row) => roundOf.get(row.id)));
  const settled = new Set(resultIndexes.filter((index) => played(resolved[index]!)).map((index) => loaded.rows[index]!.id));
  await tellStageMoments(tx, tournament, loaded.stage.id, {
    roundsStarted: madeReady.map((c) => roundOf.get(c.id)!).filter((round) => !begun.has(round)),
    ready: madeReady.map((c) => ({ id: c.id, round: roundOf.get(c.id)!, a: c.participantA, b: c.participantB })),
    completed: changes
      .filter((c) => settled.has(c.id) && c.status === 'completed')
      .map((c) => ({ id: c.id, round: roundOf.get(c.id)!, a: c.participantA, b: c.participantB, scoreA: c.scoreA, scoreB: c.scoreB, winner: c.winner })),
  });
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
      ...rooms,
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
export async function bumpTournament(tx: Tx, tournament: TournamentRow, all: readonly LoadedStage[], extra: Partial<TournamentRow> = {}) {
  const { write, bracket, version } = tournamentBump(tx, tournament, all, extra);
  await write;
  return { bracket, version };
}

/** Withdraws every result of these stages from the statistics and deletes the stages (each a `stageReset` in the audit log). */
export async function withdrawStages(tx: Tx, tournament: TournamentRow, all: readonly LoadedStage[], actor: AuditActor) {
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
  // A free-for-all's lobbies go with their stages: their records are taken back first.
  const lobbies = all.flatMap((s) => s.lobbies.filter((l) => l.row.completedAt !== null).map((l) => ({ id: l.row.id, completedAt: null, table: [] })));
  await countLobbyResults(tx, tournament, lobbies);
  await tx.delete(stages).where(
    inArray(
      stages.id,
      all.map((s) => s.stage.id),
    ),
  );
}
