import { afterEach, describe, expect, it } from 'vitest';
import { setLocaleResolver } from '../../src/lib/i18n/index.ts';
import {
  drawsStages,
  eliminationTree,
  groupTitle,
  gslBlocks,
  matchCard,
  namesOf,
  placementRows,
  recordText,
  resultGrid,
  signed,
  stagesProgress,
  swissRounds,
  tableOrder,
  thresholdsLine,
} from '../../src/components/stages/view.ts';
import type { ResultInput } from '../../src/lib/domain/stage/result.ts';
import { favouriteWins, players, stageFixture, type Decide } from '../support/stage-fixtures.ts';

afterEach(() => setLocaleResolver(() => 'uk'));

/** A decide rule from results keyed by the unordered pair: [winner or null for a draw, winner's score, loser's score]. */
function byPair(results: Record<string, [string | null, number, number] | undefined>): Decide {
  return ({ a, b }) => {
    const found = results[[a, b].sort().join('-')];
    if (!found) return null;
    const [winner, high, low] = found;
    const input: ResultInput = winner === b ? { scoreA: low, scoreB: high } : { scoreA: high, scoreB: low };
    return input;
  };
}

const eight = players(8);
const names = namesOf(eight);

describe('eliminationTree: double elimination', () => {
  // 8 in order: the favourite always wins. Winners: p1 p3 p5 p7, then p1 p5, then p1. Losers: p2 p6;
  // then p2 beats p7 (dropped in reverse) and p3 beats p6; p2 beats p3; p2 beats p5; the grand final p1 over p2.
  const stage = stageFixture('double_elimination', eight, {
    settings: { grandFinal: 'double' },
  });
  const tree = eliminationTree(stage, names);

  it("draws the winners' bracket, the losers' bracket and the grand final, in that order", () => {
    expect(tree.map((s) => [s.side, s.title])).toEqual([
      ['winners', 'Сітка переможців'],
      ['losers', 'Нижня сітка'],
      ['grand_final', 'Гранд-фінал'],
    ]);
  });

  it("names the winners' rounds from the final back and the losers' rounds by number", () => {
    expect(tree[0]!.rounds.map((r) => [r.title, r.matches.length])).toEqual([
      ['Чвертьфінал', 4],
      ['Півфінал', 2],
      ['Фінал', 1],
    ]);
    expect(tree[1]!.rounds.map((r) => [r.title, r.matches.length])).toEqual([
      ['Нижня сітка, раунд 1', 2],
      ['Нижня сітка, раунд 2', 2],
      ['Нижня сітка, раунд 3', 1],
      ['Нижня сітка, раунд 4', 1],
    ]);
  });

  it('joins pairs into a halving round and goes straight on into a round as big', () => {
    expect(tree[0]!.rounds.map((r) => r.matches.map((m) => m.link))).toEqual([['down', 'up', 'down', 'up'], ['down', 'up'], [null]]);
    expect(tree[1]!.rounds.map((r) => r.matches.map((m) => m.link))).toEqual([['straight', 'straight'], ['down', 'up'], ['straight'], [null]]);
    expect(tree[1]!.rounds.map((r) => r.matches.every((m) => m.incoming))).toEqual([false, true, true, true]);
  });

  it("shows who met whom in the losers' bracket, with the scores and the winner", () => {
    const sides = tree[1]!.rounds.map((r) => r.matches.map((m) => m.sides.map((s) => `${s.name}${s.result === 'winner' ? '*' : ''} ${s.score}`).join(' v ')));
    expect(sides).toEqual([['P2* 2 v P4 1', 'P6* 2 v P8 1'], ['P2* 2 v P7 1', 'P6 1 v P3* 2'], ['P2* 2 v P3 1'], ['P2* 2 v P5 1']]);
  });

  it("leaves out the grand final's reset when the winners' champion took the first final", () => {
    expect(stage.matches.filter((m) => m.side === 'grand_final')).toHaveLength(2);
    expect(tree[2]!.rounds.map((r) => r.title)).toEqual(['Гранд-фінал']);
    expect(tree[2]!.rounds[0]!.matches[0]!.link).toBeNull();
  });

  it("draws the reset once the losers' champion has won the first final", () => {
    const upset: Decide = (match) => (match.plan.side === 'grand_final' && match.plan.round === 1 ? { scoreA: 0, scoreB: 1 } : favouriteWins(match));
    const reset = eliminationTree(stageFixture('double_elimination', eight, { decide: upset }), names).find((s) => s.side === 'grand_final')!;
    expect(reset.rounds.map((r) => r.title)).toEqual(['Гранд-фінал', 'Фінал-перегравання']);
    expect(reset.rounds.map((r) => r.matches[0]!.link)).toEqual(['straight', null]);
    const [a, b] = reset.rounds[1]!.matches[0]!.sides;
    expect([a.name, a.result, b.name, b.result]).toEqual(['P1', 'winner', 'P2', 'loser']);
  });

  it('labels each card with its round and its number across the stage (M1…Mn) for screen readers', () => {
    // The winners' first round is M1–M4, its semi-finals M5 and M6.
    expect(tree[0]!.rounds[1]!.matches.map((m) => m.label)).toEqual(['Півфінал, M5', 'Півфінал, M6']);
    expect(tree[0]!.rounds[1]!.matches.map((m) => m.number)).toEqual([5, 6]);
  });

  it("places 1, 2, then one each for the last two losers' rounds and bands of two", () => {
    expect(placementRows(stage.placements, names).map((r) => [r.place, r.name])).toEqual([
      ['1', 'P1'],
      ['2', 'P2'],
      ['3', 'P5'],
      ['4', 'P3'],
      ['5–6', expect.stringMatching(/^P[67]$/)],
      ['5–6', expect.stringMatching(/^P[67]$/)],
      ['7–8', expect.stringMatching(/^P[48]$/)],
      ['7–8', expect.stringMatching(/^P[48]$/)],
    ]);
  });
});

