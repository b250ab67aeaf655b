import { and, eq, sql } from 'drizzle-orm';
import type { StageScheduleInput } from '../../../lib/api/schedule.ts';
import { scheduleStage as planSchedule, type ScheduleRefusal } from '../../../lib/domain/stage/schedule.ts';
import { isFinished } from '../../../lib/domain/tournament-status.ts';
import type { Tx } from '../../db/client.ts';
import { stageMatches, stages, tournaments } from '../../db/schema/index.ts';
import { publishTournament } from '../live/live.ts';
import { lockTournament } from './stages/store.ts';

export type StageScheduleRefusal = 'notFound' | 'stageNotFound' | 'finished' | 'minutesNeeded' | ScheduleRefusal;

export type StageScheduled = { ok: true; matches: { _id: string; scheduledAt: string }[] } | { ok: false; reason: StageScheduleRefusal };

/**
 * Sets the times of a stage's matches not yet played (issue 22, `POST …/stages/{stageId}/schedule`):
 * every round at `start + slot × roundMinutes` in play order (`lib/domain/stage/schedule.ts`), or
 * one round at `start`. Under the tournament's lock, as every competition write; each changed
 * match's version and the tournament's competition version go up, so older edits are refused and
 * pollers see the new times.
 */
export async function scheduleStage(db: Tx, tournamentId: string, stageId: string, input: StageScheduleInput): Promise<StageScheduled> {
  const scope = input.round === undefined ? undefined : { round: input.round, side: input.side, group: input.group };
  if (!scope && input.roundMinutes === undefined) return { ok: false, reason: 'minutesNeeded' };
  const done = await db.transaction(async (tx): Promise<StageScheduled> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    const [stage] = await tx
      .select({ id: stages.id })
      .from(stages)
      .where(and(eq(stages.id, stageId), eq(stages.tournamentId, tournamentId)));
    if (!stage) return { ok: false, reason: 'stageNotFound' };
    if (isFinished(tournament.status)) return { ok: false, reason: 'finished' };
    const rows = await tx
      .select({ id: stageMatches.id, group: stageMatches.groupNumber, side: stageMatches.side, round: stageMatches.round, status: stageMatches.status })
      .from(stageMatches)
      .where(eq(stageMatches.stageId, stage.id));
    const planned = planSchedule(rows, new Date(input.start), input.roundMinutes ?? 0, scope);
    if (!planned.ok) return planned;
    const values = planned.times.map(({ id, at }) => sql`(${id}::uuid, ${at.toISOString()}::timestamptz)`);
    // One statement; a match played meanwhile cannot be, as the tournament is locked.
    await tx.execute(sql`
      update ${stageMatches} as m set scheduled_at = v.at, version = m.version + 1, updated_at = now()
      from (values ${sql.join(values, sql`, `)}) as v(id, at)
      where m.id = v.id`);
    await tx
      .update(tournaments)
      .set({ bracketVersion: sql`${tournaments.bracketVersion} + 1`, updatedAt: new Date() })
      .where(eq(tournaments.id, tournament.id));
    return { ok: true, matches: planned.times.map(({ id, at }) => ({ _id: id, scheduledAt: at.toISOString() })) };
  });
  if (done.ok) publishTournament({ tournamentId, kind: 'stage' });
  return done;
}
