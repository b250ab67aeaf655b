import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import StageSection from '../../src/components/stages/StageSection.astro';
import { namesOf } from '../../src/components/stages/view.ts';
import type { StageView } from '../../src/lib/api/stages.ts';
import { setLocaleResolver } from '../../src/lib/i18n/index.ts';
import { players, stageFixture } from '../support/stage-fixtures.ts';

/**
 * Match times on the server-rendered stage views (issue 22): Kyiv's time, marked as such, in a
 * `<time>` the page's script rewrites in the reader's zone; played matches show none.
 */
let container: AstroContainer;
beforeAll(async () => {
  container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
});
afterEach(() => setLocaleResolver(() => 'uk'));

const four = players(4);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const render = (stage: StageView) => container.renderToString(StageSection, { props: { stage, names: namesOf(four) } });

/** A stage whose first match is played and every other one is timed at 15:00 UTC (18:00 in Kyiv in June). */
function timed(format: 'single_elimination' | 'swiss'): StageView {
  let decided = 0;
  const stage = stageFixture(format, four, { decide: () => (decided++ === 0 ? { scoreA: 2, scoreB: 0 } : null) });
  return { ...stage, matches: stage.matches.map((m) => ({ ...m, scheduledAt: '2031-06-01T15:00:00.000Z' })) };
}

describe('match times on the stage views', () => {
  for (const format of ['single_elimination', 'swiss'] as const) {
    it(`${format}: matches still to play carry Kyiv's time, marked, and the script that localises it; played ones none`, async () => {
      const stage = timed(format);
      const html = await render(stage);
      const open = stage.matches.filter((m) => m.status !== 'completed' && !m.bye).length;
      expect(open).toBeGreaterThan(0);
      expect(html.match(/<time [^>]*data-local-time/gi)).toHaveLength(open);
      expect(html).toMatch(/datetime="2031-06-01T15:00:00.000Z"/i);
      expect(text(html)).toContain('1 черв. 2031 р., 18:00 (за Києвом)');
      expect(html).toContain('<script');
    });
  }

  it("in a tournament's own zone (the page's `Astro.locals.timeZone`): written once, named, nothing left to rewrite", async () => {
    const html = await container.renderToString(StageSection, { props: { stage: timed('single_elimination'), names: namesOf(four) }, locals: { timeZone: 'Europe/Warsaw' } as App.Locals });
    expect(text(html)).toContain('1 черв. 2031 р., 17:00 (за центральноєвропейським часом)');
    expect(html).not.toMatch(/data-local-time|data-site-zone/);
    expect(text(html)).not.toContain('за Києвом');
  });

  it('in English, and without a schedule no time and no script', async () => {
    setLocaleResolver(() => 'en');
    expect(text(await render(timed('single_elimination')))).toContain('1 Jun 2031, 18:00 (Kyiv time)');
    const plain = await render(stageFixture('single_elimination', four, { decide: () => null }));
    expect(plain).not.toMatch(/<time|<script/);
  });
});