describe('eliminationTree: single elimination', () => {
  it('adds the third-place match as its own section', () => {
    const four = players(4);
    const tree = eliminationTree(
      stageFixture('single_elimination', four, {
        settings: { thirdPlace: true },
      }),
      namesOf(four),
    );
    expect(tree.map((s) => s.title)).toEqual(['Сітка переможців', 'Матч за третє місце']);
    expect(tree[0]!.rounds.map((r) => r.title)).toEqual(['Півфінал', 'Фінал']);
    // Semifinals p1 v p2 and p3 v p4: the losers p2 and p4 meet for third.
    const third = tree[1]!.rounds[0]!.matches[0]!;
    expect(third.sides.map((s) => [s.name, s.result])).toEqual([
      ['P2', 'winner'],
      ['P4', 'loser'],
    ]);
  });

  it('calls an empty slot a bye in a bye, and names the match whose winner a waiting match waits for', () => {
    const three = players(3);
    // In order, 3 of 4 slots: p1 v p2, then p3 alone (a bye); nothing played yet.
    const tree = eliminationTree(stageFixture('single_elimination', three, { decide: () => null }), namesOf(three));
    const [first, bye] = tree[0]!.rounds[0]!.matches;
    expect(first!.status).toBe('ready');
    expect(bye!.bye).toBe(true);
    expect(bye!.sides.map((s) => s.name)).toEqual(['P3', 'Автоматичний прохід']);
    expect(bye!.sides.map((s) => s.score)).toEqual([null, null]);
    const final = tree[0]!.rounds[1]!.matches[0]!;
    expect(final.status).toBe('waiting');
    expect(final.sides.map((s) => s.name)).toEqual(['Переможець M1', 'P3']);
  });

  it("names the losers a double elimination's losers' bracket waits for, in both languages", () => {
    const eight = players(8);
    const tree = eliminationTree(stageFixture('double_elimination', eight, { decide: () => null }), namesOf(eight));
    const losers = tree.find((s) => s.side === 'losers')!;
    expect(losers.rounds[0]!.matches[0]!.sides.map((s) => s.name)).toEqual(['Переможений у M1', 'Переможений у M2']);
    setLocaleResolver(() => 'en');
    const english = eliminationTree(stageFixture('double_elimination', eight, { decide: () => null }), namesOf(eight));
    expect(english.find((s) => s.side === 'losers')!.rounds[0]!.matches[0]!.sides.map((s) => s.name)).toEqual(['Loser of M1', 'Loser of M2']);
    expect(english[0]!.rounds[1]!.matches[0]!.sides.map((s) => s.name)).toEqual(['Winner of M1', 'Winner of M2']);
  });
});

