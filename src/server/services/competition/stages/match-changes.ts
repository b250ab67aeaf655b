import type { SQLWrapper } from 'drizzle-orm';
import type { MatchUpdateInput, StageMatchView } from '../../../../lib/api/stages.ts';
import { allowsDraws } from '../../../../lib/domain/stage/format.ts';
import { resetBy, resolveStage } from '../../../../lib/domain/stage/resolve.ts';
import { judgeResult, type ResultRefusal } from '../../../../lib/domain/stage/result.ts';
import { normalizeStatus } from '../../../../lib/domain/tournament-status.ts';
import type { Tx } from '../../../db/client.ts';
import type { AuditActor } from '../audit.ts';
import { actionWrite, actorsOf } from '../../match-day/match-actions.ts';
import { announce, type Notice } from '../../notices/notices.ts';
import { saveStage } from './save.ts';
import { lockMatch, type LockedMatch, type TournamentRow } from './store.ts';
import { matchView } from './views.ts';

/* Changing one match: its result entered, corrected or withdrawn, its comment or time (the admin's edit, a players' confirmed report). */

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
