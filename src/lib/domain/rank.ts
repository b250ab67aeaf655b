/** Rank titles by rating (SPEC §4): thresholds 1000, 1200, 1500, 2000. */
export const RANKS = [
  { id: 'novice', min: Number.NEGATIVE_INFINITY },
  { id: 'intermediate', min: 1000 },
  { id: 'experienced', min: 1200 },
  { id: 'expert', min: 1500 },
  { id: 'legend', min: 2000 },
] as const;

export type RankId = (typeof RANKS)[number]['id'];

/** The rating as pages show it: a whole number. */
export const displayRating = (rating: number): number => Math.round(rating);

/**
 * The rank of a rating: Новачок below 1000, Середній 1000–1199, Досвідчений 1200–1499, Експерт
 * 1500–1999, Легенда from 2000. Judged on the rating as shown (rounded), so a row reading 1000
 * never says Новачок.
 */
export function rankOf(rating: number): RankId {
  const shown = displayRating(rating);
  let rank: RankId = 'novice';
  for (const r of RANKS) if (shown >= r.min) rank = r.id;
  return rank;
}

/** The catalog key of a rank's title. */
export const rankTitleKey = (rank: RankId) => `stats.rank.${rank}` as const;
