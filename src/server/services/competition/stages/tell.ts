import { eq } from 'drizzle-orm';
import type { MatchPayload } from '../../../../lib/domain/organisation-events.ts';
import type { Tx } from '../../../db/client.ts';
import { stages } from '../../../db/schema/index.ts';
import { eventsHeard, tellOrganisation } from '../../integrations/events.ts';
import { actorsOf } from '../../match-day/match-actions.ts';

/*
 * What a stage's save tells its organisation's integrations (issue 60): the rounds it started, the
 * matches it made ready and the results it settled. One query when nobody listens, and a fixed few
 * when someone does, however many matches a save touches (a 256-player bracket's first round is
 * one insert per event).
 */

/** A match as a save leaves it: its id, round, sides, and for a settled one its score and winner. */
export interface TouchedMatch {
  id: string;
  round: number;
  a: string | null;
  b: string | null;
  scoreA?: number | null;
  scoreB?: number | null;
  winner?: string | null;
}

export interface StageMoments {
  /** Rounds of the stage whose first match was just made ready. */
  roundsStarted: readonly number[];
  /** Matches just made ready between two known sides. */
  ready: readonly TouchedMatch[];
  /** Matches whose played result was just settled or corrected. */
  completed: readonly TouchedMatch[];
}

export async function tellStageMoments(tx: Tx, tournament: { id: string; soloOnly: boolean }, stageId: string, moments: StageMoments): Promise<void> {
  const ready = moments.ready.filter((m) => m.a && m.b);
  if (moments.roundsStarted.length === 0 && ready.length === 0 && moments.completed.length === 0) return;
  const heard = await eventsHeard(tx, tournament.id);
  const rounds = heard.has('round.started') ? [...new Set(moments.roundsStarted)].sort((x, y) => x - y) : [];
  const readyTold = heard.has('match.ready') ? ready : [];
  const completedTold = heard.has('match.completed') ? moments.completed : [];
  if (rounds.length === 0 && readyTold.length === 0 && completedTold.length === 0) return;
  const [stage] = await tx.select({ name: stages.name, number: stages.number }).from(stages).where(eq(stages.id, stageId));
  if (!stage) return;
  if (rounds.length > 0) {
    await tellOrganisation(
      tx,
      tournament.id,
      'round.started',
      rounds.map((number) => ({ round: { stage: stage.name, stageNumber: stage.number, stageId, number } })),
      { once: true },
    );
  }
  if (readyTold.length === 0 && completedTold.length === 0) return;
  const names = await actorsOf(
    tx,
    tournament.soloOnly,
    [...readyTold, ...completedTold].flatMap((m) => [m.a, m.b]),
  );
  const side = (id: string | null) => (id ? [{ id, name: names.get(id)?.name ?? '' }] : []);
  const payload = (m: TouchedMatch, settled: boolean): { match: MatchPayload } => ({
    match: {
      id: m.id,
      stageId,
      round: m.round,
      sides: [...side(m.a), ...side(m.b)],
      ...(settled ? { score: [m.scoreA ?? null, m.scoreB ?? null], winnerId: m.winner ?? null } : {}),
    },
  });
  if (readyTold.length > 0)
    await tellOrganisation(
      tx,
      tournament.id,
      'match.ready',
      readyTold.map((m) => payload(m, false)),
    );
  if (completedTold.length > 0)
    await tellOrganisation(
      tx,
      tournament.id,
      'match.completed',
      completedTold.map((m) => payload(m, true)),
    );
}
