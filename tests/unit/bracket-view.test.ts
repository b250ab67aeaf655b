import { describe, expect, it } from 'vitest';
import { bracketView, clearedResults, hasPlayedResults, roundTitle } from '../../src/components/bracket/view.ts';
import { pictureSrc } from '../../src/lib/domain/address.ts';
import { createBracket, setResult } from '../../src/lib/domain/bracket.ts';

const people = (n: number) => Array.from({ length: n }, (_, i) => ({ _id: `p${i + 1}`, name: `Гравець ${i + 1}`, image: `/api/avatar/p${i + 1}`, type: 'user' as const }));

describe('round titles', () => {
  it('names the last three rounds and numbers the earlier ones', () => {
    expect([0, 1, 2, 3, 4].map((r) => roundTitle(r, 5))).toEqual(['Раунд 1', 'Раунд 2', 'Чвертьфінал', 'Півфінал', 'Фінал']);
    expect(roundTitle(0, 1)).toBe('Фінал');
    expect([0, 1].map((r) => roundTitle(r, 2))).toEqual(['Півфінал', 'Фінал']);
  });
});

describe('the bracket as drawn', () => {
  it('marks a bye as «Автоматичний прохід», done and not editable, and unknown later sides as not yet known', () => {
    const rounds = bracketView(createBracket(['p1', 'p2', 'p3']), people(3));
    expect(rounds.map((r) => r.title)).toEqual(['Півфінал', 'Фінал']);
    const [pair, bye] = rounds[0]!.matches;
    expect(pair).toMatchObject({ state: 'ready', bye: false, editable: true, label: 'Півфінал, матч 1', link: 'down' });
    expect(pair!.sides.map((s) => s.name)).toEqual(['Гравець 1', 'Гравець 2']);
    expect(bye).toMatchObject({ state: 'completed', bye: true, editable: false, link: 'up' });
    expect(bye!.sides.map((s) => [s.name, s.result])).toEqual([
      ['Гравець 3', 'winner'],
      ['Автоматичний прохід', null],
    ]);
    const final = rounds[1]!.matches[0]!;
    expect(final).toMatchObject({ state: 'waiting', editable: false, link: null, number: 1 });
    expect(final.sides.map((s) => s.name)).toEqual(['Ще невідомо', 'Гравець 3']);
  });

  it('crowns the winner, dims the loser and lets a decided match be edited', () => {
    const bracket = setResult(createBracket(['p1', 'p2', 'p3', 'p4']), 0, 1, 'p4', 'BO3 2:1');
    const match = bracketView(bracket, people(4))[0]!.matches[1]!;
    expect(match).toMatchObject({ state: 'completed', editable: true, comment: 'BO3 2:1' });
    expect(match.sides.map((s) => s.result)).toEqual(['loser', 'winner']);
    expect(match.sides[1]).toMatchObject({ id: 'p4', initial: 'Г4', image: '/api/avatar/p4', href: '/players/p4' });
  });

  it('names a participant who left «Невідомий учасник» and never puts an unsafe address into a picture', () => {
    const list = [
      { _id: 'p1', name: 'Ліс', image: 'javascript:alert(1)', type: 'team' as const },
      { _id: 'p2', name: 'Степ', image: 'https://cdn.example/logo.png', type: 'team' as const },
    ];
    const [match] = bracketView(createBracket(['p1', 'p2', 'p3', 'p4']), list)[0]!.matches;
    expect(match!.sides.map((s) => [s.name, s.image])).toEqual([
      ['Ліс', null],
      ['Степ', 'https://cdn.example/logo.png'],
    ]);
    const left = bracketView(createBracket(['p1', 'p2', 'p3', 'p4']), list)[0]!.matches[1]!.sides[0]!;
    expect(left.name).toBe('Невідомий учасник');
    // A team's name links to the team's profile; one who left links nowhere (issue 23).
    expect([match!.sides[0]!.href, left.href]).toEqual(['/teams/p1', null]);
    expect([pictureSrc('//evil.example/x.png'), pictureSrc(''), pictureSrc(null), pictureSrc('/logos/a.png')]).toEqual([null, null, null, '/logos/a.png']);
  });
});

describe('results cleared by a correction', () => {
  it('lists every later result built on the match, with its winner', () => {
    let bracket = createBracket(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8']);
    bracket = setResult(bracket, 0, 0, 'p1');
    bracket = setResult(bracket, 0, 1, 'p3');
    bracket = setResult(bracket, 1, 0, 'p3');
    expect(clearedResults(bracket, people(8), 0, 0)).toEqual(['Півфінал, матч 1 — переміг Гравець 3']);
    expect(clearedResults(bracket, people(8), 0, 2)).toEqual([]);
    bracket = setResult(bracket, 0, 2, 'p5');
    bracket = setResult(bracket, 0, 3, 'p8');
    bracket = setResult(bracket, 1, 1, 'p8');
    bracket = setResult(bracket, 2, 0, 'p8');
    expect(clearedResults(bracket, people(8), 0, 3)).toEqual(['Півфінал, матч 2 — переміг Гравець 8', 'Фінал, матч 1 — переміг Гравець 8']);
  });

  it('tells played results from byes, which a new draw may discard without asking', () => {
    const bracket = createBracket(['p1', 'p2', 'p3']);
    expect(hasPlayedResults([])).toBe(false);
    expect(hasPlayedResults(bracket)).toBe(false);
    expect(hasPlayedResults(setResult(bracket, 0, 0, 'p2'))).toBe(true);
  });
});
