/**
 * Players report results (issue 22): a side of a ready match reports its score, the other side
 * confirms it (the result is applied exactly as the admin's would be) or disputes it (the admin
 * decides through `PATCH /api/matches/{id}`); a report nobody answers in the tournament's
 * confirmation time is confirmed by itself, once, whichever instance or request gets there first.
 *
 * Every write locks the tournament row (`lockMatch`), as the admin's edits do, before it reads
 * anything a competition write changes, and checks the match's state under that lock: two reports,
 * two confirmations, or a confirmation racing a dispute queue up and the later one sees what the
 * first did, so each race has one outcome. The actions of a round's end queue on that one lock, so it
 * is held for the checks and the writes alone: who acts for the sides is read before the transaction
 * (`inAction`), the writes go in one statement where they can (`together`), the answer's names and
 * history are read after the commit (`answered`), and the stages saved are kept for the next action
 * (`keepingTransaction` in `competition/stages/store.ts`).
 */
import { and, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import { sameReport, type ReportedScore } from '../../../lib/domain/match-report.ts';
import type { Slot } from '../../../lib/domain/stage/format.ts';
import { judgeResult, type ResultRefusal } from '../../../lib/domain/stage/result.ts';
import type { Database, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { together } from '../../db/together.ts';
import { matchActions, stageMatches, tournaments } from '../../db/schema/index.ts';
import type { MatchState } from '../../../lib/api/stages.ts';
import { publishTournament } from '../live/live.ts';
import { actingSide, actionWrite, actorsOf, knowSides, readSides, type ActionRecord, type SideActor } from './match-actions.ts';
import { noticeWrites } from '../notices/notices.ts';
import { matchLabel, tellOrganisers } from './organiser-notices.ts';
import { changeLockedMatch, lockedView, type MatchRefusal } from '../competition/stages/match-changes.ts';
import { matchState } from '../competition/stages/match-state.ts';
import { keepingTransaction, lockMatch, type LockedMatch, type Saved } from '../competition/stages/store.ts';
import { SWEEPS, type Sweep } from '../sweeps.ts';
import { isFinished } from '../../../lib/domain/tournament-status.ts';
import { playedMaps } from '../match-room/veto.ts';
import { awaitsCheckIn } from '../match-room/check-in.ts';

export type ReportRefusal =
  MatchRefusal | 'notSide' | 'stale' | 'decided' | 'disputed' | 'ownReport' | 'nothingToConfirm' | 'nothingToDispute' | 'checkInFirst' | ResultRefusal;

export type ReportOutcome = 'reported' | 'confirmed' | 'disputed';

/** What a players' action did: its outcome and the match as it left it, or why it was refused. */
export type ReportDone =
  { ok: true; outcome: ReportOutcome; tournamentId: string; version: number; state: MatchState } | { ok: false; reason: ReportRefusal; bestOf: number };

export interface ReportInput {
  scoreA: number;
  scoreB: number;
  games?: { a: number; b: number }[] | undefined;
  version?: number | undefined;
}

const otherSide = (side: Slot): Slot => (side === 'a' ? 'b' : 'a');

/** The side `userId` acts for in the locked match, if any, and who acts for each side. */
async function sideOf(tx: Tx, found: LockedMatch, userId: string): Promise<{ side: Slot | null; actors: Map<string, SideActor> }> {
  const { match } = lockedView(found);
  const actors = await actorsOf(tx, found.tournament.soloOnly, [match.a, match.b]);
  return { side: actingSide(match, actors, userId), actors };
}

/** The latest report of a match: prepared (db/prepared.ts), as every confirmation reads it. */
const latestReport = prepared((db) =>
  db
    .select({ scoreA: matchActions.scoreA, scoreB: matchActions.scoreB, games: matchActions.games })
    .from(matchActions)
    .where(and(eq(matchActions.matchId, sql.placeholder('matchId')), eq(matchActions.kind, 'report')))
    .orderBy(desc(matchActions.createdAt), desc(matchActions.id))
    .limit(1)
    .prepare('latest_report'),
);

/** The score of the latest report of a match: what a confirmation applies. */
async function waitingReport(tx: Tx, matchId: string): Promise<ReportedScore | null> {
  const [row] = await latestReport(tx).execute({ matchId });
  if (!row || row.scoreA === null || row.scoreB === null) return null;
  return { scoreA: row.scoreA, scoreB: row.scoreB, games: row.games ?? [] };
}

/**
 * A change of a match's report fields: the writes that make it (the match's version and its
 * tournament's move with them: the stage reads show both), for the action to send with its others in
 * one statement (db/together.ts), and the match as they leave it. Made under the tournament's lock, so
 * the row and the version it was read at are the stored ones.
 */
function reportChange(found: LockedMatch, fields: { reportState: 'reported' | 'disputed'; reportedBy?: Slot; confirmBy: Date | null }): { writes: SQL[]; saved: Saved } {
  const { row } = lockedView(found);
  const now = new Date();
  const changed = { ...row, reportState: fields.reportState, reportedBy: fields.reportedBy ?? row.reportedBy, confirmBy: fields.confirmBy, version: row.version + 1, updatedAt: now };
  const writes = [
    sql`update ${stageMatches} set report_state = ${changed.reportState}, reported_by = ${changed.reportedBy}, confirm_by = ${changed.confirmBy?.toISOString() ?? null}::timestamptz,
      version = version + 1, updated_at = ${now.toISOString()}::timestamptz where id = ${row.id}`,
    sql`update ${tournaments} set bracket_version = bracket_version + 1 where id = ${found.tournament.id}`,
  ];
  const { loaded, index, all } = found;
  const stage = { ...loaded, rows: loaded.rows.with(index, changed) };
  const version = found.tournament.bracketVersion + 1;
  const after = { ...found, tournament: { ...found.tournament, bracketVersion: version }, all: all.map((s) => (s === loaded ? stage : s)), loaded: stage };
  return { writes, saved: { after, version } };
}

/**
 * Applies a reported score as the match's result (the admin's path: propagation, statistics,
 * ratings) and records who confirmed it, in the match's history and the audit log (the confirming
 * player, or nobody for the automatic confirmation). A score the engine no longer takes is refused as it is.
 */
async function applyReport(tx: Tx, found: LockedMatch, score: ReportedScore, by: Omit<ActionRecord, 'matchId' | 'scoreA' | 'scoreB' | 'games'>) {
  // Its history row goes in the statement that saves the result (`saveStage` in `competition/stages/save.ts`).
  const saved = await changeLockedMatch(tx, found, { scoreA: score.scoreA, scoreB: score.scoreB, games: score.games }, by.userId ? { id: by.userId } : null, (match) => [
    actionWrite({ matchId: match._id, scoreA: match.scoreA, scoreB: match.scoreB, games: match.games, ...by }),
  ]);
  if (!saved.ok) return saved;
  if (saved.stale) return { ok: false as const, reason: 'stale' as const, bestOf: 1 };
  return saved;
}

type Checked = { ok: true; found: LockedMatch; side: Slot; actors: Map<string, SideActor> } | { ok: false; reason: ReportRefusal; bestOf: number };

/** What a settled due report publishes (`settleIfDue`), and the change it saved. */
type Settled = { kind: 'match' | 'report'; saved: Saved };
/** Where `checkSide` leaves what the action's transaction settled, to publish once it commits. */
type Due = { settled?: Settled };

/**
 * The checks every players' action starts with, in the order their refusals are told. A report of
 * the match whose confirmation time is up is settled first, in the action's transaction, as the
 * sweep would settle it (`due.settled` says what to publish once it commits); the action is then
 * judged on the match as that left it.
 */
async function checkSide(tx: Tx, matchId: string, userId: string, version: number | undefined, now: Date, due: Due): Promise<Checked> {
  const locked = await lockMatch(tx, matchId);
  if (!locked) return { ok: false, reason: 'notFound', bestOf: 1 };
  const settled = await settleIfDue(tx, locked, now);
  if (settled) due.settled = settled.event;
  const found = settled?.found ?? locked;
  const { match, row, rules } = lockedView(found);
  const refuse = (reason: ReportRefusal): Checked => ({ ok: false, reason, bestOf: rules.bestOf });
  const { side, actors } = await sideOf(tx, found, userId);
  if (!side) return refuse('notSide');
  if (isFinished(found.tournament.status)) return refuse('finished');
  if (version !== undefined && version !== row.version) return refuse('stale');
  if (match.status === 'completed') return refuse('decided');
  if (match.status !== 'ready' || !match.a || !match.b) return refuse('notReady');
  if (await awaitsCheckIn(tx, found)) return refuse('checkInFirst');
  return { ok: true, found, side, actors };
}

type Refused = { ok: false; reason: ReportRefusal; bestOf: number };
/** What an action's transaction hands on to its answer: the match as it saved it, and who acts for it. */
type Acted = { ok: true; outcome: ReportOutcome; tournamentId: string; version: number; after: LockedMatch; actors: Map<string, SideActor> } | Refused;

function acted(outcome: ReportOutcome, changed: Saved, actors: Map<string, SideActor>): Acted {
  return { ok: true, outcome, tournamentId: changed.after.tournament.id, version: changed.version, after: changed.after, actors };
}

/**
 * A players' action's answer, once its transaction committed: the match as it saved it, with the
 * sides' names and the history read right after, outside the tournament's lock (the actions queued
 * on it wait for nothing but the writes).
 */
async function answered(db: Database, result: Acted): Promise<ReportDone> {
  if (!result.ok) return result;
  const { after, actors, ...done } = result;
  return { ...done, state: await matchState(db, after, actors) };
}

/**
 * A players' action, whole. Who acts for the match's sides, and how they want their notices, is read
 * before its transaction opens (`readSides`: nothing a competition write changes). Once it commits,
 * what it saved (or, refused, what it settled first) is kept for the next action
 * (`keepingTransaction`), both changes are told, and the answer is read.
 */
async function inAction(db: Database, matchId: string, work: (tx: Tx, due: Due) => Promise<Acted>): Promise<ReportDone> {
  const sides = await readSides(db, matchId);
  const due: Due = {};
  const result = await keepingTransaction(
    db,
    (tx) => {
      knowSides(tx, sides);
      return work(tx, due);
    },
    (acted) => (acted.ok ? acted : due.settled?.saved),
  );
  if (due.settled) published(due.settled.saved, matchId, due.settled.kind);
  if (result.ok) published(result, matchId, result.outcome === 'confirmed' ? 'match' : 'report');
  return answered(db, result);
}

/** `POST /api/matches/{id}/report`: a side reports the score. */
export async function reportScore(db: Database, matchId: string, userId: string, input: ReportInput, now = new Date()): Promise<ReportDone> {
  return inAction(db, matchId, async (tx, due): Promise<Acted> => {
    const checked = await checkSide(tx, matchId, userId, input.version, now, due);
    if (!checked.ok) return checked;
    const { found, side, actors } = checked;
    const { row, rules, feedsLater, match } = lockedView(found);
    const refuse = (reason: ReportRefusal): Refused => ({ ok: false, reason, bestOf: rules.bestOf });
    if (row.reportState === 'disputed') return refuse('disputed');
    if (feedsLater) return refuse('feedsLater');
    const judged = judgeResult(input, rules);
    if (!judged.ok) return refuse(judged.reason);
    // Each game on the map its veto gave it (issue 58), in order: the report says where it was played.
    const maps = judged.result.games.length > 0 ? await playedMaps(tx, found) : [];
    const games = judged.result.games.map((g, i) => (maps[i] ? { ...g, map: maps[i] } : g));
    const score: ReportedScore = { scoreA: judged.result.scoreA!, scoreB: judged.result.scoreB!, games };
    const waiting = row.reportState === 'reported' && row.reportedBy !== side ? await waitingReport(tx, matchId) : null;
    const reportRow: ActionRecord = { matchId, kind: 'report', userId, side, ...score };
    if (waiting) {
      await together(tx, [actionWrite(reportRow)]);
      const agreed = sameReport(waiting, score);
      if (agreed) {
        const saved = await applyReport(tx, found, agreed, { kind: 'confirm', userId, side });
        return saved.ok ? acted('confirmed', saved, actors) : saved;
      }
      // The sides tell different scores: the organisers decide.
      const disputed = reportChange(found, { reportState: 'disputed', confirmBy: null });
      await together(tx, [...disputed.writes, actionWrite({ matchId, kind: 'dispute', userId, side })]);
      await disputeRings(tx, found, actors);
      return acted('disputed', disputed.saved, actors);
    }
    const reported = reportChange(found, {
      reportState: 'reported',
      reportedBy: side,
      confirmBy: new Date(now.getTime() + found.tournament.confirmationMinutes * 60_000),
    });
    const self = actors.get(side === 'a' ? match.a! : match.b!);
    const other = actors.get(side === 'a' ? match.b! : match.a!);
    const told = await noticeWrites(
      tx,
      other
        ? [
            {
              userId: other.userId,
              kind: 'scoreReported',
              params: { opponent: self?.name ?? '', score: `${score.scoreA}:${score.scoreB}`, tournament: found.tournament.title },
              link: `/matches/${matchId}`,
              tournamentId: found.tournament.id,
            },
          ]
        : [],
    );
    // The report, the match's and the tournament's change and the other side's notice: one statement.
    await together(tx, [actionWrite(reportRow), ...reported.writes, ...told.writes], told.signal);
    told.sent();
    return acted('reported', reported.saved, actors);
  });
}

/** `POST /api/matches/{id}/confirm`: the other side confirms the waiting report. */
export async function confirmReport(db: Database, matchId: string, userId: string, version?: number, now = new Date()): Promise<ReportDone> {
  return inAction(db, matchId, async (tx, due): Promise<Acted> => {
    const checked = await checkSide(tx, matchId, userId, version, now, due);
    if (!checked.ok) return checked;
    const { found, side, actors } = checked;
    const { row, rules } = lockedView(found);
    const refuse = (reason: ReportRefusal): Refused => ({ ok: false, reason, bestOf: rules.bestOf });
    if (row.reportState === 'disputed') return refuse('disputed');
    if (row.reportState !== 'reported') return refuse('nothingToConfirm');
    if (row.reportedBy === side) return refuse('ownReport');
    const waiting = await waitingReport(tx, matchId);
    if (!waiting) return refuse('nothingToConfirm');
    const saved = await applyReport(tx, found, waiting, { kind: 'confirm', userId, side });
    return saved.ok ? acted('confirmed', saved, actors) : saved;
  });
}

/** `POST /api/matches/{id}/dispute`: the other side disputes the waiting report; the admin decides. */
export async function disputeReport(
  db: Database,
  matchId: string,
  userId: string,
  input: { reason: string; version?: number | undefined },
  now = new Date(),
): Promise<ReportDone> {
  return inAction(db, matchId, async (tx, due): Promise<Acted> => {
    const checked = await checkSide(tx, matchId, userId, input.version, now, due);
    if (!checked.ok) return checked;
    const { found, side, actors } = checked;
    const { row, rules } = lockedView(found);
    const refuse = (reason: ReportRefusal): Refused => ({ ok: false, reason, bestOf: rules.bestOf });
    if (row.reportState === 'disputed') return refuse('disputed');
    if (row.reportState !== 'reported') return refuse('nothingToDispute');
    if (row.reportedBy === side) return refuse('ownReport');
    const disputed = reportChange(found, { reportState: 'disputed', confirmBy: null });
    await together(tx, [...disputed.writes, actionWrite({ matchId, kind: 'dispute', userId, side, reason: input.reason })]);
    await disputeRings(tx, found, actors);
    return acted('disputed', disputed.saved, actors);
  });
}

/**
 * Tells the tournament's viewers what a committed change saved, with the competition version it made
 * and, for a result, whether it counted in the statistics (the tournament counts them).
 */
function published({ after, version }: Saved, matchId: string, kind: 'match' | 'report') {
  const { tournament } = after;
  publishTournament({ tournamentId: tournament.id, kind, matchId, version, ...(kind === 'match' ? { counted: tournament.statsEnabled } : {}) });
}

/** Reports whose confirmation time passed that one sweep confirms at most (the next tick takes the rest). */
const DUE_PER_RUN = 100;

/**
 * Confirms the waiting reports whose time is up by `now` (only `matchId`'s when given); returns
 * how many it confirmed. Each runs in its own transaction under its tournament's lock and checks
 * again that its report still waits, so a report is confirmed once however many instances and
 * requests run this at the same time, and never after a dispute or a confirmation got there
 * first. A report the engine no longer takes (the tournament finished, a later stage was seeded)
 * becomes disputed, for the admin, instead of being tried again forever.
 */
export async function confirmDueReports(db: Database, now: Date, matchId?: string): Promise<number> {
  const due = await (matchId ? dueOfMatch(db).execute({ now, matchId }) : dueReports(db).execute({ now }));
  let confirmed = 0;
  for (const { id } of due) {
    const done = await keepingTransaction(
      db,
      async (tx) => {
        const found = await lockMatch(tx, id);
        return (found && (await settleIfDue(tx, found, now))?.event) ?? null;
      },
      (settled) => settled?.saved,
    );
    if (!done) continue;
    if (done.kind === 'match') confirmed += 1;
    published(done.saved, id, done.kind);
  }
  return confirmed;
}

/**
 * Settles the locked match's report if its confirmation time is up by `now`: confirmed by itself,
 * or disputed when the engine no longer takes it. Checked under the tournament's lock, so a report
 * is settled once whoever gets there first. Returns what to publish and the match as it left it.
 */
async function settleIfDue(tx: Tx, found: LockedMatch, now: Date): Promise<{ event: Settled; found: LockedMatch } | null> {
  const { row } = lockedView(found);
  if (row.reportState !== 'reported' || !row.confirmBy || row.confirmBy > now || !row.reportedBy) return null;
  const waiting = await waitingReport(tx, row.id);
  const saved = waiting ? await applyReport(tx, found, waiting, { kind: 'autoConfirm', side: otherSide(row.reportedBy) }) : null;
  if (saved?.ok) return { event: { kind: 'match', saved }, found: saved.after };
  const { writes, saved: disputed } = reportChange(found, { reportState: 'disputed', confirmBy: null });
  await together(tx, writes);
  const { match } = lockedView(found);
  await disputeRings(tx, found, await actorsOf(tx, found.tournament.soloOnly, [match.a, match.b]));
  return { event: { kind: 'report', saved: disputed }, found: disputed.after };
}

/** A match became disputed: its tournament's organisers are told (issue 57), in the same transaction. */
async function disputeRings(tx: Tx, found: LockedMatch, actors: ReadonlyMap<string, SideActor>): Promise<void> {
  const { match } = lockedView(found);
  const name = (id: string | null) => (id ? actors.get(id)?.name : undefined);
  await tellOrganisers(tx, found.tournament, 'matchDisputed', matchLabel(name(match.a), name(match.b)));
}

/** The reports due by `now`, of every match or of one: prepared (db/prepared.ts), as every read of a match asks first (a players' action finds its own under its lock: `checkSide`). */
const dueOf = (oneMatch: boolean) =>
  prepared((db) =>
    db
      .select({ id: stageMatches.id })
      .from(stageMatches)
      .where(
        and(
          eq(stageMatches.reportState, 'reported'),
          lte(stageMatches.confirmBy, sql.placeholder('now')),
          oneMatch ? eq(stageMatches.id, sql.placeholder('matchId')) : undefined,
        ),
      )
      .orderBy(stageMatches.confirmBy)
      .limit(DUE_PER_RUN)
      .prepare(oneMatch ? 'due_reports_of_match' : 'due_reports'),
  );
const dueReports = dueOf(false);
const dueOfMatch = dueOf(true);

/** The automatic confirmation, every few seconds on every instance. */
export const confirmationSweep: Sweep = { name: 'confirm-reports', everyMs: 5000, run: (db, now) => confirmDueReports(db, now) };

SWEEPS.push(confirmationSweep);
