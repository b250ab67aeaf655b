/**
 * A side calls the organisers to its match (issue 57): a player or captain of either side flags a
 * match not yet decided; the tournament's organisers are told (bell, and a letter unless turned off)
 * and the control room lists it until an organiser answers. One call at a time per match: a second
 * before the answer is refused, so a worried player cannot ring the organisers twenty times.
 *
 * Both run under the tournament's lock (`lockMatch`), as every match write does. A call changes no
 * result: it leaves the match's and the competition's versions alone, and its event (`call`) tells
 * the control room without making public pages read anything again.
 */
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { together } from '../../db/together.ts';
import { stageMatches } from '../../db/schema/index.ts';
import { lockedView } from '../competition/stages/match-changes.ts';
import { lockMatch } from '../competition/stages/store.ts';
import { publishing } from '../live/live.ts';
import { actingSide, actionWrite, actorsOf } from './match-actions.ts';
import { matchLabel, tellOrganisers } from './organiser-notices.ts';

export type CallRefusal = 'notFound' | 'notSide' | 'decided' | 'alreadyCalled';
export type CallDone = { ok: true; tournamentId: string; calledAt: string } | { ok: false; reason: CallRefusal };

async function call(db: Tx, matchId: string, userId: string, reason: string, now = new Date()): Promise<CallDone> {
  return db.transaction(async (tx): Promise<CallDone> => {
    const found = await lockMatch(tx, matchId);
    if (!found) return { ok: false, reason: 'notFound' };
    const { match } = lockedView(found);
    const actors = await actorsOf(tx, found.tournament.soloOnly, [match.a, match.b]);
    const side = actingSide(match, actors, userId);
    if (!side) return { ok: false, reason: 'notSide' };
    if (match.status === 'completed') return { ok: false, reason: 'decided' };
    const flagged = await tx
      .update(stageMatches)
      .set({ calledAt: now })
      .where(and(eq(stageMatches.id, matchId), isNull(stageMatches.calledAt)))
      .returning({ id: stageMatches.id });
    if (flagged.length === 0) return { ok: false, reason: 'alreadyCalled' };
    await together(tx, [actionWrite({ matchId, kind: 'call', userId, side, reason })]);
    const name = (id: string | null) => (id ? actors.get(id)?.name : undefined);
    await tellOrganisers(tx, found.tournament, 'matchCalled', matchLabel(name(match.a), name(match.b)));
    return { ok: true, tournamentId: found.tournament.id, calledAt: now.toISOString() };
  });
}

export type AnswerDone = { ok: true; tournamentId: string } | { ok: false; reason: 'notFound' | 'notCalled' };

/**
 * Clears the match's call as answered by `organiser`, with its history row, in the caller's
 * transaction: the answer of `answerCall`, and of an organiser's message in the match's chat
 * (match-room/chat.ts). The caller publishes the `call` event after the commit.
 */
export async function answerCallIn(tx: Tx, matchId: string, organiser: { id: string }): Promise<AnswerDone> {
  const found = await lockMatch(tx, matchId);
  if (!found) return { ok: false, reason: 'notFound' };
  const cleared = await tx
    .update(stageMatches)
    .set({ calledAt: null })
    .where(and(eq(stageMatches.id, matchId), isNotNull(stageMatches.calledAt)))
    .returning({ id: stageMatches.id });
  if (cleared.length === 0) return { ok: false, reason: 'notCalled' };
  await together(tx, [actionWrite({ matchId, kind: 'callAnswered', userId: organiser.id })]);
  return { ok: true, tournamentId: found.tournament.id };
}

const answer = (db: Tx, matchId: string, organiser: { id: string }): Promise<AnswerDone> => db.transaction((tx) => answerCallIn(tx, matchId, organiser));

/** `POST /api/matches/{id}/call`: a side of the match calls the organisers, with what it needs (up to 500 characters, may be empty). */
export const callOrganisers = publishing(call, (done, _db, matchId) => ({ tournamentId: done.tournamentId, kind: 'call', matchId }));

/** `DELETE /api/matches/{id}/call`: an organiser answered the call; the control room no longer lists it. */
export const answerCall = publishing(answer, (done, _db, matchId) => ({ tournamentId: done.tournamentId, kind: 'call', matchId }));