describe('matchCard', () => {
  it('names a participant missing from the list, shows per-game scores and who forfeited', () => {
    const base = stageFixture('single_elimination', players(2)).matches[0]!;
    const card = matchCard(
      {
        ...base,
        a: 'p1',
        b: 'gone',
        winner: 'p1',
        forfeit: 'b',
        games: [
          { a: 16, b: 10 },
          { a: 9, b: 16 },
        ],
        scoreA: 1,
        scoreB: 1,
      },
      'Фінал',
      namesOf(players(1)),
    );
    expect(card.sides.map((s) => s.name)).toEqual(['P1', 'Невідомий учасник']);
    expect(card.forfeit).toBe('Невідомий учасник');
    expect(card.games).toBe('16:10, 9:16');
  });
});

describe('round robin: table order and the result grid', () => {
  const four = players(4);
  // p2 beats p1 3:0, p1 draws p3 1:1, p1 beats p4, p3 beats p2 2:0, p2 beats p4; p3 v p4 not played.
  // Points: p2 6, p1 4, p3 4, p4 0; p1 and p3 drew, so the score difference decides: p3 +2, p1 −2.
  const stage = stageFixture('round_robin', four, {
    decide: byPair({
      'p1-p2': ['p2', 3, 0],
      'p1-p3': [null, 1, 1],
      'p1-p4': ['p1', 2, 1],
      'p2-p3': ['p3', 2, 0],
      'p2-p4': ['p2', 2, 1],
    }),
  });
  const group = stage.groups[0]!;
  const order = tableOrder(group);
  const grid = resultGrid(order, stage.matches, namesOf(four));

  it('orders rows by the table', () => {
    expect(order).toEqual(['p2', 'p3', 'p1', 'p4']);
    expect(grid.map((r) => r.name)).toEqual(['P2', 'P3', 'P1', 'P4']);
  });

  it("leaves the diagonal blank and shows each score from the row's side", () => {
    const cell = (row: number, col: number) => {
      const c = grid[row]!.cells[col]!;
      return c.kind === 'self' ? 'self' : c.meetings.map((m) => (m.outcome ? `${m.scoreFor}:${m.scoreAgainst} ${m.outcome}` : 'pending')).join('|');
    };
    expect(grid.map((_, r) => grid.map((__, c) => cell(r, c)))).toEqual([
      ['self', '0:2 loss', '3:0 win', '2:1 win'],
      ['2:0 win', 'self', '1:1 draw', 'pending'],
      ['0:3 loss', '1:1 draw', 'self', '2:1 win'],
      ['1:2 loss', 'pending', '1:2 loss', 'self'],
    ]);
  });

  it('lists both meetings of a double round robin in one cell', () => {
    const two = players(2);
    const double = stageFixture('round_robin', two, {
      settings: { doubleRound: true },
    });
    const cell = resultGrid(['p1', 'p2'], double.matches, namesOf(two))[0]!.cells[1]!;
    expect(cell.kind === 'meetings' && cell.meetings.map((m) => m.outcome)).toEqual(['win', 'win']);
  });

  it('names groups by letter', () => {
    expect([1, 2, 3].map(groupTitle)).toEqual(['Група A', 'Група B', 'Група C']);
  });
});

