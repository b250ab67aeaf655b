/**
 * Final places across a tournament's stages (issue 21): the last stage places those who reached
 * it; everyone who went out earlier comes after them, in the bands their stage gave them.
 */
import type { Placement, StandingRow } from './standings.ts';

/** Places from the tables of several groups: the groups' winners share the first band, and so on. */
export function groupBandPlacements(tables: readonly (readonly StandingRow[])[]): Placement[] {
  const byRank = new Map<number, string[]>();
  for (const table of tables) for (const row of table) byRank.set(row.rank, [...(byRank.get(row.rank) ?? []), row.participant]);
  const placements: Placement[] = [];
  let next = 1;
  for (const rank of [...byRank.keys()].sort((x, y) => x - y)) {
    const band = byRank.get(rank)!;
    for (const participant of band) placements.push({ participant, from: next, to: next + band.length - 1 });
    next += band.length;
  }
  return placements;
}

/**
 * A tournament's places from its stages, first stage first: the last stage's places as it gives
 * them (with room for those still playing); then, stage by stage backwards, the bands of those who
 * went out there — after everyone who reached a later stage, placed or still playing.
 */
export function tournamentPlacements(stages: readonly { participants: readonly string[]; placements: readonly Placement[] }[]): Placement[] {
  const later = new Set<string>();
  const result: Placement[] = [];
  for (const [index, stage] of [...stages].reverse().entries()) {
    const left = stage.placements.filter((p) => !later.has(p.participant));
    const starts = [...new Set(left.map((p) => p.from))].sort((x, y) => x - y);
    let next = later.size + 1;
    for (const start of starts) {
      const band = left.filter((p) => p.from === start);
      const from = index === 0 ? start : next;
      for (const p of band) result.push({ participant: p.participant, from, to: from + band.length - 1 });
      next = from + band.length;
    }
    for (const id of stage.participants) later.add(id);
  }
  return result.sort((x, y) => x.from - y.from);
}
