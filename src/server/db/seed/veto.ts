import { and, asc, desc, eq } from 'drizzle-orm';
import { seedNumber } from '../../../lib/domain/stage/build.ts';
import type { Tx } from '../client.ts';
import { matchVetoMoves, stageMatches, stages } from '../schema/index.ts';

/**
 * The map veto in the demo (issue 58): the tournament's first stage asks for one, and its latest
 * ready match is mid-veto — the higher seed chose Team A and banned two maps; the opponent's turn.
 */
export async function seedVeto(tx: Tx, tournamentId: string, now: Date): Promise<void> {
  const [stage] = await tx.select().from(stages).where(eq(stages.tournamentId, tournamentId)).orderBy(asc(stages.number)).limit(1);
  if (!stage) return;
  await tx
    .update(stages)
    .set({ settings: { ...stage.settings, veto: {} } })
    .where(eq(stages.id, stage.id));
  const ready = await tx
    .select()
    .from(stageMatches)
    .where(and(eq(stageMatches.stageId, stage.id), eq(stageMatches.status, 'ready')))
    .orderBy(desc(stageMatches.round), desc(stageMatches.position));
  const match = ready.find((m) => m.participantA && m.participantB);
  if (!match) return;
  const [a, b] = [seedNumber(stage, match.participantA!) ?? 0, seedNumber(stage, match.participantB!) ?? 0];
  const starter = a <= b ? 'a' : 'b';
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000);
  await tx.insert(matchVetoMoves).values([
    { matchId: match.id, number: 0, action: 'roles', slot: starter, role: 'A', createdAt: at(6) },
    { matchId: match.id, number: 1, action: 'ban', slot: starter, map: 'Nuke', createdAt: at(5) },
    { matchId: match.id, number: 2, action: 'ban', slot: starter, map: 'Ancient', createdAt: at(4) },
  ]);
}
