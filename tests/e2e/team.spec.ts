import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { bellLoaded, confirmationLink, expect, open, signIn, test } from './fixtures.ts';

const XSS = '<img src=x onerror=alert(1)>';

/** Registers and confirms a fresh captain through the API, so the test owns the team. */
async function freshCaptain(page: Page) {
  const nick = `cap_${randomUUID().slice(0, 8)}`;
  const password = 'captain-password-1';
  const res = await page.request.post('/api/auth/register', { data: { username: nick, email: `${nick}@example.test`, password } });
  expect(res.status()).toBe(201);
  const link = new URL(await confirmationLink(`${nick}@example.test`));
  expect((await page.request.get(`/api/auth/confirm${link.search}`)).status()).toBe(200);
  return { nick, password };
}

/**
 * The team tab's next poll of `path` (a pathname pattern) that leaves the browser after this call,
 * answered: what the page shows next is the server's state from now on. The wait follows the
 * page's own clock (6 s, store.ts), however slowly a loaded machine runs it.
 */
async function nextPoll(page: Page, path: RegExp) {
  const request = await page.waitForRequest((r) => r.method() === 'GET' && path.test(new URL(r.url()).pathname), { timeout: 0 });
  await request.response();
}
const TEAMS_POLL = /^\/api\/teams\/mine$/;
const CHAT_POLL = /^\/api\/team\/[^/]+\/chat$/;

/** Fails the test if any script-made alert appears (user text must never run as HTML). */
function refuseAlerts(page: Page) {
  page.on('dialog', (dialog) => {
    throw new Error(`unexpected ${dialog.type()} dialog: ${dialog.message()}`);
  });
}

