/**
 * The rating-over-time chart of a profile (issue 23), as numbers: where each point of a rating
 * history goes in an SVG box, the horizontal lines worth labelling and the path through the points.
 * Pure, so the server draws it (components/RatingChart.astro) and a unit test checks the scaling.
 */

/** One point of a rating history: when the match ended and the rating right after it. */
export interface RatingPoint {
  at: string;
  rating: number;
}

/** The most points a profile sends per game: enough for the chart's width, small for a long career. */
export const RATING_HISTORY_MAX_POINTS = 120;

/**
 * At most `max` points of a history in order, spread evenly over it: the first and the last always,
 * so the chart starts and ends where the career does. A shorter history is returned as it is.
 */
export function sampleHistory<T>(points: readonly T[], max = RATING_HISTORY_MAX_POINTS): T[] {
  if (points.length <= max) return [...points];
  if (max <= 1) return points.length > 0 ? [points[points.length - 1]!] : [];
  const picked: T[] = [];
  for (let i = 0; i < max; i++) picked.push(points[Math.round((i * (points.length - 1)) / (max - 1))]!);
  return picked;
}

/** The drawing box: its size and the margins kept free for the labels. */
export interface ChartBox {
  width: number;
  height: number;
  padding: { top: number; right: number; bottom: number; left: number };
}

/**
 * The profile's box: the plot alone, stretched to its container (the labels are HTML beside it,
 * so their size does not follow the drawing's), the lowest and highest lines on its edges.
 */
export const RATING_CHART_BOX: ChartBox = { width: 600, height: 200, padding: { top: 0, right: 0, bottom: 0, left: 0 } };

export interface PlacedPoint extends RatingPoint {
  x: number;
  y: number;
}

export interface RatingChart {
  points: PlacedPoint[];
  /** The rating range drawn, bottom to top: the lowest and highest ratings rounded out to `step`. */
  min: number;
  max: number;
  /** Ratings of the horizontal lines, bottom to top, with their height in the box. */
  ticks: { rating: number; y: number }[];
  /** The SVG path through the points, oldest first ("M x y L x y …"); empty without points. */
  path: string;
  /** The first and last moments drawn, for the axis labels. */
  from: string | null;
  to: string | null;
}

/** Steps between labelled lines, the smallest that keeps them to `MAX_INTERVALS` is used. */
const STEPS = [10, 20, 25, 50, 100, 200, 250, 500, 1000] as const;
const MAX_INTERVALS = 5;
const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * Places a history (oldest first) in `box`: time runs left to right (points of one moment, or a
 * single point, are spread evenly by order instead), ratings bottom to top between bounds rounded
 * out to a step that gives at most five intervals; a flat history gets one step above and below.
 */
export function ratingChart(history: readonly RatingPoint[], box: ChartBox = RATING_CHART_BOX): RatingChart {
  const { width, height, padding } = box;
  const left = padding.left;
  const right = width - padding.right;
  const top = padding.top;
  const bottom = height - padding.bottom;
  if (history.length === 0) return { points: [], min: 0, max: 0, ticks: [], path: '', from: null, to: null };

  const ratings = history.map((p) => p.rating);
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const step: number = STEPS.find((s) => Math.ceil(high / s) - Math.floor(low / s) <= MAX_INTERVALS) ?? STEPS[STEPS.length - 1]!;
  let min = Math.floor(low / step) * step;
  let max = Math.ceil(high / step) * step;
  if (min === max) {
    min -= step;
    max += step;
  }
  const yOf = (rating: number) => round1(bottom - ((rating - min) / (max - min)) * (bottom - top));

  const times = history.map((p) => Date.parse(p.at));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const byTime = last > first && times.every(Number.isFinite);
  const xOf = (index: number) => {
    if (history.length === 1) return round1((left + right) / 2);
    const share = byTime ? (times[index]! - first) / (last - first) : index / (history.length - 1);
    return round1(left + share * (right - left));
  };

  const points = history.map((p, index) => ({ ...p, x: xOf(index), y: yOf(p.rating) }));
  const ticks: RatingChart['ticks'] = [];
  for (let rating = min; rating <= max; rating += step) ticks.push({ rating, y: yOf(rating) });
  return {
    points,
    min,
    max,
    ticks,
    path: points.map((p, index) => `${index === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' '),
    from: history[0]!.at,
    to: history[history.length - 1]!.at,
  };
}
