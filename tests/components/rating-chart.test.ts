import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import RatingChart from '../../src/components/RatingChart.astro';
import StageSection from '../../src/components/stages/StageSection.astro';
import { namesOf } from '../../src/components/stages/view.ts';
import { formatNumber } from '../../src/lib/i18n/format.ts';
import { setLocaleResolver } from '../../src/lib/i18n/index.ts';
import { favouriteWins, players, stageFixture } from '../support/stage-fixtures.ts';

/**
 * The profile's rating chart (issue 23) as the server renders it: an SVG picture with a title and
 * a description of the whole history, no script; and participant names in a stage drawing
 * linking to their profiles.
 */
let container: AstroContainer;
beforeAll(async () => {
  container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
});
afterEach(() => setLocaleResolver(() => 'uk'));

const clean = (html: string) => html.replace(/ data-astro-source-(file|loc)="[^"]*"/g, '');
const history = [
  { at: '2026-03-01T18:00:00.000Z', rating: 1016 },
  { at: '2026-03-05T18:00:00.000Z', rating: 1031.4 },
  { at: '2026-03-09T18:00:00.000Z', rating: 1012.2 },
];

describe('the rating chart', () => {
  it('is one SVG picture named by its title and described in words, with its labels hidden from screen readers', async () => {
    const html = clean(await container.renderToString(RatingChart, { props: { history, game: 'Dota 2', id: 'chart-x' } }));
    expect(html).not.toMatch(/<script|astro-island|\son[a-z]+=|style="/i);
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-labelledby="chart-x-title chart-x-desc"');
    expect(html).toContain('<title id="chart-x-title">Рейтинг у Dota 2 з часом</title>');
    const desc = /<desc id="chart-x-desc">([^<]*)<\/desc>/.exec(html)![1]!;
    expect(desc).toContain('точок: 3');
    const n = (value: number) => formatNumber(value);
    expect(desc).toContain(`Спершу ${n(1016)}, востаннє ${n(1012)}; найвищий ${n(1031)}, найнижчий ${n(1012)}`);
    // One line through the three points, and the rating lines labelled beside it.
    expect(html.match(/<path d="M/g)).toHaveLength(1 + 1 + 3);
    expect(html).toContain(`>${n(1040)}<`);
    expect(html).toContain(`>${n(1010)}<`);
  });

  it('speaks English to an English reader', async () => {
    setLocaleResolver(() => 'en');
    const html = clean(await container.renderToString(RatingChart, { props: { history, game: 'Dota 2', id: 'c' } }));
    expect(html).toContain('Rating in Dota 2 over time');
    expect(html).toContain('First 1,016, last 1,012');
  });

  it('says there is no history yet instead of drawing an empty picture', async () => {
    const html = clean(await container.renderToString(RatingChart, { props: { history: [], game: 'Dota 2', id: 'c' } }));
    expect(html).not.toContain('<svg');
    expect(html).toContain('Історії рейтингу в цій грі ще немає');
  });
});

describe('participant names in a stage drawing', () => {
  it('link to the players’ profiles, in the matches and in the places', async () => {
    const four = players(4);
    const html = clean(await container.renderToString(StageSection, { props: { stage: stageFixture('single_elimination', four, { decide: favouriteWins }), names: namesOf(four) } }));
    for (const id of ['p1', 'p2', 'p3', 'p4']) expect(html).toContain(`href="/players/${id}"`);
  });
});
