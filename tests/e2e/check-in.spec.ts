import { randomUUID } from 'node:crypto';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { bearer, current, expect, test, tokenOf } from './fixtures.ts';

// Registration and check-in (issue 22): a player applies to a full tournament and waits, moves up
// when another withdraws, and checks in while the window is open.

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

test('a waitlisted player moves up when another withdraws, and checks in while the window is open', async ({ player: page }) => {
  const request = page.request;
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const created = await request.post('/api/tournaments', {
    headers: bearer(admin),
    data: {
      title: `Черга ${randomUUID().slice(0, 8)}`,
      date: at(2),
      game: games.find((g) => g.name === 'League of Legends')!._id,
      soloOnly: true,
      maxParticipants: 2,
      checkInEnabled: true,
      checkInOpensAt: at(-1),
      checkInClosesAt: at(1),
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  // Two other players take both places.
  const others: { token: string; application: string }[] = [];
  for (const nick of ['Berezhany_Bow', 'Ochakiv_Anchor']) {
    const token = await tokenOf(request, nick);
    const applied = await request.post('/api/applications', { headers: bearer(token), data: { tournament: id } });
    expect(applied.status(), nick).toBe(201);
    others.push({ token, application: ((await applied.json()) as { application: { _id: string } }).application._id });
  }

  await page.goto(`/tournaments/${id}`);
  await expect(page.getByTestId('places')).toHaveText('2 заявки на 2 місця, з них схвалено 0');
  await page.getByRole('button', { name: 'Подати заявку' }).click();
  await expect(page.getByText('Усі місця зайняті: заявку додано до списку очікування.', { exact: false })).toBeVisible();
  await expect(page.getByText('Заявка в списку очікування: 1-а в черзі.')).toBeVisible();

  // One of them withdraws: the place is the waiting player's (pending, for the admin to review).
  expect((await request.delete(`/api/applications/${others[0]!.application}`, { headers: bearer(others[0]!.token) })).status()).toBe(200);
  await page.reload();
  await expect(page.getByText('Заявка чекає на розгляд організатора.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Підтвердити участь' })).toHaveCount(0);

  // Approved, the player checks in while the window is open, and can undo it.
  const eligibility = (await (await request.get(`/api/tournaments/${id}/eligibility`, { headers: bearer(await tokenOf(request, 'KozakSniper')) })).json()) as {
    application: { _id: string };
  };
  expect((await request.patch(`/api/applications/${eligibility.application._id}/status`, { headers: bearer(admin), data: { status: 'approved' } })).ok()).toBe(
    true,
  );
  await page.reload();
  await expect(page.getByText('Заявку схвалено — ви серед учасників.')).toBeVisible();
  await page.getByRole('button', { name: 'Підтвердити участь' }).click();
  await expect(page.getByText('Ви підтвердили участь.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Скасувати підтвердження' })).toBeVisible();
  const detail = await current<{ applications: { _id: string; checkedInAt: string | null }[] }>(request, `/api/tournaments/${id}`);
  expect(detail.applications.find((a) => a._id === eligibility.application._id)?.checkedInAt).not.toBeNull();
});
