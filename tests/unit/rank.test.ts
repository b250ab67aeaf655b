import { describe, expect, it } from 'vitest';
import { formatWinRate, leaderboardHref, parseSort, parseTab, placeLabel, streakLabel } from '../../src/lib/domain/leaderboard.ts';
import { displayRating, rankOf, rankTitleKey } from '../../src/lib/domain/rank.ts';
import { t } from '../../src/lib/i18n/index.ts';

describe('rank titles', () => {
  it('follow the thresholds 1000, 1200, 1500, 2000', () => {
    const cases: [number, string][] = [
      [0, 'Новачок'],
      [999, 'Новачок'],
      [1000, 'Середній'],
      [1199, 'Середній'],
      [1200, 'Досвідчений'],
      [1499, 'Досвідчений'],
      [1500, 'Експерт'],
      [1999, 'Експерт'],
      [2000, 'Легенда'],
      [2750, 'Легенда'],
    ];
    expect(cases.map(([rating]) => t(rankTitleKey(rankOf(rating))))).toEqual(cases.map(([, title]) => title));
  });

  it('judge the rating as it is shown, rounded', () => {
    expect(displayRating(999.5)).toBe(1000);
    expect(rankOf(999.5)).toBe('intermediate');
    expect(rankOf(999.49)).toBe('novice');
    expect(rankOf(1199.6)).toBe('experienced');
  });
});

describe('leaderboard labels', () => {
  it('give medals to the first three places and numbers after', () => {
    expect([1, 2, 3, 4, 50].map(placeLabel)).toEqual(['🥇', '🥈', '🥉', '#4', '#50']);
  });

  it('show a winning streak with fire, a losing one with snow, none with a dash', () => {
    expect([3, 1, 0, -1, -4].map(streakLabel)).toEqual(['🔥 3', '🔥 1', '—', '❄️ 1', '❄️ 4']);
  });

  it('write the win rate with one decimal, the Ukrainian way', () => {
    expect(formatWinRate(66.6667)).toBe('66,7%');
    expect(formatWinRate(100)).toBe('100,0%');
    expect(formatWinRate(0)).toBe('0,0%');
  });

  it('read the tab and sort from the address, defaults for anything else', () => {
    expect(parseTab('teams')).toBe('teams');
    expect(parseTab('admins')).toBe('players');
    expect(parseTab(null)).toBe('players');
    expect(parseSort('winrate_desc')).toBe('winrate_desc');
    expect(parseSort('random')).toBe('rating_desc');
  });

  it('put game, tab and sort in the address, leaving out defaults', () => {
    expect(leaderboardHref({ game: 'g1', tab: 'players', sort: 'rating_desc' })).toBe('/leaderboards?game=g1');
    expect(leaderboardHref({ game: 'g1', tab: 'teams', sort: 'wins_desc' })).toBe('/leaderboards?game=g1&tab=teams&sort=wins_desc');
    expect(leaderboardHref({ tab: 'players', sort: 'rating_desc' })).toBe('/leaderboards');
  });
});
