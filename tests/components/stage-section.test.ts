import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import StageSection from '../../src/components/stages/StageSection.astro';
import { namesOf } from '../../src/components/stages/view.ts';
import type { StageView } from '../../src/lib/api/stages.ts';
import { setLocaleResolver } from '../../src/lib/i18n/index.ts';
import type { ResultInput } from '../../src/lib/domain/stage/result.ts';
import { favouriteWins, players, stageFixture, type Decide } from '../support/stage-fixtures.ts';

/**
 * The bracket page's stage components rendered as the server renders them (Astro's Container
 * API): each format's sections in order, tables in rank order, scores, both languages, no script.
 */
let container: AstroContainer;
beforeAll(async () => {
  container = await AstroContainer.create({
    renderers: await loadRenderers([getContainerRenderer()]),
  });
});
afterEach(() => setLocaleResolver(() => 'uk'));

const eight = players(8);
async function render(stage: StageView, participants = eight, last = true): Promise<string> {
  const html = await container.renderToString(StageSection, {
    props: { stage, names: namesOf(participants), last },
  });
  // The dev build's source annotations are noise for these assertions.
  return html.replace(/ data-astro-source-(file|loc)="[^"]*"/g, '');
}
/** Every value of `attribute` in document order. */
const values = (html: string, attribute: string) => [...html.matchAll(new RegExp(`${attribute}="([^"]*)"`, 'g'))].map((m) => m[1]);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

function noScript(html: string) {
  expect(html).not.toMatch(/<script|astro-island|client:|\son[a-z]+=/i);
}

describe('double elimination', () => {
  const upset: Decide = (match) => (match.plan.side === 'grand_final' && match.plan.round === 1 ? { scoreA: 0, scoreB: 1 } : favouriteWins(match));

  it('draws the two brackets and the grand final with its reset, each a tree in its own scrolling box', async () => {
    const html = await render(
      stageFixture('double_elimination', eight, {
        decide: upset,
        name: 'Плей-оф',
      }),
    );
    noScript(html);
    expect(html).toContain('<h2 id="stage-1"');
    expect(text(html)).toContain('Плей-оф Подвійне вибування Етап завершено');
    expect(values(html, 'data-side')).toEqual(['winners', 'losers', 'grand_final']);
    const headings = [...html.matchAll(/<h4[^>]*>([^<]*)<\/h4>/g)].map((m) => m[1]);
    expect(headings).toEqual([
      'Чвертьфінал',
      'Півфінал',
      'Фінал',
      'Нижня сітка, раунд 1',
      'Нижня сітка, раунд 2',
      'Нижня сітка, раунд 3',
      'Нижня сітка, раунд 4',
      'Гранд-фінал',
      'Фінал-перегравання',
    ]);
    // One scrolling region per side, labelled by the side's name.
    expect(values(html, 'aria-label').filter((l) => l!.endsWith('раунди зліва направо'))).toHaveLength(3);
    expect((html.match(/overflow-x-auto/g) ?? []).length).toBe(3);
    // 7 + 6 + 2 match cards; the first final's loser P1 won the reset: both P1 and P2 crowned once in the grand final.
    expect((html.match(/<article /g) ?? []).length).toBe(15);
    const finals = html.slice(html.indexOf('data-side="grand_final"'));
    expect((finals.match(/aria-label="переможець"/g) ?? []).length).toBe(2);
    // The places: P1 first after the reset, P2 second.
    expect(values(html, 'data-place').slice(0, 4)).toEqual(['1', '2', '3', '4']);
    expect(text(html.slice(html.indexOf('data-placements')))).toMatch(/1 місце 1 P1 .*2 місце 2 P2/);
  });

  it('numbers its matches M1…Mn, names the matches empty slots wait for, and calls its places the stage’s when a stage follows', async () => {
    const waiting = await render(stageFixture('double_elimination', eight, { decide: () => null }));
    // M1–M14 drawn; the reset (M15) only once it is to be played.
    expect(values(waiting, 'aria-label').filter((l) => /, M\d+$/.test(l!))).toEqual(Array.from({ length: 14 }, (_, i) => expect.stringMatching(new RegExp(`, M${i + 1}$`))));
    expect(text(waiting)).toContain('Переможець M1');
    expect(text(waiting)).toContain('Переможений у M1');
    const followed = await render(stageFixture('double_elimination', eight), eight, false);
    expect(text(followed)).toContain('Місця в цьому етапі (не підсумкові)');
    expect(text(followed)).not.toContain('Підсумкові місця');
  });

  it('is in English for an English reader', async () => {
    setLocaleResolver(() => 'en');
    const html = await render(stageFixture('double_elimination', eight));
    const h3 = [...html.matchAll(/<h3[^>]*>([^<]*)<\/h3>/g)].map((m) => m[1]);
    expect(h3).toEqual(['Upper bracket', 'Lower bracket', 'Grand final', 'Final places']);
    expect(text(html)).toContain('Lower bracket, round 4');
    expect(text(html)).not.toMatch(/[а-яіїєґ]/i);
  });
});

