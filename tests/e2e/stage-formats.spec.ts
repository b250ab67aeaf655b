import { mkdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Locator, Page, TestInfo } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import type { StagesState, StageView } from '../../src/lib/api/stages.ts';
import { bearer, current, expect, open, settled, test, tokenOf } from './fixtures.ts';

/*
 * Issue 59's two formats played to the end through the API — a Swiss stage of 16 with thresholds
 * (3 wins advance, 3 losses eliminate, deciding matches Bo3) and GSL groups of 8 — then read by a
 * guest on the bracket page without JavaScript, on a phone and a desktop: the labels, the records,
 * who advanced and who was eliminated in words, no sideways scroll, axe. Screenshots in both themes
 * and both languages are kept (SHOTS_DIR, else the test's output folder) for people to look at.
 * And an admin makes both through the «Етапи» modal's form, a Swiss one that pairs itself.
 */

// Sixteen demo players in application order: the earlier one wins every meeting, so every table is known in advance.
const SIXTEEN = [
  'Kharkiv_Hunter',
  'SlobodaSniper',
  'Lozova_Lynx',
  'Izium_Ice',
  'Chuhuiv_Chief',
  'Polissia_Owl',
  'Zhytomyr_Zen',
  'Korosten_Kid',
  'Ovruch_Oak',
  'Rivne_Ranger',
  'Berkut_Hover',
  'Hoverla_Peak',
  'Yaremche_Yeti',
  'Kolomyia_King',
  'Kosiv_Craft',
  'Dolphin_Dive',
];

/** A pending solo tournament of a game of its own, with these demo players applied and approved in this order. */
async function tournamentOf(request: APIRequestContext, admin: string, nicks: readonly string[]) {
  const name = `Формати ${randomUUID().slice(0, 8)}`;
  const made = await request.post('/api/games', { headers: bearer(admin), data: { name } });
  expect(made.status()).toBe(201);
  const game = ((await made.json()) as { game: { _id: string } }).game._id;
  const created = await request.post('/api/tournaments', {
    headers: bearer(admin),
    data: { title: name, date: '2031-06-01', game, soloOnly: true, description: 'Турнір для перевірки форматів етапів.' },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  const seedOf = new Map<string, number>();
  for (const [seed, nick] of nicks.entries()) {
    const applied = await request.post('/api/applications', { headers: bearer(await tokenOf(request, nick)), data: { tournament: id } });
    expect(applied.status(), nick).toBe(201);
    const application = ((await applied.json()) as { application: { _id: string; user: { _id: string } } }).application;
    seedOf.set(application.user._id, seed);
    const approved = await request.patch(`/api/applications/${application._id}/status`, { headers: bearer(admin), data: { status: 'approved' } });
    expect(approved.ok(), nick).toBe(true);
  }
  return { id, seedOf };
}

/**
 * Creates the stage and plays it to the end as the admin: every ready match won by the side that
 * applied earlier (Bo1 13:7, a best-of-N by the games it needs, one dropped), and a Swiss stage's
 * next round paired once a round is over. `onRound` is told each Swiss round as it is paired.
 */
async function playStage(
  request: APIRequestContext,
  admin: string,
  tournament: { id: string; seedOf: Map<string, number> },
  body: Record<string, unknown>,
  onRound: (stage: StageView) => Promise<void> = async () => {},
): Promise<StageView> {
  const created = await request.post(`/api/tournaments/${tournament.id}/stages`, { headers: bearer(admin), data: body });
  expect(created.status(), await created.text()).toBe(201);
  const stageId = ((await created.json()) as { stage: StageView }).stage._id;
  const read = async () => (await current<StagesState>(request, `/api/tournaments/${tournament.id}/stages`)).stages.find((s) => s._id === stageId)!;
  for (let step = 0; step < 200; step++) {
    const stage = await read();
    if (stage.complete) return stage;
    const ready = stage.matches.filter((m) => m.status === 'ready' && m.a && m.b);
    if (ready.length === 0) {
      await onRound(stage);
      const paired = await request.post(`/api/tournaments/${tournament.id}/stages/${stageId}/next-round`, { headers: bearer(admin) });
      expect(paired.status(), await paired.text()).toBe(200);
      continue;
    }
    for (const match of ready) {
      const aWins = tournament.seedOf.get(match.a!)! < tournament.seedOf.get(match.b!)!;
      const [high, low] = match.bestOf === 1 ? [13, 7] : [Math.ceil(match.bestOf / 2), Math.ceil(match.bestOf / 2) - 1];
      const saved = await request.patch(`/api/matches/${match._id}`, {
        headers: bearer(admin),
        data: { version: match.version, scoreA: aWins ? high : low, scoreB: aWins ? low : high },
      });
      expect(saved.status(), await saved.text()).toBe(200);
    }
  }
  throw new Error('the stage did not finish');
}

/** Where a screenshot goes: SHOTS_DIR when given, else the test's output folder. */
async function shotPath(testInfo: TestInfo, file: string): Promise<string> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return testInfo.outputPath(file);
  await mkdir(dir, { recursive: true });
  return `${dir}/${file}`;
}

/** A guest's page of the bracket without JavaScript at this width (in Ukrainian, the dark theme: the default). */
async function guestPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 }, locale: 'uk-UA' });
  return context.newPage();
}

