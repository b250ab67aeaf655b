import { describe, expect, it } from 'vitest';
import { ratingChart, sampleHistory, type ChartBox } from '../../src/lib/domain/rating-chart.ts';

const box: ChartBox = { width: 200, height: 120, padding: { top: 10, right: 10, bottom: 10, left: 10 } };
const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString();

describe('the rating chart', () => {
  it('runs time left to right and rating bottom to top, within the box less its margins', () => {
    const chart = ratingChart(
      [
        { at: at(0), rating: 1016 },
        { at: at(1), rating: 1031 },
        { at: at(4), rating: 1012 },
      ],
      box,
    );
    // 1012–1031 rounds out to 1010–1040 in steps of 10.
    expect(chart.min).toBe(1010);
    expect(chart.max).toBe(1040);
    expect(chart.ticks.map((t) => t.rating)).toEqual([1010, 1020, 1030, 1040]);
    expect(chart.ticks[0]!.y).toBe(110);
    expect(chart.ticks.at(-1)!.y).toBe(10);
    expect(chart.points.map((p) => p.x)).toEqual([10, 55, 190]);
    // 1016 is 6/30 of the way up 100 pixels: 110 − 20.
    expect(chart.points[0]!.y).toBe(90);
    expect(chart.points[1]!.y).toBeLessThan(chart.points[0]!.y);
    expect(chart.path).toBe(`M10 90 L55 ${chart.points[1]!.y} L190 ${chart.points[2]!.y}`);
    expect([chart.from, chart.to]).toEqual([at(0), at(4)]);
  });

  it('keeps to five intervals over a long climb, in round steps', () => {
    const chart = ratingChart(
      [
        { at: at(0), rating: 984 },
        { at: at(9), rating: 2043 },
      ],
      box,
    );
    expect(chart.ticks.length - 1).toBeLessThanOrEqual(5);
    expect(chart.min).toBeLessThanOrEqual(984);
    expect(chart.max).toBeGreaterThanOrEqual(2043);
    expect(chart.ticks.map((t) => t.rating)).toEqual([500, 1000, 1500, 2000, 2500]);
    // A Legend's climb from the start: 1000–2008 in steps of 250, not 500 (a quarter of the box left empty).
    const legend = ratingChart(
      [
        { at: at(0), rating: 1016 },
        { at: at(9), rating: 2008 },
      ],
      box,
    );
    expect(legend.ticks.map((t) => t.rating)).toEqual([1000, 1250, 1500, 1750, 2000, 2250]);
  });

  it('draws one point, or a flat history, in the middle of a step above and below', () => {
    const one = ratingChart([{ at: at(0), rating: 1000 }], box);
    expect(one.points).toEqual([{ at: at(0), rating: 1000, x: 100, y: 60 }]);
    expect([one.min, one.max]).toEqual([990, 1010]);
    expect(one.path).toBe('M100 60');
  });

  it('spreads points of one moment evenly by their order', () => {
    const chart = ratingChart(
      [
        { at: at(0), rating: 1016 },
        { at: at(0), rating: 1000 },
        { at: at(0), rating: 1020 },
      ],
      box,
    );
    expect(chart.points.map((p) => p.x)).toEqual([10, 100, 190]);
  });

  it('draws nothing for no history', () => {
    expect(ratingChart([], box)).toMatchObject({ points: [], ticks: [], path: '', from: null, to: null });
  });
});

describe('sampling a long history', () => {
  it('keeps a short one as it is', () => {
    expect(sampleHistory([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });

  it('keeps the first and the last and spreads the rest evenly, in order', () => {
    const long = Array.from({ length: 1001 }, (_, i) => i);
    const sampled = sampleHistory(long, 11);
    expect(sampled).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  });
});
