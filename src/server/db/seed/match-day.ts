/**
 * Match day in the demo (issue 57): a running tournament whose ready matches need its organisers —
 * one disputed (the sides reported different scores), one with a report waiting for the other side,
 * and one whose side called an organiser — so the control room, the bell and the match pages show
 * them on a fresh start. Written as the services would have left them: the match rows' report
 * fields, their history, and the organisers' notices.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { noticeWords } from '../../services/notices/notice-words.ts';
import type { Tx } from '../client.ts';
import { matchActionFactory, notificationFactory } from '../factories/index.ts';
import { stageMatches, stages, tournaments, users } from '../schema/index.ts';

const MINUTE = 60_000;

export interface MatchDayPlan {
  now: Date;
  /** The running tournaments to stage it in, in order of preference: the first with ready matches takes each part. */
  tournamentIds: string[];
  /** Who acts for a participant (the player; a team's captain) and their name. */
  actorOf: (participantId: string) => { userId: string; name: string } | undefined;
}

export async function playMatchDay(tx: Tx, plan: MatchDayPlan): Promise<void> {
  const { now } = plan;
  const ready = await tx
    .select({ id: stageMatches.id, a: stageMatches.participantA, b: stageMatches.participantB, tournamentId: stages.tournamentId, title: tournaments.title })
    .from(stageMatches)
    .innerJoin(stages, eq(stages.id, stageMatches.stageId))
    .innerJoin(tournaments, eq(tournaments.id, stages.tournamentId))
    .where(and(inArray(stages.tournamentId, plan.tournamentIds), eq(stageMatches.status, 'ready')))
    .orderBy(asc(stageMatches.round), asc(stageMatches.position));
  const byPreference = plan.tournamentIds.flatMap((id) => ready.filter((m) => m.tournamentId === id && m.a && m.b));
  const [disputed, waiting, called] = byPreference;
  const [organiser] = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  const sides = (m: (typeof ready)[number]) => [plan.actorOf(m.a!), plan.actorOf(m.b!)] as const;
  const label = (m: (typeof ready)[number]) => sides(m).map((s) => s?.name ?? '—').join(' – ');
  const tell = async (m: (typeof ready)[number], kind: 'matchDisputed' | 'matchCalled', at: Date) => {
    if (!organiser) return;
    const params = { tournament: m.title, match: label(m) };
    await notificationFactory.insert(tx, {
      userId: organiser.id,
      kind,
      params,
      text: noticeWords('uk', kind, params).bell,
      link: `/tournaments/${m.tournamentId}/control`,
      payload: { tournamentId: m.tournamentId },
      date: at,
    });
  };

  if (disputed) {
    const [a, b] = sides(disputed);
    const reported = new Date(now.getTime() - 12 * MINUTE);
    const answered = new Date(now.getTime() - 9 * MINUTE);
    await matchActionFactory.insertMany(tx, [
      { matchId: disputed.id, kind: 'report', userId: a?.userId ?? null, side: 'a', scoreA: 16, scoreB: 12, createdAt: reported },
      { matchId: disputed.id, kind: 'report', userId: b?.userId ?? null, side: 'b', scoreA: 12, scoreB: 16, createdAt: answered },
      { matchId: disputed.id, kind: 'dispute', userId: b?.userId ?? null, side: 'b', createdAt: new Date(answered.getTime() + 1) },
    ]);
    await tx.update(stageMatches).set({ reportState: 'disputed', reportedBy: 'a', version: 3, updatedAt: answered }).where(eq(stageMatches.id, disputed.id));
    await tell(disputed, 'matchDisputed', answered);
  }
  if (waiting) {
    const [a] = sides(waiting);
    const reported = new Date(now.getTime() - 4 * MINUTE);
    await matchActionFactory.insert(tx, { matchId: waiting.id, kind: 'report', userId: a?.userId ?? null, side: 'a', scoreA: 16, scoreB: 9, createdAt: reported });
    // Far enough ahead that a fresh demo shows it waiting, as a player would find it.
    await tx
      .update(stageMatches)
      .set({ reportState: 'reported', reportedBy: 'a', confirmBy: new Date(now.getTime() + 6 * 60 * MINUTE), version: 1, updatedAt: reported })
      .where(eq(stageMatches.id, waiting.id));
  }
  if (called) {
    const [, b] = sides(called);
    const at = new Date(now.getTime() - 3 * MINUTE);
    await matchActionFactory.insert(tx, { matchId: called.id, kind: 'call', userId: b?.userId ?? null, side: 'b', reason: 'Суперник не заходить у лобі вже 10 хвилин', createdAt: at });
    await tx.update(stageMatches).set({ calledAt: at }).where(eq(stageMatches.id, called.id));
    await tell(called, 'matchCalled', at);
  }
}