async function noSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
}

/** Serious and critical problems axe finds on the page as it is. */
async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

/**
 * Screenshots of the bracket page at 360 and 1280 px, dark and light, in Ukrainian and English,
 * each page checked by axe. With JavaScript: the stored theme is read by the page's script, and
 * axe runs in the page.
 */
async function screenshots(browser: Browser, path: string, name: string, testInfo: TestInfo) {
  for (const lang of ['uk', 'en'] as const) {
    for (const theme of ['dark', 'light'] as const) {
      for (const width of [360, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        if (lang === 'en') await context.addCookies([{ name: 'lang', value: 'en', url: testInfo.project.use.baseURL! }]);
        await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
        const page = await context.newPage();
        await page.goto(path);
        await settled(page);
        await noSidewaysScroll(page);
        expect(await axe(page), `${name} ${lang} ${theme} ${width}`).toEqual([]);
        await page.screenshot({ path: await shotPath(testInfo, `${name}-${lang}-${theme}-${width}.png`), fullPage: true });
        await context.close();
      }
    }
  }
}

test('a guest reads a Swiss stage of 16 with thresholds played to the end: records, difficulty, who advanced and who was eliminated', async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(300_000);
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const tournament = await tournamentOf(request, admin, SIXTEEN);
  const path = `/tournament/${tournament.id}/bracket`;
  const rounds: number[] = [];
  const stage = await playStage(
    request,
    admin,
    tournament,
    { format: 'swiss', name: 'Швейцарка', seeding: 'order', settings: { winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3 } },
    async (between) => {
      rounds.push(Math.max(...between.matches.map((m) => m.round)));
      // Between rounds the page counts the rounds still to come: never all played before the stage ends.
      if (rounds.length === 3) {
        const html = await (await request.get(path, { headers: { 'cache-control': 'no-cache' } })).text();
        expect(html).toContain('Зіграно матчів: 24 з 36 (67%)');
      }
    },
  );
  // As at a Major: 8 + 8 + 8 + 6 + 3 matches in five rounds, the deciding ones Bo3.
  expect(rounds).toEqual([1, 2, 3, 4]);
  expect(stage.matches).toHaveLength(33);
  expect(stage.matches.filter((m) => m.bestOf === 3).length).toBeGreaterThan(0);
  const table = [...stage.groups[0]!.standings].sort((x, y) => x.rank - y.rank);
  expect(table.map((row) => `${row.wins}–${row.losses}`)).toEqual([
    '3–0',
    '3–0',
    '3–1',
    '3–1',
    '3–1',
    '3–2',
    '3–2',
    '3–2',
    '2–3',
    '2–3',
    '2–3',
    '1–3',
    '1–3',
    '1–3',
    '0–3',
    '0–3',
  ]);

  for (const width of [360, 1280]) {
    const page = await guestPage(browser, width);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 2, name: 'Швейцарка' })).toBeVisible();
    await expect(page.getByText('До 3 перемог — далі, 3 поразки — виліт; вирішальні матчі Bo3')).toBeVisible();
    await expect(page.getByText('Етап завершено')).toBeVisible();
    await expect(page.getByText('Зіграно матчів: 33 з 33 (100%)')).toBeVisible();
    const standings = page.getByRole('region', { name: 'Турнірна таблиця: Група A' });
    await expect(standings.getByRole('columnheader', { name: 'Складність' })).toBeVisible();
    await expect(standings.getByRole('columnheader', { name: 'В–П' })).toBeVisible();
    // Rows in rank order: the earlier applicant won every meeting.
    await expect(standings.getByRole('rowheader')).toHaveText(SIXTEEN.map((nick, i) => new RegExp(`^${nick}\\s*${i < 8 ? 'Пройшов далі' : 'Вибув'}$`)));
    await expect(standings.getByText('Пройшов далі', { exact: true })).toHaveCount(8);
    await expect(standings.getByText('Вибув', { exact: true })).toHaveCount(8);
    const first = standings.getByRole('row').filter({ hasText: SIXTEEN[0]! });
    await expect(first.getByRole('cell')).toHaveText(['1', '3–0', /^[+−]?\d+$/]);
    await expect(standings.getByRole('row').filter({ hasText: SIXTEEN[15]! }).getByRole('cell')).toHaveText(['16', '0–3', /^[+−]?\d+$/]);
    for (const round of [1, 2, 3, 4, 5]) await expect(page.getByRole('heading', { level: 4, name: `Тур ${round}`, exact: true })).toBeVisible();
    if (width === 360) await noSidewaysScroll(page);
    await page.context().close();
  }
  await screenshots(browser, path, 'swiss-thresholds', testInfo);
});

