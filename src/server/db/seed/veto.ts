import { asc, eq } from 'drizzle-orm';
import { bestOfFor } from '../../../lib/domain/stage/format.ts';
import { seedNumber } from '../../../lib/domain/stage/build.ts';
import { serverStep, standardSequence, vetoState, type VetoMove } from '../../../lib/domain/veto.ts';
import { rowOf } from '../../services/match-room/veto.ts';
import type { Tx } from '../client.ts';
import { games, matchVetoMoves, stageMatches, stages, tournaments } from '../schema/index.ts';

/**
 * The map veto in the demo (issue 58): the tournament's first stage asks for one, and the match
 * whose report waits for confirmation (seed/match-day.ts) was vetoed before it was played: the
 * higher seed chose Team A, the teams banned in Valve's order, the last map was played.
 */
export async function seedVeto(tx: Tx, tournamentId: string, now: Date): Promise<void> {
  const [stage] = await tx.select().from(stages).where(eq(stages.tournamentId, tournamentId)).orderBy(asc(stages.number)).limit(1);
  const [game] = await tx
    .select({ maps: games.maps })
    .from(games)
    .innerJoin(tournaments, eq(tournaments.gameId, games.id))
    .where(eq(tournaments.id, tournamentId));
  if (!stage || !game) return;
  await tx
    .update(stages)
    .set({ settings: { ...stage.settings, veto: {} } })
    .where(eq(stages.id, stage.id));
  const rows = await tx.select().from(stageMatches).where(eq(stageMatches.stageId, stage.id));
  const match = rows.find((m) => m.status === 'ready' && m.reportState === 'reported' && m.participantA && m.participantB);
  if (!match) return;
  const sequence = standardSequence(game.maps.length, bestOfFor(stage.settings, match));
  if (!sequence) return;
  const [a, b] = [seedNumber(stage, match.participantA!) ?? 0, seedNumber(stage, match.participantB!) ?? 0];
  const starter = a <= b ? 'a' : 'b';
  // Each team bans from the end of the pool, each picks from its start, each takes the first side.
  const log: VetoMove[] = [{ action: 'roles', slot: starter, role: 'A' }];
  for (;;) {
    const state = vetoState(game.maps, sequence, starter, log);
    const auto = serverStep(sequence, state, log);
    if (auto) log.push(auto);
    else if (!state.next) break;
    else if (state.next.action === 'side') log.push({ action: 'side', slot: state.next.slot, side: 0 });
    else if (state.next.action === 'ban') log.push({ action: 'ban', slot: state.next.slot, map: state.remaining.at(-1)! });
    else if (state.next.action === 'pick') log.push({ action: 'pick', slot: state.next.slot, map: state.remaining[0]! });
    else break;
  }
  // A minute a move, the last some 15 minutes before now (the report came 12 minutes ago).
  const started = now.getTime() - (15 + log.length) * 60_000;
  await tx
    .insert(matchVetoMoves)
    .values(log.map((move, number) => ({ ...rowOf(match.id, number, move, null), createdAt: new Date(started + number * 60_000) })));
}
