import { randomUUID } from 'node:crypto';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { bearer, expect, open, test, tokenOf, tokenOfPage } from './fixtures.ts';

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