describe('swissRounds', () => {
  it('lists every round with its pairings and the bye of an odd field', () => {
    const five = players(5);
    const stage = stageFixture('swiss', five, { swissRounds: 3 });
    const rounds = swissRounds(stage.matches, namesOf(five));
    expect(rounds.map((r) => r.title)).toEqual(['Тур 1', 'Тур 2', 'Тур 3']);
    for (const round of rounds) {
      // Two pairings and a bye each round; everyone appears exactly once.
      expect(round.matches.filter((m) => m.bye)).toHaveLength(1);
      const ids = round.matches.flatMap((m) => m.sides.map((s) => s.id)).filter((id) => id !== null);
      expect(new Set(ids).size).toBe(5);
    }
    const bye = rounds[0]!.matches.find((m) => m.bye)!;
    expect(bye.sides.map((s) => s.name)).toContain('Автоматичний прохід');
  });
});

describe('page helpers', () => {
  it('counts played matches without byes', () => {
    const three = players(3);
    // Three players: one bye (completed at once) and two matches to play.
    expect(stagesProgress([stageFixture('single_elimination', three, { decide: () => null })])).toEqual({ completed: 1, total: 3, percent: 33 });
    // Double elimination of 8: 7 + 6 + 2 matches, the reset not needed and so completed.
    expect(stagesProgress([stageFixture('double_elimination', eight)])).toEqual({ completed: 15, total: 15, percent: 100 });
  });

  it('counts a free-for-all stage’s games, of the lobbies made and those its later rounds will make (issue 59)', () => {
    const lobby = (round: number, games: number) => ({
      _id: `l${round}`,
      round,
      number: 1,
      members: [],
      games: Array.from({ length: games }, (_, i) => ({ number: i + 1, lines: [] })),
      table: [],
      complete: false,
      scheduledAt: null,
      version: 0,
    });
    const ffa = (lobbies: ReturnType<typeof lobby>[]) => ({
      format: 'free_for_all' as const,
      settings: { lobbySize: 4, games: 2, advance: 2 },
      seeds: players(8).map((p) => p._id),
      matches: [],
      groups: [],
      disqualified: [],
      complete: false,
      lobbies,
    });
    // Eight in lobbies of four: two lobbies, then the final — three lobbies of two games.
    expect(stagesProgress([ffa([lobby(1, 2), lobby(1, 1)])])).toEqual({ completed: 3, total: 6, percent: 50 });
    expect(stagesProgress([ffa([])])).toEqual({ completed: 0, total: 6, percent: 0 });
  });

  it('counts a Swiss stage’s rounds not paired yet, so one round played is not 100 %', () => {
    const eight = players(8);
    // Three rounds of four matches; the first paired and played, the next two not paired yet.
    const firstRound = stageFixture('swiss', eight, { decide: ({ plan }) => (plan.round === 1 ? { scoreA: 1, scoreB: 0 } : null) });
    expect(stagesProgress([firstRound])).toEqual({ completed: 4, total: 12, percent: 33 });
    const onlyPaired = stageFixture('swiss', eight, { decide: () => null });
    expect(stagesProgress([onlyPaired])).toEqual({ completed: 0, total: 12, percent: 0 });
    // Seven play four a round, the bye one of them.
    expect(stagesProgress([stageFixture('swiss', players(7), { decide: () => null })])).toMatchObject({ total: 12 });
  });

  it('counts a Swiss stage with thresholds by the matches its undecided can still play, never done before it is over (issue 59)', () => {
    const settings = { winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3 };
    const sixteen = players(16);
    // 16 at 3 wins or 3 losses: 8 + 8 + 8 + 6 + 3 matches over five rounds, as at a Major.
    const rounds = [1, 2, 3, 4, 5].map((n) => stageFixture('swiss', sixteen, { settings, swissRounds: n }));
    expect(rounds.map((stage) => stage.complete)).toEqual([false, false, false, false, true]);
    const progress = rounds.map((stage) => stagesProgress([stage]));
    // Before a round is paired, each of the undecided can play at most until its last win or loss.
    expect(progress[0]).toEqual({ completed: 8, total: 40, percent: 20 });
    expect(progress[3]).toEqual({ completed: 30, total: 33, percent: 91 });
    expect(progress[4]).toEqual({ completed: 33, total: 33, percent: 100 });
    for (const [n, p] of progress.slice(0, 4).entries()) expect(p.completed, `round ${n + 1}`).toBeLessThan(p.total);
    // The last round paired and not yet played counts once, not again as a round to come.
    const lastPaired = stageFixture('swiss', sixteen, {
      settings,
      swissRounds: 5,
      decide: (match) => (match.plan.round < 5 ? { scoreA: 2, scoreB: 1 } : null),
    });
    expect(stagesProgress([lastPaired])).toEqual({ completed: 30, total: 33, percent: 91 });
    // The disqualified are paired no more: they are not counted as still to play.
    const out = { ...rounds[3]!, disqualified: rounds[3]!.groups[0]!.standings.filter((r) => !r.outcome).map((r) => r.participant) };
    expect(stagesProgress([out])).toEqual({ completed: 30, total: 30, percent: 100 });
  });

  it('never rounds a stage still under way up to 100 %', () => {
    const many = { ...stageFixture('round_robin', players(21)), complete: false };
    const unplayed = many.matches.findIndex((m) => m.status === 'completed');
    many.matches = many.matches.map((m, i) => (i === unplayed ? { ...m, status: 'ready' as const } : m));
    const progress = stagesProgress([many]);
    expect(progress.completed).toBe(progress.total - 1);
    expect(progress.percent).toBe(99);
  });

  it('draws stages for anything but one lone single-elimination stage', () => {
    const single = stageFixture('single_elimination', players(4));
    const double = stageFixture('double_elimination', players(4));
    const table = stageFixture('round_robin', players(4));
    expect(drawsStages(null)).toBe(false);
    expect(drawsStages({ stages: [] })).toBe(false);
    expect(drawsStages({ stages: [single] })).toBe(false);
    expect(drawsStages({ stages: [double] })).toBe(true);
    expect(drawsStages({ stages: [table, single] })).toBe(true);
  });

  it('signs score differences with a real minus', () => {
    expect([3, 0, -2].map(signed)).toEqual(['+3', '0', '−2']);
  });
});

