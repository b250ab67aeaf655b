import { describe, expect, it } from 'vitest';
import { lobbyGameBody, lobbyGameRows, nextGame } from '../../src/islands/stages/lobby-game.ts';

describe('the organisers’ form for a free-for-all game (issue 59)', () => {
  const lobby = { members: ['a', 'b', 'c'], games: [] as { number: number; lines: [] }[] };

  it('starts from each member in seed order, placed as listed with no kills, or from lines given', () => {
    expect(lobbyGameRows(lobby)).toEqual([
      { participant: 'a', placement: '1', kills: '0' },
      { participant: 'b', placement: '2', kills: '0' },
      { participant: 'c', placement: '3', kills: '0' },
    ]);
    const proposed = [
      { participant: 'c', placement: 1, kills: 4 },
      { participant: 'a', placement: 2, kills: 0 },
      { participant: 'b', placement: 3, kills: 2 },
    ];
    expect(lobbyGameRows(lobby, proposed).map((r) => [r.participant, r.placement, r.kills])).toEqual([
      ['a', '2', '0'],
      ['b', '3', '2'],
      ['c', '1', '4'],
    ]);
  });

  it('offers the first game not entered yet, else the last', () => {
    expect(nextGame({ games: [] }, 3)).toBe(1);
    expect(
      nextGame(
        {
          games: [
            { number: 1, lines: [] },
            { number: 3, lines: [] },
          ],
        },
        3,
      ),
    ).toBe(2);
    expect(nextGame({ games: [1, 2, 3].map((number) => ({ number, lines: [] })) }, 3)).toBe(3);
  });

  it('sends whole placements 1…n each once and kills 0–99 (empty is 0), and says what is wrong otherwise', () => {
    expect(lobbyGameBody(lobbyGameRows(lobby).map((r) => ({ ...r, kills: r.participant === 'b' ? '' : '3' })))).toEqual({
      ok: true,
      lines: [
        { participant: 'a', placement: 1, kills: 3 },
        { participant: 'b', placement: 2, kills: 0 },
        { participant: 'c', placement: 3, kills: 3 },
      ],
    });
    const twiceFirst = lobbyGameRows(lobby).map((r) => ({ ...r, placement: '1' }));
    expect(lobbyGameBody(twiceFirst)).toEqual({ ok: false, message: 'Місця мають бути від 1 до кількості учасників лобі, кожне рівно раз' });
    for (const kills of ['-1', '2.5', '100', 'багато']) {
      expect(lobbyGameBody(lobbyGameRows(lobby).map((r) => ({ ...r, kills })))).toEqual({ ok: false, message: 'Вбивства — ціле число від 0 до 99' });
    }
  });
});