test('a guest reads GSL groups of 8 played to the end: each group’s five matches under their names and its table', async ({ browser, request }, testInfo) => {
  test.setTimeout(240_000);
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const eight = SIXTEEN.slice(0, 8);
  const tournament = await tournamentOf(request, admin, eight);
  const path = `/tournament/${tournament.id}/bracket`;
  const stage = await playStage(request, admin, tournament, { format: 'gsl', name: 'Групи GSL', seeding: 'order' });
  expect(stage.groups.map((g) => g.participants.length)).toEqual([4, 4]);
  expect(stage.matches).toHaveLength(10);

  // Snake groups: A holds seeds 1, 4, 5, 8 and B seeds 2, 3, 6, 7; the higher seed wins each match.
  const groups = { A: [eight[0], eight[3], eight[4], eight[7]], B: [eight[1], eight[2], eight[5], eight[6]] };
  for (const width of [360, 1280]) {
    const page = await guestPage(browser, width);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 2, name: 'Групи GSL' })).toBeVisible();
    await expect(page.getByText('Етап завершено')).toBeVisible();
    await expect(page.getByText('Зіграно матчів: 10 з 10 (100%)')).toBeVisible();
    for (const [letter, members] of Object.entries(groups)) {
      const group = page.locator('section[data-group]').filter({ has: page.getByRole('heading', { level: 3, name: `Група ${letter}` }) });
      for (const label of ['Стартові матчі', 'Матч переможців', 'Матч на виліт', 'Вирішальний матч']) {
        await expect(group.getByRole('heading', { level: 4, name: label, exact: true })).toBeVisible();
      }
      await expect(group.getByRole('article')).toHaveCount(5);
      await expect(group.getByRole('article', { name: /^Стартові матчі, M\d+$/ })).toHaveCount(2);
      const standings = page.getByRole('region', { name: `Турнірна таблиця: Група ${letter}` });
      await expect(standings.getByRole('columnheader')).toHaveText(['#', 'Учасник', 'В', 'П']);
      await expect(standings.getByRole('rowheader')).toHaveText(members as string[]);
      // First 2–0, second 2–1 (through the decider), third 1–2, fourth 0–2.
      const records = await standings.getByRole('row').evaluateAll((rows) =>
        rows.slice(1).map((row) =>
          [...row.querySelectorAll('td')]
            .slice(1)
            .map((td) => td.textContent?.trim())
            .join('–'),
        ),
      );
      expect(records).toEqual(['2–0', '2–1', '1–2', '0–2']);
    }
    if (width === 360) await noSidewaysScroll(page);
    await page.context().close();
  }
  await screenshots(browser, path, 'gsl', testInfo);
});

