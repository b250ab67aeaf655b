import type { SQLWrapper } from 'drizzle-orm';
import type { MatchUpdateInput, StageMatchView } from '../../../../lib/api/stages.ts';
import { allowsDraws, thresholdsOf } from '../../../../lib/domain/stage/format.ts';
import { resetBy, resolveStage } from '../../../../lib/domain/stage/resolve.ts';
import { judgeResult, type ResultRefusal } from '../../../../lib/domain/stage/result.ts';
import { isFinished } from '../../../../lib/domain/tournament-status.ts';
import type { Database, Tx } from '../../../db/client.ts';
import type { AuditActor } from '../audit.ts';
import { actionWrite, actorsOf } from '../../match-day/match-actions.ts';
import { publishing } from '../../live/live.ts';
import { announce, type Notice } from '../../notices/notices.ts';
import { saveStage, type MatchEdit } from './save.ts';
import { keepingTransaction, locate, lockMatch, type LoadedStage, type LockedMatch, type TournamentRow } from './store.ts';
import { pairRound, pairsItselfNow } from './commands.ts';
import { bestOfAt, matchView, type MatchReader } from './views.ts';

/* Changing one match: its result entered, corrected or withdrawn, its comment (and who sees it) or time (the admin's edit, a players' confirmed report). */

export type MatchRefusal = 'notFound' | 'finished' | 'notReady' | 'bye' | 'noResult' | 'feedsLater' | 'pairedAfter' | ResultRefusal;

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

/** Whether a later stage was seeded from the match's stage's tables: a changed result there would not reach it. */
const feedsLater = ({ all, loaded }: LockedMatch): boolean => all.some((s) => s.stage.fromStageId === loaded.stage.id);

/**
 * Whether a later round of the match's Swiss group with thresholds was paired on its result: the
 * pairing, the records and who left the stage all rest on it, so it no longer changes.
 */
const pairedAfter = ({ loaded, index }: LockedMatch): boolean => {
  const { group, round } = loaded.plan[index]!;
  return loaded.stage.format === 'swiss' && thresholdsOf(loaded.stage.settings) !== null && loaded.plan.some((m) => m.group === group && m.round > round);
};

/** Whether an edit enters a result (a score, games or a forfeit), not only a comment or a time. */
const entersResult = (input: Omit<MatchUpdateInput, 'version'>): boolean =>
  input.scoreA !== undefined || input.scoreB !== undefined || (input.games?.length ?? 0) > 0 || Boolean(input.forfeit);

/** The locked match as the API shows it, its stored row, and the rules its result is judged by. */
export function lockedView(found: LockedMatch) {
  const { loaded, index } = found;
  return {
    match: matchView(loaded, index),
    row: loaded.rows[index]!,
    rules: { bestOf: bestOfAt(loaded, index), draws: allowsDraws(loaded.stage.format, loaded.stage.settings) },
    feedsLater: feedsLater(found),
  };
}

/**
 * Changes a match whose tournament the caller locked (`lockMatch`): its result (entered,
 * corrected or withdrawn), comment or time. The admin's edit and a players' confirmed report both
 * end here, so a result is applied one way whoever gives it: later matches reset, the statistics
 * and ratings follow, the tournament's version moves. The matches it answers with are shown to
 * `reader` (an organiser's answer carries a comment meant for the organisers).
 */