describe('single elimination', () => {
  it('draws the third-place match after the tree, and byes by name', async () => {
    const five = players(5);
    const html = await render(
      stageFixture('single_elimination', five, {
        settings: { thirdPlace: true },
      }),
      five,
    );
    noScript(html);
    expect(values(html, 'data-side')).toEqual(['winners', 'third_place']);
    expect(text(html)).toContain('Автоматичний прохід');
  });
});

function byPair(results: Record<string, [string | null, number, number]>): Decide {
  return ({ a, b }) => {
    const found = results[[a, b].sort().join('-')];
    if (!found) return null;
    const [winner, high, low] = found;
    const input: ResultInput = winner === b ? { scoreA: low, scoreB: high } : { scoreA: high, scoreB: low };
    return input;
  };
}

describe('round robin', () => {
  const four = players(4, (i) => (i === 3 ? 'Дуже довга назва команди, що не вміщується' : `P${i}`));
  // p2 6 points; p1 and p3 4 each, p3 ahead on score difference (+2 against −2); p4 0. p3 v p4 not played.
  const decide = byPair({
    'p1-p2': ['p2', 3, 0],
    'p1-p3': [null, 1, 1],
    'p1-p4': ['p1', 2, 1],
    'p2-p3': ['p3', 2, 0],
    'p2-p4': ['p2', 2, 1],
  });

  it('shows the table in rank order and the cross table with the diagonal blank', async () => {
    const html = await render(stageFixture('round_robin', four, { decide }), four);
    noScript(html);
    const table = html.slice(html.indexOf('data-standings'), html.indexOf('data-result-grid'));
    expect(values(table, 'data-participant')).toEqual(['p2', 'p3', 'p1', 'p4']);
    // p3's row: 2 played, 1 win, 1 draw, 0 losses, +2, 4 points.
    const p3 = text(table.slice(table.indexOf('data-participant="p3"'), table.indexOf('data-participant="p1"')));
    expect(p3).toMatch(/2 Дуже довга назва команди, що не вміщується 2 1 1 0 \+2 4/);
    const grid = html.slice(html.indexOf('data-result-grid'));
    expect(values(grid, 'data-participant')).toEqual(['p2', 'p3', 'p1', 'p4']);
    expect((grid.match(/data-self/g) ?? []).length).toBe(4);
    // p2's row against p3, p1, p4 (table order): lost 0:2, won 3:0, won 2:1.
    const row = text(grid.slice(grid.indexOf('data-participant="p2"'), grid.indexOf('data-participant="p3"')));
    expect(row).toMatch(/0:2 .*3:0 .*2:1/);
    // A long name is cut with an ellipsis and kept whole in its title.
    expect(html).toMatch(/class="truncate" title="Дуже довга назва команди, що не вміщується"/);
    expect(text(grid)).toContain('Ще не зіграно');
    // Not finished: no places yet, and it says so.
    expect(text(html)).toContain('Етап триває');
    expect(html).not.toContain('data-placements');
  });

  it('gives each of several groups its own heading', async () => {
    const html = await render(stageFixture('round_robin', eight, { settings: { groups: 2 } }));
    expect(values(html, 'data-group')).toEqual(['1', '2']);
    expect(text(html)).toMatch(/Група A .*Група B/);
    expect((html.match(/data-standings/g) ?? []).length).toBe(2);
  });
});