/** Opens the tournament page and its «Етапи» modal as the signed-in admin. */
async function openStages(page: Page, id: string): Promise<Locator> {
  await open(page, `/tournaments/${id}`);
  await settled(page);
  await page.getByRole('button', { name: 'Етапи', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Етапи' });
  await expect(dialog).toBeVisible();
  await settled(page);
  return dialog;
}

/** Creates the stage the form holds; the first one starts the tournament once the admin confirms. */
async function createFromForm(dialog: Locator, participants: number) {
  await dialog.getByRole('button', { name: 'Створити етап', exact: true }).click();
  await dialog.getByRole('button', { name: 'Так, створити й розпочати' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Етап створено' })).toHaveText(`Етап створено: ${participants} учасників`);
}

test('an admin makes a Swiss stage with thresholds that pairs itself, and GSL groups, through the «Етапи» form', async ({ admin: page, request }, testInfo) => {
  test.setTimeout(300_000);
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const swiss = await tournamentOf(request, admin, SIXTEEN);
  let dialog = await openStages(page, swiss.id);
  await dialog.getByLabel('Швейцарська система').check();
  await expect(dialog.getByLabel('Кількість турів')).toBeVisible();
  await dialog.getByLabel('Пороги перемог і поразок (як на мейджорах CS2)').check();
  // The thresholds decide the rounds, points and tie-breakers: their fields go.
  await expect(dialog.getByLabel('Кількість турів')).toBeHidden();
  await expect(dialog.getByText('Додаткові показники при рівних очках')).toBeHidden();
  await expect(dialog.getByLabel('Перемог для виходу далі')).toHaveValue('3');
  await expect(dialog.getByLabel('Поразок для вибування')).toHaveValue('3');
  await expect(dialog.getByLabel('Ігор у вирішальних матчах')).toHaveValue('3');
  await dialog.getByLabel('Складати наступний тур автоматично').check();
  await dialog.getByLabel('Поразок для вибування').fill('6');
  await dialog.getByRole('button', { name: 'Створити етап', exact: true }).click();
  await expect(dialog.getByText('Пороги перемог і поразок — цілі числа від 1 до 5')).toBeVisible();
  await dialog.getByLabel('Поразок для вибування').fill('3');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await dialog.getByRole('group', { name: 'Налаштування' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: await shotPath(testInfo, `form-swiss-thresholds-${width}.png`) });
  }
  await createFromForm(dialog, 16);
  const [made] = (await current<StagesState>(request, `/api/tournaments/${swiss.id}/stages`)).stages;
  expect(made!.settings).toEqual({ winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3, autoPair: true });
  await expect(dialog.getByText('До 3 перемог — далі, 3 поразки — виліт; вирішальні матчі Bo3')).toBeVisible();
  await expect(dialog.getByText('Тури складаються автоматично')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Скласти наступний тур' })).toHaveCount(0);

  // Seven results of round 1 through the API, the last through the editor: round 2 is paired by itself.
  const nick = (id: string | null) => SIXTEEN[swiss.seedOf.get(id!)!]!;
  const [last, ...others] = [...made!.matches].reverse();
  for (const match of others) {
    const saved = await request.patch(`/api/matches/${match._id}`, { headers: bearer(admin), data: { version: match.version, scoreA: 13, scoreB: 7 } });
    expect(saved.status()).toBe(200);
  }
  dialog = await openStages(page, swiss.id);
  const label = `Тур 1, M${last!.number}`;
  await dialog
    .getByRole('article', { name: label, exact: true })
    .getByRole('button', { name: `Внести результат: ${label}` })
    .click();
  const editor = page.getByRole('dialog', { name: label });
  await editor.getByLabel(`Рахунок: ${nick(last!.a)}`).fill('13');
  await editor.getByLabel(`Рахунок: ${nick(last!.b)}`).fill('9');
  await editor.getByRole('button', { name: 'Зберегти' }).click();
  await expect(editor).toBeHidden();
  await expect(dialog.getByRole('heading', { name: 'Тур 2', exact: true })).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'Таблиця: Турнірна таблиця' }).getByText('1–0')).toHaveCount(8);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await dialog.getByText('Тури складаються автоматично').scrollIntoViewIfNeeded();
    await page.screenshot({ path: await shotPath(testInfo, `panel-swiss-thresholds-${width}.png`) });
  }
  const paired = (await current<StagesState>(request, `/api/tournaments/${swiss.id}/stages`)).stages[0]!;
  expect(paired.matches.filter((m) => m.round === 2)).toHaveLength(8);

  // GSL groups of 8: two groups by default, each match under its name in the panel.
  const gsl = await tournamentOf(request, admin, SIXTEEN.slice(0, 8));
  dialog = await openStages(page, gsl.id);
  await dialog.getByLabel('Групи GSL').check();
  await expect(dialog.getByLabel('Кількість груп')).toHaveValue('0');
  await expect(dialog.getByText('У кожній групі GSL — 3 або 4 учасники', { exact: false })).toBeVisible();
  await expect(dialog.getByLabel('Кількість турів')).toBeHidden();
  await expect(dialog.getByLabel('Пороги перемог і поразок (як на мейджорах CS2)')).toHaveCount(0);
  await createFromForm(dialog, 8);
  const [groups] = (await current<StagesState>(request, `/api/tournaments/${gsl.id}/stages`)).stages;
  expect(groups!.groups.map((g) => g.participants.length)).toEqual([4, 4]);
  for (const letter of ['A', 'B']) {
    await expect(dialog.getByRole('heading', { name: `Група ${letter}`, exact: true })).toBeVisible();
    await expect(dialog.getByRole('table', { name: `Таблиця: Група ${letter}` }).getByRole('columnheader')).toHaveText(['#', 'Учасник', 'В', 'П']);
  }
  await expect(dialog.getByRole('article', { name: 'Група A · Стартові матчі, M1', exact: true })).toBeVisible();
  await expect(dialog.getByRole('article', { name: 'Група B · Вирішальний матч, M10', exact: true })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Матч на виліт', exact: true })).toHaveCount(2);
  await dialog.getByRole('heading', { name: 'Група A', exact: true }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: await shotPath(testInfo, 'panel-gsl-1280.png') });
});

