/**
 * Players report results (issue 22): a side of a ready match reports its score, the other side
 * confirms it (the result is applied exactly as the admin's would be) or disputes it (the admin
 * decides through `PATCH /api/matches/{id}`); a report nobody answers in the tournament's
 * confirmation time is confirmed by itself, once, whichever instance or request gets there first.
 *
 * Every write locks the tournament row first (`lockMatch`), as the admin's edits do, and checks the
 * match's state under that lock: two reports, two confirmations, or a confirmation racing a
 * dispute queue up and the later one sees what the first did, so each race has one outcome.
 */
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import { sameReport, type ReportedScore } from '../../lib/domain/match-report.ts';
import type { Slot } from '../../lib/domain/stage/format.ts';
import { judgeResult, type ResultRefusal } from '../../lib/domain/stage/result.ts';
import type { Database, Tx } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { matchActions, stageMatches, tournaments } from '../db/schema/index.ts';
import type { MatchState } from '../../lib/api/stages.ts';
import { publishTournament } from './live.ts';
import { actorsOf, recordActions, type ActionRecord, type SideActor } from './match-actions.ts';
import { announce } from './notices.ts';
import { changeLockedMatch, keepReported, lockedView, lockMatch, matchState, type LockedMatch, type MatchRefusal } from './stages.ts';
import { SWEEPS, type Sweep } from './sweeps.ts';
import { normalizeStatus } from '../../lib/domain/tournament-status.ts';

export type ReportRefusal = MatchRefusal | 'notSide' | 'stale' | 'decided' | 'disputed' | 'ownReport' | 'nothingToConfirm' | 'nothingToDispute' | ResultRefusal;

export type ReportOutcome = 'reported' | 'confirmed' | 'disputed';

/**
 * What a players' action did: its outcome and the match as it left it (read inside its transaction,
 * so the answer needs no second read), or why it was refused.
 */
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
  if (match.a && actors.get(match.a)?.userId === userId) return { side: 'a', actors };
  if (match.b && actors.get(match.b)?.userId === userId) return { side: 'b', actors };
  return { side: null, actors };
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
 * A match's report fields and version changed, and its tournament's version moved, in one statement:
 * prepared (db/prepared.ts), as every report and dispute sends it. `by` null keeps the reporter.
 */
const reportChange = prepared((db) => {
  const bumped = db
    .$with('bumped')
    .as(
      db
        .update(tournaments)
        .set({ bracketVersion: sql`${tournaments.bracketVersion} + 1` })
        .where(eq(tournaments.id, sql.placeholder('tournamentId')))
        .returning({ version: tournaments.bracketVersion }),
    );
  return db
    .with(bumped)
    .update(stageMatches)
    .set({
      reportState: sql`${sql.placeholder('state')}::text`,
      reportedBy: sql`coalesce(${sql.placeholder('by')}::text, ${stageMatches.reportedBy})`,
      confirmBy: sql`${sql.placeholder('confirmBy')}::timestamptz`,
      version: sql`${stageMatches.version} + 1`,
      updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
    })
    .where(eq(stageMatches.id, sql.placeholder('matchId')))
    .returning({ row: stageMatches, version: sql<number>`(select ${sql.identifier('bracket_version')} from ${bumped})` })
    .prepare('set_report');
});

/** A report's or dispute's change (`setReport`): the match as the database returned it, and the tournament's version it made. */
type Reported = { after: LockedMatch; version: number };

/**
 * Changes a match's report fields (and its version, and the tournament's: the stage reads show the
 * version); returns the match as changed and the tournament's new version.
 */
async function setReport(
  tx: Tx,
  found: LockedMatch,
  fields: { reportState: 'reported' | 'disputed'; reportedBy?: Slot; confirmBy: Date | null },
): Promise<Reported> {
  const { row } = lockedView(found);
  const [changed] = await reportChange(tx).execute({
    tournamentId: found.tournament.id,
    matchId: row.id,
    state: fields.reportState,
    by: fields.reportedBy ?? null,
    confirmBy: fields.confirmBy?.toISOString() ?? null,
    now: new Date().toISOString(),
  });
  const { loaded, index, all } = found;
  const saved = { ...loaded, rows: loaded.rows.with(index, changed!.row) };
  return { after: { ...found, all: all.map((s) => (s === loaded ? saved : s)), loaded: saved }, version: Number(changed!.version) };
}

