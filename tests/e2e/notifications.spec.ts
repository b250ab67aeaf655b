import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { bearer, expect, freshPlayer, open, signIn, test, tokenOf, tokenOfPage } from './fixtures.ts';

test('a player invited to a tournament accepts from the bell and sees the server’s answer', async ({ player: page, request }) => {
  const headers = bearer(await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password));
  // A tournament of its own, so no other test's applications are in the way; long past, so it stays
  // behind the demo tournaments in every other test's lists.
  const game = (await (await request.post('/api/games', { headers, data: { name: `Запрошення ${randomUUID().slice(0, 6)}` } })).json()) as { game: { _id: string } };
  const created = await request.post('/api/tournaments', {
    headers,
    data: { game: game.game._id, title: 'Турнір за запрошенням', soloOnly: true, date: '2001-06-01T00:00:00.000Z' },
  });
  expect(created.status()).toBe(201);
  const tournament = ((await created.json()) as { tournament: { _id: string } }).tournament._id;

  const me = (await (await request.get('/api/users/me', { headers: bearer(tokenOfPage(page)) })).json()) as { _id: string };
  // A notice is worded in its reader's account language, which another test may have switched.
  expect((await request.put('/api/users/me/locale', { headers: bearer(tokenOfPage(page)), data: { locale: 'uk' } })).ok()).toBe(true);
  const invited = await request.post('/api/applications/invite', { headers, data: { tournament, user: me._id } });
  expect(invited.status()).toBe(201);

  // The first page the player opens: the invite is already there.
  await open(page, '/');
  await page.getByRole('button', { name: /^Сповіщення: непрочитаних \d+$/ }).click();
  const panel = page.getByRole('region', { name: 'Сповіщення' });
  const invite = panel.getByRole('listitem').filter({ hasText: 'Вас запрошено взяти участь у турнірі «Турнір за запрошенням».' });
  await invite.getByRole('button', { name: 'Прийняти' }).click();
  await expect(panel.getByRole('status')).toHaveText('Запрошення прийнято! Ви берете участь у турнірі.');
  await expect(invite).toHaveCount(0);
});

/** A new solo tournament of its own that the player of `token` applied to, and the admin's decision on the application. */
async function decided(request: APIRequestContext, token: string, status: 'approved' | 'rejected') {
  const admin = bearer(await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password));
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const game = games.find((g) => g.name === 'League of Legends')!;
  const title = `Сповіщення ${randomUUID().slice(0, 6)}`;
  const created = await request.post('/api/tournaments', { headers: admin, data: { title, date: '2031-06-01', game: game._id, soloOnly: true } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  const applied = await request.post('/api/applications', { headers: bearer(token), data: { tournament: id } });
  expect(applied.status()).toBe(201);
  const application = ((await applied.json()) as { application: { _id: string } }).application._id;
  expect((await request.patch(`/api/applications/${application}/status`, { headers: admin, data: { status } })).ok()).toBe(true);
  return { id, title };
}

test('an English reader finds the approval in the bell in English, and it leads to the tournament', async ({ page, baseURL }) => {
  const me = await freshPlayer(page, 'note');
  const token = await signIn(page, me.nick, me.password);
  const { id, title } = await decided(page.request, token, 'approved');
  await page.context().addCookies([{ name: 'lang', value: 'en', url: baseURL! }]);
  await open(page, '/');
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const panel = page.getByRole('region', { name: 'Notifications' });
  await panel.getByRole('link', { name: `Your application to “${title}” was approved.` }).click();
  await expect(page).toHaveURL(`/tournaments/${id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
});

test('a kind turned off for the bell in the cabinet stays off after a reload, and its next notice keeps out of the bell', async ({ page }) => {
  const me = await freshPlayer(page, 'note');
  const token = await signIn(page, me.nick, me.password);
  await open(page, '/cabinet');
  const approvedInBell = page.getByRole('checkbox', { name: 'Заявку схвалено: У дзвіночку' });
  await expect(approvedInBell).toBeChecked();
  await approvedInBell.uncheck();
  await expect(page.getByRole('status').filter({ hasText: 'Налаштування сповіщень збережено' })).toBeVisible();

  await page.reload();
  await expect(approvedInBell).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Заявку схвалено: Листом' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Заявку відхилено: У дзвіночку' })).toBeChecked();

  const approval = await decided(page.request, token, 'approved');
  const rejection = await decided(page.request, token, 'rejected');
  await open(page, '/');
  await page.getByRole('button', { name: /^Сповіщення/ }).click();
  const panel = page.getByRole('region', { name: 'Сповіщення' });
  // The rejection, announced after the approval, is there: so the approval would have been too.
  await expect(panel.getByText(`Вашу заявку на турнір «${rejection.title}» відхилено.`)).toBeVisible();
  await expect(panel.getByText(approval.title)).toHaveCount(0);
});