test('a captain invites a player by nickname; the player accepts from the bell, both open team tabs follow without a reload, and both chat', async ({ page: captain, browser }) => {
  test.setTimeout(90_000);
  refuseAlerts(captain);
  const { nick, password } = await freshCaptain(captain);
  // The team name carries HTML, which must come back as plain text everywhere.
  const teamName = `${XSS} ${randomUUID().slice(0, 6)}`;

  // The captain creates a team.
  await signIn(captain, nick, password);
  await open(captain, '/team');
  await captain.getByRole('button', { name: 'Створити команду' }).click();
  await expect(captain.getByRole('alert')).toHaveText('Введіть назву команди');
  await captain.getByLabel('Назва команди').fill(teamName);
  await captain.getByRole('button', { name: 'Створити команду' }).click();
  await expect(captain.getByRole('heading', { name: 'Мої команди' })).toBeVisible();
  const captainTeam = captain.getByRole('article', { name: teamName });
  await expect(captainTeam.getByRole('heading', { name: teamName })).toBeVisible();
  await expect(captainTeam.getByText('Ви капітан')).toBeVisible();

  // …and invites a player by nickname.
  await captainTeam.getByRole('button', { name: 'Запросити' }).click();
  await expect(captainTeam.getByRole('alert')).toHaveText('Введіть нік!');
  await captainTeam.getByLabel('Нік або email гравця').fill('Sich_Raider');
  await captainTeam.getByRole('button', { name: 'Запросити' }).click();
  await expect(captainTeam.getByRole('status')).toHaveText('Запрошення надіслано гравцю Sich_Raider');
  await expect(captainTeam.getByRole('region', { name: 'Запрошення' }).getByText('Sich_Raider')).toBeVisible();

  // The player, on their own team tab, sees the red dot once the bell has loaded, opens it and accepts.
  const playerContext = await browser.newContext();
  const player = await playerContext.newPage();
  refuseAlerts(player);
  await signIn(player, 'Sich_Raider');
  await player.goto('/team');
  await bellLoaded(player);
  const bell = player.getByRole('button', { name: /^Сповіщення: непрочитаних \d+$/ });
  await expect(player.getByTestId('bell-dot')).toBeVisible();
  await bell.click();
  const panel = player.getByRole('region', { name: 'Сповіщення' });
  const invite = panel.getByRole('listitem').filter({ hasText: `Капітан команди «${teamName}» запрошує вас приєднатися до команди.` });
  await expect(invite).toBeVisible();
  await invite.getByRole('button', { name: 'Прийняти' }).click();
  await expect(panel.getByRole('status')).toHaveText('Ви приєднались до команди!');
  await expect(invite).toHaveCount(0);
  await player.keyboard.press('Escape');

  // The player's open tab shows the team at once…
  const playerTeam = player.getByRole('article', { name: teamName });
  await expect(playerTeam.getByRole('heading', { name: teamName })).toBeVisible();
  const roster = playerTeam.getByRole('region', { name: /^Учасники/ });
  await expect(roster.getByRole('listitem')).toHaveCount(2);
  await expect(roster.getByText('Sich_Raider')).toBeVisible();
  await expect(roster.getByText(nick)).toBeVisible();
  // Other members see the lists and the chat, not the captain's tools.
  await expect(playerTeam.getByRole('button', { name: 'Запросити' })).toHaveCount(0);
  await expect(playerTeam.getByRole('button', { name: /^Видалити гравця/ })).toHaveCount(0);

  // …and the captain's open tab, unreloaded, shows the player there with the invite gone on its next poll.
  await nextPoll(captain, TEAMS_POLL);
  await expect(captainTeam.getByRole('heading', { name: 'Учасники (2 з 7)' })).toBeVisible();
  await expect(captainTeam.getByRole('region', { name: /^Учасники/ }).getByText('Sich_Raider')).toBeVisible();
  await expect(captainTeam.getByText('Немає відкритих запрошень.')).toBeVisible();

  // Both write in the chat, and each sees the other's message within one poll.
  const captainSend = captainTeam.getByRole('button', { name: 'Надіслати' });
  await expect(captainSend).toBeDisabled();
  await captainTeam.getByLabel('Повідомлення', { exact: true }).fill('   ');
  await expect(captainSend).toBeDisabled();
  await captainTeam.getByLabel('Повідомлення', { exact: true }).fill('Тренування о 19:00, <b>не спізнюйтесь</b>!');
  await captainSend.click();
  await expect(captainTeam.getByRole('log').getByText('Тренування о 19:00, <b>не спізнюйтесь</b>!')).toBeVisible();

  const playerLog = playerTeam.getByRole('log');
  await nextPoll(player, CHAT_POLL);
  await expect(playerLog.getByText('Тренування о 19:00, <b>не спізнюйтесь</b>!')).toBeVisible();
  await expect(playerLog.getByRole('listitem').filter({ hasText: 'Тренування' })).toContainText(nick);
  await playerTeam.getByLabel('Повідомлення', { exact: true }).fill(XSS);
  await playerTeam.getByRole('button', { name: 'Надіслати' }).click();
  await expect(playerLog.getByText(XSS, { exact: true })).toBeVisible();

  await nextPoll(captain, CHAT_POLL);
  await expect(captainTeam.getByRole('log').getByText(XSS, { exact: true })).toBeVisible();
  const time = await captainTeam.getByRole('log').locator('time').last().textContent();
  expect(time).toMatch(/^\d{2}:\d{2}$/);

  // Nothing the users typed became markup.
  for (const page of [captain, player]) {
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(page.locator('main b')).toHaveCount(0);
  }

  // The captain removes the player (through the API: the button asks for a confirmation, which this
  // test refuses to see); the player's open tab lets the team go on its next poll, without asking
  // for the chat it may no longer read.
  const refused: string[] = [];
  player.on('response', (response) => {
    if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
  });
  const captainToken = await captain.evaluate(() => localStorage.getItem('token'));
  const playerId = await player.evaluate(() => fetch('/api/users/me', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } }).then((r) => r.json()).then((u: { _id: string }) => u._id));
  const teamId = await captainTeam.getAttribute('aria-labelledby').then((id) => id!.replace(/^team-/, ''));
  expect((await captain.request.delete(`/api/teams/${teamId}/members/${playerId}`, { headers: { authorization: `Bearer ${captainToken}` } })).status()).toBe(200);
  await nextPoll(player, TEAMS_POLL);
  await expect(playerTeam).toHaveCount(0);
  await expect(player.getByRole('heading', { name: 'Створити команду' })).toBeVisible();
  expect(refused).toEqual([]);
  await playerContext.close();
});

test('a guest on the team tab is asked to sign in and sees no bell', async ({ page }) => {
  await page.goto('/team');
  await expect(page.getByText('Увійдіть, щоб створити команду або побачити свою.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Увійти' }).last()).toHaveAttribute('href', '/login');
  await expect(page.getByRole('button', { name: /Сповіщення/ })).toHaveCount(0);
});