describe('Swiss', () => {
  it('shows the table with Buchholz and every round with its pairings', async () => {
    const five = players(5);
    const stage = stageFixture('swiss', five, { swissRounds: 3 });
    const html = await render(stage, five);
    noScript(html);
    expect(html).toContain('title="Бухгольц"');
    expect(values(html, 'data-round')).toEqual(['1', '2', '3']);
    expect(text(html)).toMatch(/Тур 1 .*Тур 2 .*Тур 3/);
    expect((text(html).match(/Вільний тур/g) ?? []).length).toBe(3);
    const rows = values(html.slice(html.indexOf('data-standings')), 'data-participant');
    expect(rows).toEqual([...stage.groups[0]!.standings].sort((x, y) => x.rank - y.rank).map((r) => r.participant));
    // Finished with one group: its table gives the places, one each.
    expect(values(html, 'data-place')).toEqual(['1', '2', '3', '4', '5']);
  });
});

describe('Swiss with thresholds (issue 59)', () => {
  const sixteen = players(16);
  const settings = { winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3 };

  it('says the thresholds under the title, ranks by record and difficulty, and marks who advanced and who was eliminated in words', async () => {
    const stage = stageFixture('swiss', sixteen, { settings, name: 'Швейцарка' });
    const html = await render(stage, sixteen);
    noScript(html);
    expect(text(html)).toContain('Швейцарка Швейцарська система Етап завершено');
    expect(text(html.slice(html.indexOf('data-thresholds')))).toMatch(
      /^[^<]*До 3 перемог — далі, 3 поразки — виліт; вирішальні матчі Bo3 При однаковому рахунку/,
    );
    // Its table has no points to break ties on.
    expect(text(html)).not.toContain('При рівних очках');
    const table = html.slice(html.indexOf('data-standings'), html.indexOf('data-swiss-rounds'));
    expect(table).toContain('title="Перемоги–поразки"');
    expect(text(table)).toContain('Складність');
    expect(table).not.toContain('title="Очки"');
    const rows = [...table.matchAll(/<tr [^>]*data-participant="(p\d+)"(?: data-outcome="(\w+)")?/g)].map((m) => [m[1], m[2]]);
    expect(rows).toHaveLength(16);
    expect(rows.filter(([, outcome]) => outcome === 'advanced')).toHaveLength(8);
    expect(rows.filter(([, outcome]) => outcome === 'eliminated')).toHaveLength(8);
    // The first row: 3–0 with the difficulty signed; the advanced are above the eliminated.
    const first = stage.groups[0]!.standings.find((r) => r.rank === 1)!;
    const firstRow = text(table.slice(table.indexOf(`data-participant="${first.participant}"`)));
    expect(firstRow).toMatch(new RegExp(`^[^<]*1 P${first.participant.slice(1)} Пройшов далі 3–0 \\+${first.buchholz}`));
    expect(text(table)).toMatch(/Пройшов далі .*Вибув/);
    expect(text(table)).not.toMatch(/Вибув .*Пройшов далі/);
    // Five rounds; the deciding matches say their best-of, the others (the stage's Bo1) do not.
    expect(values(html, 'data-round')).toEqual(['1', '2', '3', '4', '5']);
    const rounds = html.slice(html.indexOf('data-swiss-rounds'));
    expect((text(rounds).match(/Bo3/g) ?? []).length).toBe(stage.matches.filter((m) => m.bestOf === 3).length);
    expect(text(rounds)).not.toContain('Bo1');
  });

  it('marks nobody while every record is short of both thresholds', async () => {
    const html = await render(stageFixture('swiss', sixteen, { settings, swissRounds: 2 }), sixteen);
    expect(text(html)).toContain('Етап триває');
    expect(html).not.toContain('data-outcome');
    expect(text(html)).toMatch(/2–0 .*1–1 .*0–2/);
  });

  it('is in English for an English reader', async () => {
    setLocaleResolver(() => 'en');
    const html = await render(stageFixture('swiss', sixteen, { settings }), sixteen);
    expect(text(html)).toContain('3 wins to advance, 3 losses to be eliminated; deciding matches Bo3');
    expect(text(html)).toMatch(/Advanced .*Eliminated/);
    expect(text(html)).toContain('Difficulty');
    expect(text(html)).not.toMatch(/[а-яіїєґ]/i);
  });
});

