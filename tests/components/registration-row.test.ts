import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import Registration from '../../src/pages/tournaments/_Registration.astro';
import type { TournamentDetail } from '../../src/lib/api/tournaments.ts';
import { setLocaleResolver } from '../../src/lib/i18n/index.ts';
import { tournamentView } from '../support/tournament-view.ts';

/**
 * The tournament page's «Місця» row: pending applications hold places (decision 014) while the
 * participants list shows the approved ones, so the row names both numbers and what each counts.
 */
let container: AstroContainer;
beforeAll(async () => {
  container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
});
afterEach(() => setLocaleResolver(() => 'uk'));

const detail = (changes: Partial<TournamentDetail>): TournamentDetail => ({
  ...tournamentView(),
  applications: [],
  bracket: { rounds: [] } as unknown as TournamentDetail['bracket'],
  bracketVersion: 0,
  placesTaken: 0,
  approved: 0,
  waitlisted: 0,
  checkInClosedAt: null,
  stagePlan: [],
  season: null,
  ...changes,
});

async function placesRow(changes: Partial<TournamentDetail>): Promise<string> {
  const html = await container.renderToString(Registration, { props: { tournament: detail(changes) } });
  return html.match(/<dd data-testid="places"[^>]*>([^<]*)<\/dd>/)?.[1]?.trim() ?? '';
}

describe('the places row of a tournament page', () => {
  it('says how many applications hold places and how many of them are approved (the participants listed)', async () => {
    expect(await placesRow({ placesTaken: 8, approved: 5 })).toBe('8 заявок, з них схвалено 5; місць без обмеження');
    expect(await placesRow({ placesTaken: 8, approved: 5, maxParticipants: 16 })).toBe('8 заявок на 16 місць, з них схвалено 5');
    expect(await placesRow({ placesTaken: 2, approved: 0, maxParticipants: 2 })).toBe('2 заявки на 2 місця, з них схвалено 0');
    expect(await placesRow({ placesTaken: 1, approved: 1, maxParticipants: 21 })).toBe('1 заявка на 21 місце, з них схвалено 1');
    expect(await placesRow({})).toBe('заявок ще немає; місць без обмеження');
    expect(await placesRow({ maxParticipants: 4 })).toBe('заявок ще немає; 4 місця');
  });

  it('says the same in English', async () => {
    setLocaleResolver(() => 'en');
    expect(await placesRow({ placesTaken: 8, approved: 5 })).toBe('8 applications, 5 of them approved; no limit on places');
    expect(await placesRow({ placesTaken: 1, approved: 0, maxParticipants: 2 })).toBe('1 application for 2 places, 0 of them approved');
    expect(await placesRow({ maxParticipants: 4 })).toBe('no applications yet; 4 places');
  });
});
