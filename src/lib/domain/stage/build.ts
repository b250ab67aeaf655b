/**
 * Making a stage (issue 21): the seed order, the groups, the plan of matches. Pure: the service
 * builds a whole stage in memory and writes it in one insert per table.
 */
import { firstRoundPairs, standardOrder } from '../bracket.ts';
import { roundRobin } from '../round-robin.ts';
import { swissRound, type SwissEntry } from '../swiss.ts';
import { DEFAULT_TIE_BREAKERS, tablePoints, GSL_GROUP, hasGroups, thresholdsOf, type StageFormat, type StageSeeding, type StageSettings } from './format.ts';
import { gslPlan } from './gsl.ts';
import { bracketSize, doubleEliminationPlan, singleEliminationPlan, type PlannedMatch } from './plan.ts';
import { isStageComplete, type ResolvedMatch } from './resolve.ts';
import { groupStandings } from './standings.ts';
import { snakeGroups } from './snake.ts';
import { outcomeOf, swissRecords, thresholdRound } from './swiss-thresholds.ts';

/**
 * Participants in seed order. `order` and `manual` keep the order given (applications as they
 * came, or the admin's); `standard` too (its pairing does the rest); `rating` sorts by the game's
 * rating, highest first, the unrated last in the order given.
 */
export function seedOrder(participants: readonly string[], seeding: StageSeeding, ratings: ReadonlyMap<string, number> = new Map()): string[] {
  if (seeding !== 'rating') return [...participants];
  return participants
    .map((id, index) => ({ id, index, rating: ratings.get(id) }))
    .sort((x, y) => (y.rating ?? -Infinity) - (x.rating ?? -Infinity) || x.index - y.index)
    .map(({ id }) => id);
}

/** Kept here for the callers that share groups the way stages do. */
export { snakeGroups };

/**
 * The playoff seed order from the top `advance` of each group (each group's table in rank
 * order): group winners first, then runners-up, and so on; each tier is turned one group further
 * and reversed every other tier, so with standard pairing a group's winner first meets another
 * group's runner-up.
 */
export function crossSeed(tables: readonly (readonly string[])[], advance: number): string[] {
  const count = tables.length;
  const seeds: string[] = [];
  for (let tier = 0; tier < advance; tier++) {
    const row = Array.from({ length: count }, (_, g) => tables[(g + tier) % count]?.[tier]).filter((id): id is string => id !== undefined);
    seeds.push(...(tier % 2 === 0 ? row : row.reverse()));
  }
  return seeds;
}

export interface StageDraft {
  plan: PlannedMatch[];
  /** Elimination: the first round's slots (null a bye). Otherwise the participants in seed order. */
  seeds: (string | null)[];
  /** Round robin and Swiss: each group's participants in seed order. */
  groups: string[][];
}

/** The elimination seed slots: `order` pairs as listed, the others 1 v n with byes to the top seeds. */
function slots(ordered: readonly string[], seeding: StageSeeding): (string | null)[] {
  const size = bracketSize(ordered.length);
  // Two participants: one match, whatever the seeding.
  if (size === 2) return [ordered[0] ?? null, ordered[1] ?? null];
  return firstRoundPairs(ordered, seeding === 'order' ? 'order' : 'standard').flat();
}

/**
 * A participant's seed in a stage (1 the highest), read back from the seeds as the stage keeps them:
 * a table's in order; an elimination's as first-round slots, filled in order or by the standard
 * bracket (`standardOrder`). Null when not among them.
 */
export function seedNumber(stage: { format: StageFormat; seeding: StageSeeding; seeds: readonly (string | null)[] }, participant: string): number | null {
  const at = stage.seeds.indexOf(participant);
  if (at === -1) return null;
  if (hasGroups(stage.format)) return at + 1;
  if (stage.seeding === 'order' || stage.seeds.length === 2) return stage.seeds.slice(0, at + 1).filter((id) => id !== null).length;
  return standardOrder(stage.seeds.length)[at] ?? null;
}

/**
 * The group count actually used: at most one group per two participants. GSL groups default to one
 * per four participants (`gslGroupsFit` says whether the count asked for makes groups of three or four).
 */
