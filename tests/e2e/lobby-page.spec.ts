import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import type { StageView } from '../../src/lib/api/stages.ts';
import { bearer, expect, open, settled, signIn, test } from './fixtures.ts';

/*
 * A free-for-all lobby's own page (issue 59), `/matches/{lobbyId}`: a guest reads its table and
 * games without JavaScript on a phone and a desktop; the bracket page's lobby links to it; a
 * player of the lobby proposes a game through the form there, an organiser takes the proposal and
 * enters it, and the page shows it to the player without a reload. Screenshots in both themes and
 * both languages are kept (SHOTS_DIR, else the test's output folder) for people to look at.
 */

// Eight demo players in seed order: lobby 1 takes seeds 1, 4, 5, 8, lobby 2 seeds 2, 3, 6, 7 (a snake).
const EIGHT = ['Kharkiv_Hunter', 'SlobodaSniper', 'Lozova_Lynx', 'Izium_Ice', 'Chuhuiv_Chief', 'Polissia_Owl', 'Zhytomyr_Zen', 'Korosten_Kid'];
const LOBBY_ONE = [EIGHT[0]!, EIGHT[3]!, EIGHT[4]!, EIGHT[7]!];

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Serious and critical problems axe finds on the page as it is. */
async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

async function shotPath(testInfo: TestInfo, file: string): Promise<string> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return testInfo.outputPath(file);
  await mkdir(dir, { recursive: true });
  return `${dir}/${file}`;
}