describe('GSL groups (issue 59)', () => {
  it('draws each group’s table of wins and losses and its five matches under their names', async () => {
    const html = await render(stageFixture('gsl', eight, { name: 'Групи' }));
    noScript(html);
    expect(values(html, 'data-group')).toEqual(['1', '2']);
    expect(text(html)).toMatch(/Група A .*Група B/);
    expect(text(html)).not.toContain('При рівних очках');
    for (const group of ['1', '2']) {
      const part = html.slice(html.indexOf(`data-group="${group}"`), group === '1' ? html.indexOf('data-group="2"') : html.indexOf('data-placements'));
      const table = part.slice(part.indexOf('data-standings'), part.indexOf('data-gsl-matches'));
      // Rank, participant, W, L: no points, draws or Buchholz.
      expect([...table.matchAll(/<abbr title="([^"]+)"/g)].map((m) => m[1])).toEqual(['Місце', 'Перемоги', 'Поразки']);
      expect(values(part, 'data-gsl')).toEqual(['opening', 'winners', 'elimination', 'decider']);
      expect([...part.matchAll(/<h4[^>]*>([^<]*)<\/h4>/g)].map((m) => m[1]!.trim())).toEqual([
        'Турнірна таблиця',
        'Стартові матчі',
        'Матч переможців',
        'Матч на виліт',
        'Вирішальний матч',
      ]);
      expect((part.match(/<article /g) ?? []).length).toBe(5);
    }
    // Group A (seeds 1, 4, 5, 8), the favourite winning: P1 first 2–0, P4 second 2–1, P5 third 1–2, P8 fourth 0–2.
    const tableA = html.slice(html.indexOf('data-standings'), html.indexOf('data-gsl-matches'));
    expect(values(tableA, 'data-participant')).toEqual(['p1', 'p4', 'p5', 'p8']);
    expect(text(tableA)).toMatch(/1 P1 2 0 2 P4 2 1 3 P5 1 2 4 P8 0 2/);
    expect(values(html, 'aria-label').filter((l) => l!.startsWith('Вирішальний матч'))).toEqual(['Вирішальний матч, M5', 'Вирішальний матч, M10']);
  });

  it('names the matches empty slots wait for while the group is played', async () => {
    const html = await render(stageFixture('gsl', eight, { decide: () => null }));
    const decider = html.slice(html.indexOf('data-gsl="decider"'));
    expect(text(decider)).toMatch(/Переможений у M3 .*Переможець M4/);
    expect(text(html)).toContain('Етап триває');
  });

  it('is in English for an English reader', async () => {
    setLocaleResolver(() => 'en');
    const html = await render(stageFixture('gsl', eight));
    expect([...html.matchAll(/<h4[^>]*>([^<]*)<\/h4>/g)].map((m) => m[1]!.trim()).slice(0, 5)).toEqual([
      'Standings',
      'Opening matches',
      'Winners’ match',
      'Elimination match',
      'Decider',
    ]);
    expect(text(html)).toContain('GSL groups');
    expect(text(html)).not.toMatch(/[а-яіїєґ]/i);
  });
});