export const groupCount = (participants: number, settings: StageSettings, format?: StageFormat): number =>
  Math.max(1, Math.min(settings.groups ?? (format === 'gsl' ? Math.ceil(participants / GSL_GROUP.max) : 1), Math.floor(participants / 2)));

/** Whether `participants` share into the GSL groups asked for with three or four in each. */
export const gslGroupsFit = (participants: number, settings: StageSettings): boolean => {
  const count = settings.groups ?? Math.ceil(participants / GSL_GROUP.max);
  return participants >= GSL_GROUP.min * count && participants <= GSL_GROUP.max * count;
};

/** Round robin: every group's schedule by the circle method, matches with fixed sides. */
function roundRobinPlan(groups: readonly string[][], settings: StageSettings): PlannedMatch[] {
  return groups.flatMap((members, g) =>
    roundRobin(members, { double: settings.doubleRound ?? false }).flatMap((round, r) =>
      round.pairings.map((pairing, p) => ({
        group: g + 1,
        side: null,
        round: r + 1,
        position: p + 1,
        a: { kind: 'fixed' as const, id: pairing.a },
        b: { kind: 'fixed' as const, id: pairing.b },
      })),
    ),
  );
}

/** One Swiss round for a group: the pairings, and the bye as a match with one side. */
function swissMatches(group: number, round: number, entries: readonly SwissEntry[]): PlannedMatch[] {
  const { pairings, bye } = swissRound(entries);
  const matches: PlannedMatch[] = pairings.map((pairing, p) => ({
    group,
    side: null,
    round,
    position: p + 1,
    a: { kind: 'fixed', id: pairing.a },
    b: { kind: 'fixed', id: pairing.b },
  }));
  if (bye) matches.push({ group, side: null, round, position: matches.length + 1, a: { kind: 'fixed', id: bye }, b: { kind: 'fixed', id: null } });
  return matches;
}

/** Swiss rounds default to ⌈log2 n⌉ of the largest group: enough for one unbeaten participant. */
export const swissRounds = (settings: StageSettings, groups: readonly string[][]): number =>
  settings.rounds ?? Math.max(1, Math.ceil(Math.log2(Math.max(2, ...groups.map((g) => g.length)))));

/**
 * Whether a stage is over: every match completed and, in Swiss, every round paired and played
 * (between rounds every match is completed, yet the stage goes on); with thresholds, everyone not
 * disqualified has advanced or been eliminated.
 */
export function isStageFinished(
  format: StageFormat,
  settings: StageSettings,
  groups: readonly string[][],
  matches: readonly ResolvedMatch[],
  disqualified: ReadonlySet<string> = new Set(),
): boolean {
  if (!isStageComplete(matches)) return false;
  if (format !== 'swiss') return true;
  const thresholds = thresholdsOf(settings);
  if (thresholds) {
    return groups.every((members, g) =>
      swissRecords(
        members,
        matches.filter((m) => m.plan.group === g + 1),
      ).every((record) => disqualified.has(record.id) || outcomeOf(record, thresholds) !== null),
    );
  }
  return Math.max(0, ...matches.map((m) => m.plan.round)) >= swissRounds(settings, groups);
}

/** One round of a Swiss stage with thresholds for a group, its bye as a match with one side. */
function thresholdMatches(group: number, round: number, members: readonly string[], matches: readonly ResolvedMatch[], settings: StageSettings, out: ReadonlySet<string>): PlannedMatch[] {
  const { pairings, bye } = thresholdRound(swissRecords(members, matches), round, thresholdsOf(settings)!, out);
  const fixed = (id: string | null) => ({ kind: 'fixed' as const, id });
  const planned: PlannedMatch[] = pairings.map((p, i) => ({ group, side: null, round, position: i + 1, a: fixed(p.a), b: fixed(p.b) }));
  if (bye) planned.push({ group, side: null, round, position: planned.length + 1, a: fixed(bye), b: fixed(null) });
  return planned;
}