test('free-for-all lobbies: an admin makes them in the form and enters a game there; a guest reads each round’s lobby tables', async ({ admin: page, browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const eight = SIXTEEN.slice(8);
  const cup = await tournamentOf(request, admin, eight);
  const dialog = await openStages(page, cup.id);
  await dialog.getByLabel('Кожен сам за себе (лобі)').check();
  // Two-sided matches' settings go; the lobby's come.
  await expect(dialog.getByLabel('Ігор у матчі', { exact: false })).toHaveCount(0);
  await expect(dialog.getByLabel('Вето карт', { exact: false })).toHaveCount(0);
  await dialog.getByLabel('Гравців у лобі').fill('4');
  await dialog.getByLabel('Ігор у кожному лобі').fill('2');
  await dialog.getByLabel('Проходять далі з кожного лобі').fill('2');
  await expect(dialog.getByLabel('Очки за місця (1-ше, 2-ге, …)')).toHaveValue('10, 6, 5, 4, 3, 2, 1, 1');
  await createFromForm(dialog, 8);
  const [made] = (await current<StagesState>(request, `/api/tournaments/${cup.id}/stages`)).stages;
  expect(made!.settings).toEqual({ lobbySize: 4, games: 2, advance: 2, points: { placement: [10, 6, 5, 4, 3, 2, 1, 1], kill: 1 } });
  expect(made!.lobbies.map((l) => l.members.length)).toEqual([4, 4]);

  // Three of round 1's four games through the API, each in seed order with the winner's 3 kills.
  const lines = (members: string[]) => members.map((participant, i) => ({ participant, placement: i + 1, kills: i === 0 ? 3 : 1 }));
  const [first, second] = made!.lobbies;
  for (const [lobby, n] of [
    [first!, 1],
    [first!, 2],
    [second!, 1],
  ] as const) {
    const entered = await request.put(`/api/matches/${lobby._id}/games/${n}`, { headers: bearer(admin), data: { lines: lines(lobby.members) } });
    expect(entered.status(), await entered.text()).toBe(200);
  }
  // The last through the form: lobby 2's game 2, its rows in seed order as they open.
  const reopened = await openStages(page, cup.id);
  const form = reopened.locator('details[data-lobby-form]').filter({ hasText: 'Лобі 2' });
  await form.locator('summary').click();
  await expect(form.getByLabel('Гра', { exact: true })).toHaveValue('2');
  await expect(form.getByLabel(`Місце: ${eight[1]}`)).toHaveValue('1');
  await form.getByLabel(`Вбивства: ${eight[1]}`).fill('5');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: await shotPath(testInfo, `panel-ffa-${width}.png`) });
  }
  await form.getByRole('button', { name: 'Внести гру 2' }).click();
  await expect(reopened.getByRole('status').filter({ hasText: 'Гру 2 внесено' })).toHaveText('Лобі 2: Гру 2 внесено');
  await expect(reopened.locator('details[data-lobby-form]').filter({ hasText: 'Фінальне лобі' })).toBeVisible();
  const state = (await current<StagesState>(request, `/api/tournaments/${cup.id}/stages`)).stages[0]!;
  const final = state.lobbies.find((l) => l.round === 2)!;
  // Each lobby's top two, the winners first and each tier by points: lobby 2's winner (28) above lobby 1's (26), then 14 and 13.
  expect(final.members.map((id) => eight[cup.seedOf.get(id)!])).toEqual([eight[1], eight[0], eight[3], eight[2]]);

  const path = `/tournament/${cup.id}/bracket`;
  for (const width of [360, 1280]) {
    const guest = await guestPage(browser, width);
    await guest.goto(path);
    await expect(guest.getByRole('heading', { level: 3, name: 'Раунд 1', exact: true })).toBeVisible();
    await expect(guest.getByRole('heading', { level: 3, name: 'Фінальне лобі', exact: true })).toBeVisible();
    const lobby = guest.getByRole('region', { name: 'Лобі 2', exact: true });
    await expect(lobby.getByText('Усі ігри зіграно')).toBeVisible();
    await expect(lobby.getByRole('rowheader')).toHaveText([eight[1], eight[2], eight[5], eight[6]] as string[]);
    // 2 × 10 points and 3 + 5 kills; each game's placement only from 640 px.
    await expect(lobby.getByRole('row').filter({ hasText: eight[1]! }).getByRole('cell').last()).toHaveText('28');
    await expect(lobby.getByRole('columnheader', { name: 'Г1', exact: true })).toBeVisible({ visible: width >= 640 });
    await expect(guest.getByRole('region', { name: 'Фінальне лобі', exact: true }).getByText('Зіграно ігор: 0 з 2')).toBeVisible();
    if (width === 360) await noSidewaysScroll(guest);
    await guest.context().close();
  }
  await screenshots(browser, path, 'ffa', testInfo);
});
