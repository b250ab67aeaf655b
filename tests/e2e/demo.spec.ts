import type { Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { everyPage, expect, open, settled, test } from './fixtures.ts';

// A guest on a fresh demo sees a living site: no page says "nothing here" where the demo has
// content. The empty-state texts come from the catalog, so a reworded one is still caught.

const EMPTY = {
  bracket: t('bracket.empty'),
  matches: t('matchHistory.empty'),
  players: t('leaderboards.emptyPlayers'),
  teams: t('leaderboards.emptyTeams'),
  statsGames: t('leaderboards.noGames'),
  upcoming: t('home.noUpcoming'),
  news: t('news.empty'),
  games: t('tournaments.empty'),
};

interface Listed {
  _id: string;
  title: string;
  status: string;
  game: string;
}

/** Every tournament of the public list, all pages of it. */
async function allTournaments(page: Page): Promise<Listed[]> {
  const found: Listed[] = [];
  for (let offset = 0; ; offset += 50) {
    const batch = (await (await page.request.get(`/api/tournaments?limit=50&offset=${offset}`)).json()) as Listed[];
    found.push(...batch);
    if (batch.length < 50) return found;
  }
}

/** Opens a page as a guest and waits for its islands and their first loads. */
async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  // Not `networkidle`: tournament pages hold their live event stream open (issue 22).
  await settled(page);
}

async function expectNone(page: Page, path: string, texts: string[]) {
  for (const text of texts) await expect(page.getByText(text, { exact: true }), `${path}: «${text}»`).toHaveCount(0);
}

test('every page a guest opens shows the demo’s content, not an empty state', async ({ page }) => {
  for (const path of await everyPage(page)) {
    await visit(page, path);
    // The first tournament of the list may be one still waiting for its bracket; its own check is below.
    const allowed = path.includes('/bracket') || path.startsWith('/tournaments/') ? [EMPTY.bracket] : [];
    await expectNone(
      page,
      path,
      Object.values(EMPTY).filter((text) => !allowed.includes(text)),
    );
  }
});

test('started and finished tournaments show their played bracket; pending ones wait for the draw', async ({ page }) => {
  const list = await allTournaments(page);
  for (const status of ['pending', 'started', 'finished']) {
    const tournament = list.find((x) => x.status === status);
    expect(tournament, `a ${status} tournament`).toBeTruthy();
    for (const path of [`/tournaments/${tournament!._id}`, `/tournament/${tournament!._id}/bracket`]) {
      await visit(page, path);
      const empty = page.getByText(EMPTY.bracket, { exact: true });
      if (status === 'pending') {
        // A pending demo tournament has approved participants and no bracket yet.
        if (path.includes('/bracket')) await expect(empty, path).toBeVisible();
      } else {
        await expect(empty, path).toHaveCount(0);
      }
    }
  }
  // Every started and finished tournament, not just the first of each: a SPEC bracket, or stages of
  // other formats (issue 59: a Swiss stage, GSL groups, free-for-all lobbies) with their matches or lobbies.
  for (const tournament of list.filter((x) => x.status !== 'pending')) {
    const state = (await (await page.request.get(`/api/tournaments/${tournament._id}/bracket`)).json()) as { bracket: unknown[] };
    const { stages } = (await (await page.request.get(`/api/tournaments/${tournament._id}/stages`)).json()) as { stages: { matches: unknown[]; lobbies: unknown[] }[] };
    const drawn = state.bracket.length > 0 || stages.some((stage) => stage.matches.length + stage.lobbies.length > 0);
    expect(drawn, tournament.title).toBe(true);
  }
});

test('the leaderboards show players and teams on both tabs, and a game page its tournaments', async ({ page }) => {
  const games = (await (await page.request.get('/api/stats/games')).json()) as { _id: string; name: string }[];
  expect(games.length).toBeGreaterThanOrEqual(2);
  for (const game of games) {
    await visit(page, `/leaderboards?game=${game._id}`);
    await expectNone(page, game.name, [EMPTY.players]);
    await expect(page.getByRole('row').nth(1)).toBeVisible();
  }
  const dota = games.find((g) => g.name === 'Dota 2')!;
  await visit(page, `/leaderboards?game=${dota._id}&tab=teams`);
  await expectNone(page, 'teams', [EMPTY.teams]);
  // Ten rows and more on both tabs (a header row besides).
  expect(await page.getByRole('row').count()).toBeGreaterThan(10);
  await visit(page, `/leaderboards?game=${dota._id}`);
  expect(await page.getByRole('row').count()).toBeGreaterThan(10);

  // A game's page lists its tournaments.
  const list = await allTournaments(page);
  await visit(page, `/games/${list.find((x) => x.title.includes('Dota 2'))!.game}`);
  await expectNone(page, 'game', [EMPTY.games]);
});

test('the demo captain sees the team’s match history and unread notifications', async ({ captain: page }) => {
  await open(page, '/team');
  // The demo team's card: other tests give the captain teams of their own, with no match played.
  const team = page.getByRole('article', { name: 'Київські Кіборги' });
  await expect(team.getByRole('heading', { name: t('matchHistory.title') })).toBeVisible();
  await settled(page);
  await expect(team.getByText(EMPTY.matches, { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Сповіщення: непрочитаних \d+$/ })).toBeVisible();
});