/** A new stage for participants already in seed order (see `seedOrder`). */
export function draftStage(format: StageFormat, settings: StageSettings, ordered: readonly string[], seeding: StageSeeding, ratings: ReadonlyMap<string, number> = new Map()): StageDraft {
  if (format === 'single_elimination' || format === 'double_elimination') {
    const seeds = slots(ordered, seeding);
    const plan =
      format === 'single_elimination'
        ? singleEliminationPlan(seeds.length, { thirdPlace: settings.thirdPlace })
        : doubleEliminationPlan(seeds.length, { grandFinal: settings.grandFinal });
    return { plan, seeds, groups: [] };
  }
  // Free-for-all lobbies are written as rows of their own (services/competition/stages/lobbies.ts).
  if (format === 'free_for_all') return { plan: [], seeds: [...ordered], groups: [] };
  const groups = snakeGroups(ordered, groupCount(ordered.length, settings, format));
  if (format === 'round_robin') return { plan: roundRobinPlan(groups, settings), seeds: [...ordered], groups };
  if (format === 'gsl') return { plan: gslPlan(groups), seeds: [...ordered], groups };
  if (thresholdsOf(settings)) return { plan: groups.flatMap((members, g) => thresholdMatches(g + 1, 1, members, [], settings, new Set())), seeds: [...ordered], groups };
  const plan = groups.flatMap((members, g) =>
    swissMatches(
      g + 1,
      1,
      members.map((id) => ({ id, points: 0, rating: ratings.get(id) ?? null, opponents: [], hadBye: false })),
    ),
  );
  return { plan, seeds: [...ordered], groups };
}

export type NextRoundRefusal = 'notSwiss' | 'roundNotComplete' | 'allRoundsPlayed';

/**
 * The next Swiss round of every group, paired on the tables so far (points, then rating, no
 * rematch while one can be avoided, the bye to the lowest-ranked who has not had one), or with
 * thresholds by Valve's rules (`swiss-thresholds.ts`). The `disqualified` are paired no more.
 * Refused until every match of the current round is completed, and after the last round.
 */
export function nextSwissRound(
  settings: StageSettings,
  allGroups: readonly string[][],
  matches: readonly ResolvedMatch[],
  ratings: ReadonlyMap<string, number> = new Map(),
  disqualified: ReadonlySet<string> = new Set(),
): { ok: true; round: number; plan: PlannedMatch[] } | { ok: false; reason: NextRoundRefusal } {
  const played = Math.max(0, ...matches.map((m) => m.plan.round));
  if (matches.some((m) => m.status !== 'completed')) return { ok: false, reason: 'roundNotComplete' };
  const round = played + 1;
  if (thresholdsOf(settings)) {
    if (isStageFinished('swiss', settings, allGroups, matches, disqualified)) return { ok: false, reason: 'allRoundsPlayed' };
    const plan = allGroups.flatMap((members, g) =>
      thresholdMatches(
        g + 1,
        round,
        members,
        matches.filter((m) => m.plan.group === g + 1),
        settings,
        disqualified,
      ),
    );
    return { ok: true, round, plan };
  }
  // The rounds are counted from the groups as drawn, as `isStageFinished` counts them: a
  // disqualification does not shorten a stage whose length the players were told.
  if (played >= swissRounds(settings, allGroups)) return { ok: false, reason: 'allRoundsPlayed' };
  const groups = allGroups.map((members) => members.filter((id) => !disqualified.has(id)));
  const plan = groups.flatMap((members, g) => {
    const own = matches.filter((m) => m.plan.group === g + 1);
    const table = new Map(
      groupStandings(members, own, { tieBreakers: settings.tieBreakers ?? DEFAULT_TIE_BREAKERS.swiss, points: tablePoints(settings) }).map((row) => [
        row.participant,
        row,
      ]),
    );
    const entries: SwissEntry[] = members.map((id) => ({
      id,
      points: table.get(id)?.points ?? 0,
      rating: ratings.get(id) ?? null,
      opponents: own.filter((m) => !m.bye && (m.a === id || m.b === id)).map((m) => (m.a === id ? m.b : m.a)!),
      hadBye: own.some((m) => m.bye && m.winner === id),
    }));
    return swissMatches(g + 1, round, entries);
  });
  return { ok: true, round, plan };
}