/**
 * Applies a reported score as the match's result (the admin's path: propagation, statistics,
 * ratings) and records who confirmed it, in the match's history and the audit log (the confirming
 * player, or nobody for the automatic confirmation). A score the engine no longer takes is refused as it is.
 */
async function applyReport(tx: Tx, found: LockedMatch, score: ReportedScore, by: Omit<ActionRecord, 'matchId' | 'scoreA' | 'scoreB' | 'games'>) {
  const saved = await changeLockedMatch(tx, found, { scoreA: score.scoreA, scoreB: score.scoreB, games: score.games }, by.userId ? { id: by.userId } : null);
  if (!saved.ok) return saved;
  if (saved.stale) return { ok: false as const, reason: 'stale' as const, bestOf: 1 };
  await recordActions(tx, [{ matchId: saved.match._id, scoreA: saved.match.scoreA, scoreB: saved.match.scoreB, games: saved.match.games, ...by }]);
  return saved;
}

type Checked = { ok: true; found: LockedMatch; side: Slot; actors: Map<string, SideActor> } | { ok: false; reason: ReportRefusal; bestOf: number };

/** What a settled due report published (`settleIfDue`), and the report or dispute it kept. */
type Settled = { tournamentId: string; version: number; kind: 'match' | 'report'; reported?: Reported };
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
  if (normalizeStatus(found.tournament.status) === 'finished') return refuse('finished');
  if (version !== undefined && version !== row.version) return refuse('stale');
  if (match.status === 'completed') return refuse('decided');
  if (match.status !== 'ready' || !match.a || !match.b) return refuse('notReady');
  return { ok: true, found, side, actors };
}

/** A players' action's success: the match as it left it, read in its transaction, after every row it wrote. */
async function done(tx: Tx, outcome: ReportOutcome, changed: { after: LockedMatch; version: number }, actors?: Map<string, SideActor>): Promise<ReportDone> {
  const state = await matchState(tx, changed.after, actors);
  return { ok: true, outcome, tournamentId: changed.after.tournament.id, version: changed.version, state };
}

/** `POST /api/matches/{id}/report`: a side reports the score. */
export async function reportScore(db: Database, matchId: string, userId: string, input: ReportInput, now = new Date()): Promise<ReportDone> {
  let reported: Reported | undefined;
  const due: Due = {};
  const result = await db.transaction(async (tx): Promise<ReportDone> => {
    const checked = await checkSide(tx, matchId, userId, input.version, now, due);
    if (!checked.ok) return checked;
    const { found, side, actors } = checked;
    const { row, rules, feedsLater, match } = lockedView(found);
    const refuse = (reason: ReportRefusal): ReportDone => ({ ok: false, reason, bestOf: rules.bestOf });
    if (row.reportState === 'disputed') return refuse('disputed');
    if (feedsLater) return refuse('feedsLater');
    const judged = judgeResult(input, rules);
    if (!judged.ok) return refuse(judged.reason);
    const score: ReportedScore = { scoreA: judged.result.scoreA!, scoreB: judged.result.scoreB!, games: judged.result.games };
    const waiting = row.reportState === 'reported' && row.reportedBy !== side ? await waitingReport(tx, matchId) : null;
    await recordActions(tx, [{ matchId, kind: 'report', userId, side, ...score }]);
    if (waiting) {
      const agreed = sameReport(waiting, score);
      if (agreed) {
        const saved = await applyReport(tx, found, agreed, { kind: 'confirm', userId, side });
        return saved.ok ? done(tx, 'confirmed', saved, actors) : saved;
      }
      // The sides tell different scores: the admin decides.
      const disputed = (reported = await setReport(tx, found, { reportState: 'disputed', confirmBy: null }));
      await recordActions(tx, [{ matchId, kind: 'dispute', userId, side }]);
      return done(tx, 'disputed', disputed, actors);
    }
    reported = await setReport(tx, found, {
      reportState: 'reported',
      reportedBy: side,
      confirmBy: new Date(now.getTime() + found.tournament.confirmationMinutes * 60_000),
    });
    const self = actors.get(side === 'a' ? match.a! : match.b!);
    const other = actors.get(side === 'a' ? match.b! : match.a!);
    if (other) {
      await announce(tx, [
        {
          userId: other.userId,
          kind: 'scoreReported',
          params: { opponent: self?.name ?? '', score: `${score.scoreA}:${score.scoreB}`, tournament: found.tournament.title },
          link: `/matches/${matchId}`,
          tournamentId: found.tournament.id,
        },
      ]);
    }
    return done(tx, 'reported', reported, actors);
  });
  publishSettled(due, matchId);
  if (result.ok) published(result, matchId, result.outcome === 'confirmed' ? 'match' : 'report', reported);
  return result;
}