export async function changeLockedMatch(
  tx: Tx,
  found: LockedMatch,
  input: Omit<MatchUpdateInput, 'version'>,
  actor: AuditActor | null,
  alongside?: (match: StageMatchView) => SQLWrapper[],
  reader: MatchReader = 'public',
): Promise<MatchSaved> {
  const { tournament, all, loaded, index } = found;
  const bestOf = bestOfAt(loaded, index);
  if (isFinished(tournament.status)) return { ok: false, reason: 'finished', bestOf };
  const state = loaded.resolved[index]!;
  const entered = new Map(loaded.entered);
  const wantsResult = entersResult(input);
  if ((wantsResult || input.reset) && feedsLater(found)) return { ok: false, reason: 'feedsLater', bestOf };
  if ((wantsResult || input.reset) && pairedAfter(found)) return { ok: false, reason: 'pairedAfter', bestOf };
  if (input.reset) {
    if (state.bye) return { ok: false, reason: 'bye', bestOf };
    if (!entered.has(index)) return { ok: false, reason: 'noResult', bestOf };
    entered.delete(index);
  } else if (wantsResult) {
    if (state.bye) return { ok: false, reason: 'bye', bestOf };
    if (!state.a || !state.b) return { ok: false, reason: 'notReady', bestOf };
    const judged = judgeResult(input, {
      bestOf,
      draws: allowsDraws(loaded.stage.format, loaded.stage.settings),
    });
    if (!judged.ok) return { ok: false, reason: judged.reason, bestOf };
    entered.set(index, { a: state.a, b: state.b, result: judged.result });
  }
  const edit: MatchEdit = {};
  if (input.comment !== undefined) edit.comment = input.comment;
  if (input.commentPublic !== undefined) edit.commentPublic = input.commentPublic;
  if (input.scheduledAt !== undefined) edit.scheduledAt = input.scheduledAt === null ? null : new Date(input.scheduledAt);
  const resolved = resolveStage(loaded.plan, loaded.stage.seeds, entered, new Set(loaded.stage.disqualified));
  const resetIndexes = resetBy(loaded.resolved, resolved).filter((i) => i !== index);
  // The match and those it resets as `stage` shows them: resolved in memory for a preview, as saved otherwise.
  const answer = (stage: LoadedStage, preview: boolean, after: LockedMatch, version: number): MatchSaved => ({
    ok: true,
    stale: false,
    preview,
    match: matchView(stage, index, reader),
    reset: resetIndexes.map((i) => matchView(stage, i, reader)),
    tournamentId: tournament.id,
    after,
    version,
  });
  if (input.preview) return answer({ ...loaded, resolved }, true, found, tournament.bracketVersion);
  const saved = await saveStage(
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
  const after: LockedMatch = { tournament: { ...tournament, bracketVersion: saved.version }, all: saved.all, loaded: saved.stage, index };
  if (!pairsItselfNow(saved.stage)) return answer(saved.stage, false, after, saved.version);
  // A Swiss stage that pairs itself: the round's last result pairs the next one in the same transaction.
  const paired = await pairRound(tx, after.tournament, saved.stage);
  if (!paired.ok) return answer(saved.stage, false, after, saved.version);
  const located = locate({ ...tournament, bracketVersion: paired.version }, paired.all, loaded.rows[index]!.id)!;
  return answer(located.loaded, false, located, paired.version);
}

/**
 * Enters, corrects or withdraws a match's result, or changes its comment (and whether everyone
 * sees it) or time (issue 21, `PATCH /api/matches/{id}`), in one transaction. It answers the
 * organiser who made it: a comment for the organisers only is shown with its text. An edit based on an older version of the match
 * changes nothing. A changed result resets the matches built on the old one (`preview` only lists
 * them); the statistics follow. A result or a withdrawal by `actor` goes into the match's
 * history and the audit log and ends the players' reports; a dispute it settles is announced to both sides.
 * Once it committed, what it saved is kept for the action that follows (`keepingTransaction`).
 */
async function editMatch(db: Database, matchId: string, input: MatchUpdateInput, actor: AuditActor): Promise<MatchSaved> {
  return keepingTransaction(db, async (tx): Promise<MatchSaved> => {
    const found = await lockMatch(tx, matchId);
    if (!found) return { ok: false, reason: 'notFound', bestOf: 1 };
    const { loaded, index, tournament } = found;
    const row = loaded.rows[index]!;
    if (row.version !== input.version) return { ok: true, stale: true, match: matchView(loaded, index, 'organiser') };
    const wantsResult = entersResult(input);
    // The history is public: a result entered with a comment for the organisers only records no reason.
    const reason = (input.commentPublic ?? row.commentPublic) ? (input.comment ?? '') : '';
    // The history row goes in the statement that saves the result (`saveStage`).
    const history = (m: StageMatchView): SQLWrapper[] =>
      input.reset
        ? [actionWrite({ matchId, kind: 'reset', userId: actor.id })]
        : wantsResult
          ? [actionWrite({ matchId, kind: 'result', userId: actor.id, scoreA: m.scoreA, scoreB: m.scoreB, games: m.games, reason })]
          : [];
    const saved = await changeLockedMatch(tx, found, input, actor, history, 'organiser');
    if (!saved.ok || saved.stale || saved.preview) return saved;
    if ((input.reset || wantsResult) && row.reportState === 'disputed' && saved.match.status === 'completed') {
      await announceResolved(tx, tournament, saved.match);
    }
    await announceReset(tx, tournament, loaded, saved.reset, saved.match.number);
    return saved;
  }, (saved) => (saved.ok && !saved.stale && !saved.preview ? saved : undefined));
}

/**
 * `editMatch`, whose saved change (not a preview, nor an edit of an older version) its tournament's
 * viewers hear of, naming the match, with the version it made and whether the result counted in the statistics.
 */
export const updateMatch = publishing(editMatch, (saved, _db, matchId) =>
  saved.stale || saved.preview ? null : { tournamentId: saved.tournamentId, kind: 'match', matchId, version: saved.version, counted: saved.after.tournament.statsEnabled },
);

/**
 * `matchReset` to the sides of each match whose result a correction withdrew (issue 57): they played
 * it, and its result is gone because match `number` changed. Their sides as they were before.
 */
async function announceReset(tx: Tx, tournament: TournamentRow, before: LoadedStage, reset: readonly StageMatchView[], number: number) {
  const played = reset.flatMap((m) => {
    const i = before.rows.findIndex((row) => row.id === m._id);
    const was = before.resolved[i];
    return was && was.status === 'completed' && !was.bye && was.a && was.b ? [{ id: m._id, a: was.a, b: was.b }] : [];
  });
  if (played.length === 0) return;
  const actors = await actorsOf(tx, tournament.soloOnly, played.flatMap((m) => [m.a, m.b]));
  const notices: Notice[] = played.flatMap((m) =>
    [m.a, m.b].flatMap((id) => {
      const actor = actors.get(id);
      const opponent = actors.get(id === m.a ? m.b : m.a);
      return actor
        ? [
            {
              userId: actor.userId,
              kind: 'matchReset' as const,
              params: { tournament: tournament.title, opponent: opponent?.name ?? '', match: `M${number}` },
              link: `/matches/${m.id}`,
              tournamentId: tournament.id,
            },
          ]
        : [];
    }),
  );
  await announce(tx, notices);
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
