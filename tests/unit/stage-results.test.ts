import { describe, expect, it } from 'vitest';
import { judgeResult, winsNeeded, type ResultInput } from '../../src/lib/domain/stage/result.ts';

const g = (a: number, b: number) => ({ a, b });

describe('judgeResult (issue 21: the winner follows from the scores, never typed)', () => {
  it('needs 1 of 1, 2 of 3, 3 of 5, 5 of 9 games', () => {
    expect([1, 3, 5, 9].map(winsNeeded)).toEqual([1, 2, 3, 5]);
  });

  it.each<[string, ResultInput, number, boolean, { scoreA: number; scoreB: number; winner: 'a' | 'b' | null }]>([
    // Best of 1: the scores are points, any margin.
    ['best-of-1 points for a', { scoreA: 16, scoreB: 12 }, 1, false, { scoreA: 16, scoreB: 12, winner: 'a' }],
    ['best-of-1 points for b', { scoreA: 3, scoreB: 13 }, 1, false, { scoreA: 3, scoreB: 13, winner: 'b' }],
    ['best-of-1 draw where draws are allowed', { scoreA: 2, scoreB: 2 }, 1, true, { scoreA: 2, scoreB: 2, winner: null }],
    // Best of N: the scores count games; won at ⌈N/2⌉.
    ['best-of-3 2–1', { scoreA: 2, scoreB: 1 }, 3, false, { scoreA: 2, scoreB: 1, winner: 'a' }],
    ['best-of-3 0–2', { scoreA: 0, scoreB: 2 }, 3, false, { scoreA: 0, scoreB: 2, winner: 'b' }],
    ['best-of-5 3–2', { scoreA: 3, scoreB: 2 }, 5, false, { scoreA: 3, scoreB: 2, winner: 'a' }],
    ['best-of-5 1–3', { scoreA: 1, scoreB: 3 }, 5, true, { scoreA: 1, scoreB: 3, winner: 'b' }],
    // Per-game scores decide the match score when none is typed, and agree with it when one is.
    ['best-of-3 games won 2–1', { games: [g(16, 10), g(8, 16), g(16, 14)] }, 3, false, { scoreA: 2, scoreB: 1, winner: 'a' }],
    ['best-of-3 games matching the typed score', { scoreA: 0, scoreB: 2, games: [g(1, 16), g(14, 16)] }, 3, false, { scoreA: 0, scoreB: 2, winner: 'b' }],
    ['best-of-5 games 3–2', { games: [g(1, 0), g(0, 1), g(1, 0), g(0, 1), g(1, 0)] }, 5, false, { scoreA: 3, scoreB: 2, winner: 'a' }],
    ['best-of-1 with its one game', { games: [g(13, 16)] }, 1, false, { scoreA: 0, scoreB: 1, winner: 'b' }],
  ])('accepts %s', (_, input, bestOf, draws, expected) => {
    const verdict = judgeResult(input, { bestOf, draws });
    expect(verdict).toMatchObject({ ok: true, result: { ...expected, forfeit: null } });
  });

  it.each<[string, ResultInput, number, boolean, string]>([
    ['no score at all', {}, 1, false, 'noScore'],
    ['one score only', { scoreA: 16 }, 1, false, 'noScore'],
    ['a draw where draws are not allowed (elimination)', { scoreA: 16, scoreB: 16 }, 1, false, 'draw'],
    ['best-of-3 3–1: more than the 2 wins needed', { scoreA: 3, scoreB: 1 }, 3, false, 'bestOf'],
    ['best-of-3 1–0: not decided yet', { scoreA: 1, scoreB: 0 }, 3, false, 'bestOf'],
    ['best-of-3 2–2: more games than the series has', { scoreA: 2, scoreB: 2 }, 3, true, 'bestOf'],
    ['best-of-5 2–1: not decided yet', { scoreA: 2, scoreB: 1 }, 5, false, 'bestOf'],
    ['best-of-5 4–0', { scoreA: 4, scoreB: 0 }, 5, false, 'bestOf'],
    // A best-of-3 cannot end level: one more game was owed (draws or not).
    ['best-of-3 1–1 even in a group', { scoreA: 1, scoreB: 1 }, 3, true, 'bestOf'],
    ['games that disagree with the typed score', { scoreA: 2, scoreB: 0, games: [g(16, 10), g(8, 16), g(16, 14)] }, 3, false, 'gamesMismatch'],
    ['games that disagree with one typed score', { scoreB: 2, games: [g(16, 10), g(8, 16), g(16, 14)] }, 3, false, 'gamesMismatch'],
    ['a drawn game', { games: [g(16, 10), g(15, 15)] }, 3, false, 'gameDraw'],
    ['a game after the series was decided', { games: [g(16, 10), g(16, 8), g(3, 16)] }, 3, false, 'gamesAfterDecided'],
    ['more games than the series has', { games: [g(1, 0), g(0, 1), g(1, 0), g(1, 0)] }, 3, false, 'tooManyGames'],
    ['games that do not decide the series', { games: [g(16, 10)] }, 3, false, 'bestOf'],
    ['games level where draws are not allowed', { games: [g(16, 10), g(10, 16)] }, 3, false, 'draw'],
  ])('refuses %s', (_, input, bestOf, draws, reason) => {
    expect(judgeResult(input, { bestOf, draws })).toEqual({ ok: false, reason });
  });

  it.each<[ResultInput, number]>([
    [{ forfeit: 'a' }, 1],
    [{ forfeit: 'a', scoreA: 16, scoreB: 2 }, 1],
    [{ forfeit: 'a', scoreA: 3, scoreB: 3 }, 3],
    [{ forfeit: 'a', games: [g(16, 0), g(16, 0)] }, 3],
  ])('a forfeit by a gives b the match whatever the score: %j in best of %i', (input, bestOf) => {
    for (const draws of [false, true]) {
      const verdict = judgeResult(input, { bestOf, draws });
      expect(verdict).toMatchObject({ ok: true, result: { forfeit: 'a', winner: 'b' } });
      const mirrored = judgeResult({ ...input, forfeit: 'b' }, { bestOf, draws });
      expect(mirrored).toMatchObject({ ok: true, result: { forfeit: 'b', winner: 'a' } });
    }
  });

  it('keeps the scores typed with a forfeit, and 0–0 when none were', () => {
    expect(judgeResult({ forfeit: 'b', scoreA: 16, scoreB: 4 }, { bestOf: 1, draws: false })).toMatchObject({ ok: true, result: { scoreA: 16, scoreB: 4 } });
    expect(judgeResult({ forfeit: 'b' }, { bestOf: 1, draws: false })).toMatchObject({ ok: true, result: { scoreA: 0, scoreB: 0 } });
  });
});