describe('GSL groups and a Swiss with thresholds (issue 59)', () => {
  it('puts a GSL group’s five matches under their names, the opening matches together', () => {
    const stage = stageFixture('gsl', eight);
    const blocks = gslBlocks(stage.matches.filter((m) => m.group === 2));
    expect(blocks.map((b) => [b.key, b.title, b.matches.map((m) => m.number)])).toEqual([
      ['opening', 'Стартові матчі', [6, 7]],
      ['winners', 'Матч переможців', [8]],
      ['elimination', 'Матч на виліт', [9]],
      ['decider', 'Вирішальний матч', [10]],
    ]);
    // Group B is seeds 2, 3, 6, 7: seed 1 of the group meets seed 4, seed 2 meets seed 3.
    expect(blocks[0]!.matches.map((m) => [m.a, m.b])).toEqual([
      ['p2', 'p7'],
      ['p3', 'p6'],
    ]);
    setLocaleResolver(() => 'en');
    expect(gslBlocks(stage.matches).map((b) => b.title)).toEqual(['Opening matches', 'Winners’ match', 'Elimination match', 'Decider']);
  });

  it('says the thresholds in words with the right plural, and the deciding best-of only when it differs', () => {
    expect(thresholdsLine({ winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3 })).toBe('До 3 перемог — далі, 3 поразки — виліт; вирішальні матчі Bo3');
    expect(thresholdsLine({ winsToAdvance: 1, lossesToEliminate: 5 })).toBe('До 1 перемоги — далі, 5 поразок — виліт');
    expect(thresholdsLine({ winsToAdvance: 2, lossesToEliminate: 1, decidingBestOf: 3, bestOf: 3 })).toBe('До 2 перемог — далі, 1 поразка — виліт');
    expect(thresholdsLine({ rounds: 5 })).toBeNull();
    setLocaleResolver(() => 'en');
    expect(thresholdsLine({ winsToAdvance: 3, lossesToEliminate: 1, decidingBestOf: 5 })).toBe(
      '3 wins to advance, 1 loss to be eliminated; deciding matches Bo5',
    );
  });

  it('writes a record with an en dash', () => {
    expect(recordText({ wins: 3, losses: 1 })).toBe('3–1');
  });
});
