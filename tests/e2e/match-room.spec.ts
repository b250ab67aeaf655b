import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Browser, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { bearer, expect, open, test, tokenOf, useToken } from './fixtures.ts';
import { vetoFinal } from './tournament-setup.ts';

/*
 * The match room on phones (issue 58): two players, each on a 360 px screen, check in, veto a Bo3
 * in Valve's order, read the organiser's lobby details, talk in the chat, report the score with a
 * screenshot and confirm it, while a guest's page follows the veto and the result live and never
 * shows the room's private parts; axe finds nothing serious on the room.
 */

const PHONE = { width: 360, height: 800 };
const POOL = ['Ancient', 'Anubis', 'Dust II', 'Inferno', 'Mirage', 'Nuke', 'Overpass'];
const LOBBY = `connect 10.20.30.40:27015; password ${randomUUID().slice(0, 8)}`;

async function phone(browser: Browser, token?: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  if (token) await useToken(page, token);
  return page;
}

test('two players check in, veto a Bo3, chat, report with a screenshot and confirm on their phones, while a guest watches', async ({ browser, request }) => {
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  // A game of its own, so the demo games' lists stay as other tests count them.
  const name = `Кімната ${randomUUID().slice(0, 8)}`;
  const game = ((await (await request.post('/api/games', { headers: bearer(admin), data: { name } })).json()) as { game: { _id: string } }).game._id;
  expect((await request.put(`/api/games/${game}/maps`, { headers: bearer(admin), data: { maps: POOL, sides: ['CT', 'T'] } })).ok()).toBe(true);
  const { matchId, tokens } = await vetoFinal(request, admin, {
    title: name,
    game,
    bestOf: 3,
    players: ['KozakSniper', 'OdesaWave'],
    settings: { matchCheckInMinutes: 15 },
  });

  const first = await phone(browser, tokens.KozakSniper);
  const second = await phone(browser, tokens.OdesaWave);
  const organiser = await phone(browser, admin);
  const guest = await phone(browser);
  for (const page of [first, second, organiser, guest]) await open(page, `/matches/${matchId}`);
  const room = (page: Page) => page.locator('[data-room]');
  const turn = (page: Page) => page.getByRole('region', { name: 'Ваш хід у вето', exact: true });
  const vetoOf = (page: Page) => page.getByRole('region', { name: 'Вето карт', exact: true });

  // The organiser puts the lobby details in the room; the players read them, the guest never does.
  await room(organiser).getByRole('button', { name: 'Змінити дані лобі' }).click();
  await room(organiser).getByLabel('Дані лобі чи сервера (бачать лише учасники матчу й організатори)').fill(LOBBY);
  await room(organiser).getByRole('button', { name: 'Зберегти дані лобі' }).click();
  await expect(room(organiser)).toContainText('Дані лобі збережено');
  await expect(room(first)).toContainText(LOBBY);
  await expect(room(second)).toContainText(LOBBY);

  // Check-in first: until both are in, nobody vetoes.
  await expect(room(first).getByRole('heading', { level: 2 })).toHaveText('Зараз: відмітьтеся на матч');
  await expect(room(first)).toContainText(/Лишилося 1[45]:\d\d/);
  await expect(turn(first)).toHaveCount(0);
  await room(first).getByRole('button', { name: 'Я на місці' }).click();
  await expect(room(first)).toContainText('Ви на місці. Суперник ще не відмітився');
  await expect(room(second)).toContainText('KozakSniper: на місці');
  await room(second).getByRole('button', { name: 'Я на місці' }).click();
  await expect(room(second)).toContainText('Обидві сторони на місці');
  await expect(room(first).getByRole('heading', { level: 2 })).toHaveText('Зараз: ваш хід у вето карт');

  const axe = await new AxeBuilder({ page: first }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

  // Valve's Bo3: the higher seed (KozakSniper) chooses Team B, so OdesaWave (Team A) bans first.
  await turn(first).getByRole('button', { name: 'Командою B' }).click();
  const steps: [Page, string][] = [
    [second, 'Викреслити Nuke'],
    [first, 'Викреслити Ancient'],
    [second, 'Вибрати Mirage'],
    [first, 'Почати за T'],
    [first, 'Вибрати Inferno'],
    [second, 'Почати за CT'],
    [first, 'Викреслити Anubis'],
    [second, 'Викреслити Overpass'],
    [first, 'Почати за CT'],
  ];
  for (const [page, button] of steps) {
    await turn(page).getByRole('button', { name: button }).click();
    await expect(turn(page).getByRole('button', { name: button })).toHaveCount(0);
  }
  const played = vetoOf(guest).getByRole('listitem');
  await expect(played).toHaveCount(3);
  await expect(played.nth(0)).toContainText('Mirage');
  await expect(played.nth(1)).toContainText('Inferno');
  await expect(played.nth(2)).toContainText('Dust II');
  await expect(room(first).getByRole('heading', { level: 2 })).toHaveText('Зараз: зіграйте матч і повідомте рахунок');

  // The chat: the second phone reads the first's message without a reload.
  await first.getByLabel('Повідомлення в чат матчу').fill('Добра гра! Скрин рахунку додаю.');
  await first.getByRole('button', { name: 'Надіслати', exact: true }).click();
  await expect(second.getByRole('log', { name: 'Повідомлення чату матчу' })).toContainText('Добра гра! Скрин рахунку додаю.');
  await expect(guest.getByText('Добра гра!')).toHaveCount(0);

  // The report, each game on its map, backed by a screenshot.
  const screenshot = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#203040' } })
    .png()
    .toBuffer();
  await first.getByLabel('Знімки екрана').setInputFiles({ name: 'score.png', mimeType: 'image/png', buffer: screenshot });
  await first.getByRole('button', { name: 'Додати скриншоти' }).click();
  await expect(first.getByText('Скриншоти додано: 1')).toBeVisible();
  await expect(second.getByRole('button', { name: /Відкрити знімок 1: KozakSniper/ })).toBeVisible();
  const scores: [number, string, string][] = [
    [1, '13', '9'],
    [2, '7', '13'],
    [3, '13', '11'],
  ];
  await expect(first.getByText('Карта 1: Mirage')).toBeVisible();
  for (const [n, a, b] of scores) {
    await first.getByLabel(`Карта ${n}: KozakSniper`).fill(a);
    await first.getByLabel(`Карта ${n}: OdesaWave`).fill(b);
  }
  await first.getByRole('button', { name: 'Надіслати рахунок' }).click();
  await expect(room(second).getByRole('heading', { level: 2 })).toHaveText('Зараз: підтвердьте чи оскаржте рахунок суперника');
  await second.screenshot({ path: test.info().outputPath('room-confirm-360.png'), fullPage: true });
  await second.getByRole('button', { name: 'Підтвердити 2:1' }).click();

  // The guest's page shows the result with its maps, live, and nothing private.
  await expect(guest.locator('[data-live-region="match"]')).toContainText('Mirage 13:9, Inferno 7:13, Dust II 13:11');
  const html = await guest.content();
  expect(html).not.toContain(LOBBY);
  expect(html).not.toContain('Добра гра');
  await expect(guest.locator('[data-room]')).toHaveCount(0);
  for (const page of [first, second, organiser, guest]) await page.context().close();
});
