/**
 * Stages as the API shows them (StageView), made by the real engine rather than by hand: a plan
 * from `draftStage`, results entered by a rule and resolved by `resolveStage` (byes, advancement,
 * the grand final's reset), tables by `groupStandings` (a Swiss with thresholds' by
 * `thresholdStandings`, GSL groups' by `gslStandings`), places by the standings module. Used by the
 * bracket page's component tests.
 */
import type { BracketParticipant } from '../../src/lib/api/bracket.ts';
import type { StageMatchView, StageView } from '../../src/lib/api/stages.ts';
import { draftStage, isStageFinished, nextSwissRound } from '../../src/lib/domain/stage/build.ts';
import {
  allowsDraws,
  DEFAULT_TIE_BREAKERS,
  isElimination,
  tablePoints,
  thresholdsOf,
  type StageFormat,
  type StageSettings,
} from '../../src/lib/domain/stage/format.ts';
import { gslStandings } from '../../src/lib/domain/stage/gsl.ts';
import { groupBandPlacements } from '../../src/lib/domain/stage/placements.ts';
import { matchBestOfs, thresholdStandings } from '../../src/lib/domain/stage/swiss-thresholds.ts';
import { feedingMatch, type PlannedMatch } from '../../src/lib/domain/stage/plan.ts';
import { resolveStage, isStageComplete, type EnteredResult, type ResolvedMatch } from '../../src/lib/domain/stage/resolve.ts';
import { judgeResult, type ResultInput } from '../../src/lib/domain/stage/result.ts';
import { eliminationPlacements, groupStandings, tablePlacements } from '../../src/lib/domain/stage/standings.ts';

/** Decides a ready match: a result, or null to leave it unplayed. */
export type Decide = (match: { a: string; b: string; plan: PlannedMatch; bestOf: number }) => ResultInput | null;

/** «P1» … «Pn» with ids p1 … pn, in seed order. */
export const players = (n: number, name = (i: number) => `P${i}`): BracketParticipant[] =>
  Array.from({ length: n }, (_, i) => ({
    _id: `p${i + 1}`,
    name: name(i + 1),
    image: null,
    type: 'user' as const,
  }));

/** The stronger (lower-numbered) side wins 2:1. */
export const favouriteWins: Decide = ({ a, b }) => (Number(a.slice(1)) < Number(b.slice(1)) ? { scoreA: 2, scoreB: 1 } : { scoreA: 1, scoreB: 2 });

function settle(
  plan: readonly PlannedMatch[],
  seeds: (string | null)[],
  entered: Map<number, EnteredResult>,
  decide: Decide,
  format: StageFormat,
  settings: StageSettings,
): ResolvedMatch[] {
  // Each pass can make later matches ready; a tree is settled in at most as many passes as it has matches.
  for (let pass = 0; pass <= plan.length; pass++) {
    const resolved = resolveStage(plan, seeds, entered);
    // A Swiss with thresholds gives its deciding matches their own best-of, by the records before their round.
    const bestOfs = matchBestOfs(settings, resolved);
    let changed = false;
    resolved.forEach((match, index) => {
      if (match.status !== 'ready' || entered.has(index)) return;
      const input = decide({ a: match.a!, b: match.b!, plan: match.plan, bestOf: bestOfs[index]! });
      if (!input) return;
      const verdict = judgeResult(input, {
        bestOf: bestOfs[index]!,
        draws: allowsDraws(format, settings),
      });
      if (!verdict.ok) throw new Error(`fixture result refused: ${verdict.reason}`);
      entered.set(index, { a: match.a, b: match.b, result: verdict.result });
      changed = true;
    });
    if (!changed) return resolved;
  }
  throw new Error('fixture did not settle');
}

/**
 * A stage of `format` over `participants` (seeded in order), its ready matches decided by
 * `decide`; Swiss plays `swissRounds` rounds (each paired once the previous one is complete), a
 * Swiss with thresholds as many as it takes when `swissRounds` is not given.
 */
export function stageFixture(
  format: StageFormat,
  participants: readonly BracketParticipant[],
  options: {
    settings?: StageSettings;
    decide?: Decide;
    swissRounds?: number;
    number?: number;
    name?: string;
  } = {},
): StageView {
  const settings = options.settings ?? {};
  const decide = options.decide ?? favouriteWins;
  const ids = participants.map((p) => p._id);
  const draft = draftStage(format, settings, ids, 'order');
  let plan = [...draft.plan];
  const entered = new Map<number, EnteredResult>();
  let resolved = settle(plan, draft.seeds, entered, decide, format, settings);
  const thresholds = format === 'swiss' ? thresholdsOf(settings) : null;
  if (format === 'swiss') {
    for (let round = 2; round <= (options.swissRounds ?? (thresholds ? Infinity : 1)); round++) {
      const next = nextSwissRound(settings, draft.groups, resolved);
      if (!next.ok) break;
      plan = [...plan, ...next.plan];
      resolved = settle(plan, draft.seeds, entered, decide, format, settings);
    }
  }
  const tieBreakers = format === 'round_robin' || format === 'swiss' ? (settings.tieBreakers ?? DEFAULT_TIE_BREAKERS[format]) : [];
  const groups = draft.groups.map((members, g) => {
    const own = resolved.filter((m) => m.plan.group === g + 1);
    return {
      number: g + 1,
      participants: members,
      standings:
        format === 'gsl'
          ? gslStandings(members, own)
          : thresholds
            ? thresholdStandings(members, own, thresholds)
            : groupStandings(members, own, { tieBreakers, points: tablePoints(settings) }),
    };
  });
  const complete = thresholds ? isStageFinished(format, settings, draft.groups, resolved) : isStageComplete(resolved);
  const placements = isElimination(format)
    ? eliminationPlacements(ids, resolved)
    : !complete
      ? []
      : groups.length === 1
        ? tablePlacements(groups[0]!.standings)
        : groupBandPlacements(groups.map((group) => group.standings));
  const bestOfs = matchBestOfs(settings, resolved);
  const matches = resolved.map((m, index): StageMatchView => ({
    _id: `m${index + 1}`,
    stage: 's1',
    number: index + 1,
    bestOf: bestOfs[index]!,
    from: { a: feedingMatch(m.plan.a), b: feedingMatch(m.plan.b) },
    group: m.plan.group,
    side: m.plan.side,
    round: m.plan.round,
    position: m.plan.position,
    a: m.a,
    b: m.b,
    scoreA: m.result?.scoreA ?? null,
    scoreB: m.result?.scoreB ?? null,
    games: m.result?.games ?? [],
    winner: m.winner,
    forfeit: m.result?.forfeit ?? null,
    status: m.status,
    bye: m.bye,
    scheduledAt: null,
    comment: '',
    version: 0,
    completedAt: null,
    reportState: null,
  }));
  return {
    _id: `s${options.number ?? 1}`,
    tournament: 't1',
    number: options.number ?? 1,
    name: options.name ?? '',
    format,
    seeding: 'order',
    settings,
    seeds: draft.seeds,
    disqualified: [],
    from: null,
    groups,
    matches,
    lobbies: [],
    placements,
    complete,
  };
}