/** The page with JavaScript at 360 and 1280 px, dark and light, in Ukrainian and English: no sideways scroll, axe, a screenshot. */
async function screenshots(browser: Browser, path: string, testInfo: TestInfo) {
  for (const lang of ['uk', 'en'] as const) {
    for (const theme of ['dark', 'light'] as const) {
      for (const width of [360, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        if (lang === 'en') await context.addCookies([{ name: 'lang', value: 'en', url: testInfo.project.use.baseURL! }]);
        await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
        const page = await context.newPage();
        await page.goto(path);
        await settled(page);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(lang === 'uk' ? 'Лобі 1 · Раунд 1' : 'Lobby 1 · Round 1');
        expect(await overflow(page), `${lang} ${theme} ${width}`).toBeLessThanOrEqual(0);
        expect(await axe(page), `${lang} ${theme} ${width}`).toEqual([]);
        await page.screenshot({ path: await shotPath(testInfo, `lobby-${lang}-${theme}-${width}.png`), fullPage: true });
        await context.close();
      }
    }
  }
}

test('a free-for-all lobby has a page of its own: a guest reads it without JavaScript, its player proposes a game there and an organiser enters it', async ({
  browser,
  request,
  tournament,
}, testInfo) => {
  test.setTimeout(240_000);
  const cup = await tournament(EIGHT, { draw: false });
  const made = await request.post(`/api/tournaments/${cup.id}/stages`, {
    headers: bearer(cup.admin),
    data: { format: 'free_for_all', name: 'Лобі', seeding: 'order', settings: { lobbySize: 4, games: 2, advance: 2, points: { placement: [10, 6, 5, 4], kill: 1 } } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const stage = ((await made.json()) as { stage: StageView }).stage;
  const lobby = stage.lobbies.find((l) => l.round === 1 && l.number === 1)!;
  expect(lobby.members).toEqual(LOBBY_ONE.map((nick) => cup.ids[nick]));
  // Game 1 in seed order, the winner with 3 kills, everyone else 1: 13, 7, 6, 5 points.
  const first = await request.put(`/api/matches/${lobby._id}/games/1`, {
    headers: bearer(cup.admin),
    data: { lines: lobby.members.map((participant, i) => ({ participant, placement: i + 1, kills: i === 0 ? 3 : 1 })) },
  });
  expect(first.status(), await first.text()).toBe(200);
  const path = `/matches/${lobby._id}`;

  for (const width of [360, 1280]) {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
    const guest = await context.newPage();
    expect((await guest.goto(path))?.status()).toBe(200);
    await expect(guest.getByRole('heading', { level: 1 })).toHaveText('Лобі 1 · Раунд 1');
    await expect(guest).toHaveTitle(`Лобі 1 · Раунд 1 — ${cup.title} — Кіберарена`);
    await expect(guest.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`/api/og/match/${lobby._id}\\.png\\?lang=uk`));
    await expect(guest.locator('meta[property="og:description"]')).toHaveAttribute('content', `Зіграно ігор: 1 з 2 · Лідирує ${EIGHT[0]}: 13 оч.`);
    await expect(guest.getByRole('link', { name: cup.title })).toHaveAttribute('href', `/tournaments/${cup.id}`);
    const table = guest.getByRole('region', { name: 'Таблиця лобі' });
    await expect(table.getByText('Зіграно ігор: 1 з 2')).toBeVisible();
    await expect(table.getByRole('rowheader')).toHaveText(LOBBY_ONE);
    await expect(table.getByRole('row').filter({ hasText: EIGHT[0]! }).getByRole('cell').last()).toHaveText('13');
    // Each game's placements and kills, best placement first.
    const game = guest.getByRole('table', { name: 'Гра 1', exact: true });
    await expect(game.getByRole('rowheader')).toHaveText(LOBBY_ONE);
    await expect(game.getByRole('row').filter({ hasText: EIGHT[0]! }).getByRole('cell').last()).toHaveText('3');
    // Nothing to enter for a guest.
    await expect(guest.getByRole('heading', { name: 'Запропонувати результат гри' })).toHaveCount(0);
    expect(await overflow(guest)).toBeLessThanOrEqual(0);
    // The bracket page's lobby links to its page.
    await guest.goto(`/tournament/${cup.id}/bracket`);
    await expect(guest.getByRole('region', { name: 'Лобі 1', exact: true }).getByRole('link', { name: 'Лобі 1', exact: true })).toHaveAttribute('href', path);
    await context.close();
  }
  await screenshots(browser, path, testInfo);

  // A player of lobby 2 has nothing to do here; a player of lobby 1 proposes game 2: Izium_Ice first with 5 kills.
  const outsiderContext = await browser.newContext({ viewport: { width: 360, height: 900 } });
  const outsider = await outsiderContext.newPage();
  await signIn(outsider, EIGHT[1]!);
  await open(outsider, path);
  await settled(outsider);
  await expect(outsider.getByRole('heading', { level: 1 })).toHaveText('Лобі 1 · Раунд 1');
  await expect(outsider.getByRole('heading', { name: 'Запропонувати результат гри' })).toHaveCount(0);
  await outsiderContext.close();

  const playerContext = await browser.newContext({ viewport: { width: 360, height: 900 } });
  const player = await playerContext.newPage();
  await signIn(player, EIGHT[3]!);
  await open(player, path);
  const proposal = player.getByRole('region', { name: 'Запропонувати результат гри' });
  await expect(proposal).toBeVisible();
  await expect(proposal.getByLabel('Гра', { exact: true })).toHaveValue('2');
  await proposal.getByLabel(`Місце: ${EIGHT[3]}`).selectOption('1');
  await proposal.getByLabel(`Місце: ${EIGHT[0]}`).selectOption('2');
  await proposal.getByLabel(`Вбивства: ${EIGHT[3]}`).fill('5');
  for (const nick of [EIGHT[0]!, EIGHT[4]!, EIGHT[7]!]) await proposal.getByLabel(`Вбивства: ${nick}`).fill('0');
  await proposal.getByRole('button', { name: 'Запропонувати гру 2' }).click();
  await expect(proposal.getByRole('status').filter({ hasText: 'запропоновано' })).toHaveText('Гру 2 запропоновано: її внесе організатор');
  await expect(proposal.getByText('Гра 2: пропозицію надіслано, чекає організатора')).toBeVisible();
  // The public table counts only what the organisers entered.
  await expect(player.getByRole('region', { name: 'Таблиця лобі' }).getByText('Зіграно ігор: 1 з 2')).toBeVisible();

  // An organiser takes the proposal and enters it.
  const organiserContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const organiser = await organiserContext.newPage();
  await signIn(organiser, E2E_ADMIN.email, E2E_ADMIN.password);
  await open(organiser, path);
  const entry = organiser.getByRole('region', { name: 'Внести гру' });
  await expect(entry.getByText('Гравці запропонували результат гри 2: підставте його, перевірте й внесіть')).toBeVisible();
  await expect(entry.getByLabel('Гра', { exact: true })).toHaveValue('2');
  await expect(entry.getByLabel(`Місце: ${EIGHT[3]}`)).toHaveValue('2');
  await entry.getByRole('button', { name: 'Взяти пропозицію гравця' }).click();
  await expect(entry.getByLabel(`Місце: ${EIGHT[3]}`)).toHaveValue('1');
  await expect(entry.getByLabel(`Вбивства: ${EIGHT[3]}`)).toHaveValue('5');
  await entry.getByRole('button', { name: 'Внести гру 2' }).click();
  await expect(entry.getByRole('status').filter({ hasText: 'внесено' })).toHaveText('Гру 2 внесено');
  // 7 + 10 + 5 = 22 for Izium_Ice, 13 + 6 = 19 for Kharkiv_Hunter: the organiser's page at once.
  const table = organiser.getByRole('region', { name: 'Таблиця лобі' });
  await expect(table.getByText('Усі ігри зіграно')).toBeVisible();
  await expect(table.getByRole('rowheader')).toHaveText([EIGHT[3]!, EIGHT[0]!, EIGHT[4]!, EIGHT[7]!]);
  await expect(organiser.getByRole('table', { name: 'Гра 2', exact: true }).getByRole('rowheader').first()).toHaveText(EIGHT[3]!);

  // The player's page hears it live: the table counts the game, and with every game entered there is nothing left to propose.
  await expect(player.getByRole('region', { name: 'Таблиця лобі' }).getByText('Усі ігри зіграно')).toBeVisible({ timeout: 15_000 });
  await expect(player.getByRole('table', { name: 'Гра 2', exact: true })).toBeVisible();
  await expect(proposal).toHaveCount(0);
  await playerContext.close();
  await organiserContext.close();
});