/** `POST /api/matches/{id}/confirm`: the other side confirms the waiting report. */
export async function confirmReport(db: Database, matchId: string, userId: string, version?: number, now = new Date()): Promise<ReportDone> {
  const due: Due = {};
  const result = await db.transaction(async (tx): Promise<ReportDone> => {
    const checked = await checkSide(tx, matchId, userId, version, now, due);
    if (!checked.ok) return checked;
    const { found, side, actors } = checked;
    const { row, rules } = lockedView(found);
    const refuse = (reason: ReportRefusal): ReportDone => ({ ok: false, reason, bestOf: rules.bestOf });
    if (row.reportState === 'disputed') return refuse('disputed');
    if (row.reportState !== 'reported') return refuse('nothingToConfirm');
    if (row.reportedBy === side) return refuse('ownReport');
    const waiting = await waitingReport(tx, matchId);
    if (!waiting) return refuse('nothingToConfirm');
    const saved = await applyReport(tx, found, waiting, { kind: 'confirm', userId, side });
    return saved.ok ? done(tx, 'confirmed', saved, actors) : saved;
  });
  publishSettled(due, matchId);
  if (result.ok) published(result, matchId, 'match');
  return result;
}

/** `POST /api/matches/{id}/dispute`: the other side disputes the waiting report; the admin decides. */
export async function disputeReport(
  db: Database,
  matchId: string,
  userId: string,
  input: { reason: string; version?: number | undefined },
  now = new Date(),
): Promise<ReportDone> {
  let reported: Reported | undefined;
  const due: Due = {};
  const result = await db.transaction(async (tx): Promise<ReportDone> => {
    const checked = await checkSide(tx, matchId, userId, input.version, now, due);
    if (!checked.ok) return checked;
    const { found, side, actors } = checked;
    const { row, rules } = lockedView(found);
    const refuse = (reason: ReportRefusal): ReportDone => ({ ok: false, reason, bestOf: rules.bestOf });
    if (row.reportState === 'disputed') return refuse('disputed');
    if (row.reportState !== 'reported') return refuse('nothingToDispute');
    if (row.reportedBy === side) return refuse('ownReport');
    const disputed = (reported = await setReport(tx, found, { reportState: 'disputed', confirmBy: null }));
    await recordActions(tx, [{ matchId, kind: 'dispute', userId, side, reason: input.reason }]);
    return done(tx, 'disputed', disputed, actors);
  });
  publishSettled(due, matchId);
  if (result.ok) published(result, matchId, 'report', reported);
  return result;
}

/**
 * Tells the tournament's viewers what changed, after the commit, with the competition version the
 * change made; a report's or a dispute's stages are kept at that version (stages.ts `keepReported`).
 */
function published({ tournamentId, version }: { tournamentId: string; version: number }, matchId: string, kind: 'match' | 'report', reported?: Reported) {
  if (reported) keepReported(reported.after, reported.version);
  publishTournament({ tournamentId, kind, matchId, version });
}

/** Tells what an action's transaction settled of a due report (`checkSide`), after its commit. */
function publishSettled({ settled }: Due, matchId: string) {
  if (settled) published(settled, matchId, settled.kind, settled.reported);
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
    const done = await db.transaction(async (tx) => {
      const found = await lockMatch(tx, id);
      return found && ((await settleIfDue(tx, found, now))?.event ?? null);
    });
    if (!done) continue;
    if (done.kind === 'match') confirmed += 1;
    published(done, id, done.kind);
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
  const tournamentId = found.tournament.id;
  const waiting = await waitingReport(tx, row.id);
  const saved = waiting ? await applyReport(tx, found, waiting, { kind: 'autoConfirm', side: otherSide(row.reportedBy) }) : null;
  if (saved?.ok) return { event: { tournamentId, version: saved.version, kind: 'match' }, found: saved.after };
  const reported = await setReport(tx, found, { reportState: 'disputed', confirmBy: null });
  return { event: { tournamentId, version: reported.version, kind: 'report', reported }, found: reported.after };
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
