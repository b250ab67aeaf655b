import { describe, expect, it } from 'vitest';
import { detailsTable } from '../../src/lib/domain/match-details.ts';
import { translateStatLabel } from '../../src/lib/i18n/stat-texts.ts';
import { matchDetails } from '../../src/server/services/statistics/tournament-stats.ts';

describe("a match's details as a table", () => {
  it('reads back what the server wrote: a row a stat, a column a side, in the sides’ order', () => {
    const fields = [
      { fieldName: 'kills', displayName: 'Вбивства' },
      { fieldName: 'deaths', displayName: 'Смерті' },
    ];
    const data = matchDetails(fields, [{ name: 'Mavka_Mid' }, { name: 'Kozak' }], [{ kills: 21, deaths: 17 }, { kills: 17 }]);
    expect(detailsTable(data, ['Kozak', 'Mavka_Mid'])).toEqual({
      rows: [
        { label: 'Вбивства', values: [17, 21] },
        { label: 'Смерті', values: [null, 17] },
      ],
      other: [],
    });
  });

  it('splits a key at the side’s own name, whatever « · » the stat or the team holds, the longest name first', () => {
    const data = { 'Шкода · героям · Big Team': 5, 'Шкода · героям · Team': 3, 'Час · 12': 7 };
    expect(detailsTable(data, ['Team', 'Big Team'])).toEqual({
      rows: [{ label: 'Шкода · героям', values: [3, 5] }],
      other: [['Час · 12', 7]],
    });
  });
});

describe('a stat’s name on its own', () => {
  it('reads in English when it is a template’s stock name, and stays as typed otherwise', () => {
    expect(translateStatLabel('Смерті', 'en')).toBe('Deaths');
    expect(translateStatLabel('Постріли в голову', 'en')).toBe('Headshots');
    expect(translateStatLabel('Смерті', 'uk')).toBe('Смерті');
    expect(translateStatLabel('Моя власна метрика', 'en')).toBe('Моя власна метрика');
  });
});

describe('the match history’s details', () => {
  it('show the stats as a table in the reader’s language, numbers formatted, each side a column', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { createElement } = await import('react');
    const { default: MatchHistory } = await import('../../src/components/MatchHistory.tsx');
    const { defaultLocale, setLocaleResolver } = await import('../../src/lib/i18n/index.ts');
    const item = {
      _id: 'm1',
      participants: [
        { id: 'u1', type: 'user' as const, name: 'Mavka_Mid', score: 2, isWinner: true, placement: null },
        { id: 'u2', type: 'user' as const, name: 'Kozak', score: 1, isWinner: false, placement: null },
      ],
      result: { isDraw: false },
      gameId: { _id: 'g', name: 'Dota 2' },
      tournamentId: null,
      completedAt: '2026-12-01T18:00:00Z',
      createdAt: '2026-12-01T17:00:00Z',
      matchDetails: { duration: null, gameSpecificData: { 'Смерті · Mavka_Mid': 17571, 'Смерті · Kozak': 3, 'Моя метрика · Kozak': 12 } },
      status: 'completed' as const,
    };
    setLocaleResolver(() => 'en');
    try {
      const html = renderToStaticMarkup(createElement(MatchHistory, { kind: 'player', id: 'u2', initial: [item] }));
      // Kozak's own column first; the stock name in English, the admin's own as typed.
      expect(html).toMatch(/<th[^>]*><span[^>]*>Kozak<\/span><\/th><th[^>]*><span[^>]*>Mavka_Mid<\/span><\/th>/);
      expect(html).toMatch(/<th scope="row"[^>]*>Deaths<\/th><td[^>]*>3<\/td><td[^>]*>17,571<\/td>/);
      expect(html).toMatch(/<th scope="row"[^>]*>Моя метрика<\/th><td[^>]*>12<\/td><td[^>]*>—<\/td>/);
      expect(html).not.toContain('Смерті');
    } finally {
      setLocaleResolver(() => defaultLocale);
    }
  });
});
