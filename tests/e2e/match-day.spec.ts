import { randomUUID } from 'node:crypto';
import { E2E_ADMIN } from '../../playwright.config.ts';
import type { StagesState } from '../../src/lib/api/stages.ts';
import { bearer, DEMO_PLAYER, expect, hydrated, signIn, test, tokenOf } from './fixtures.ts';

/*
 * Match day end to end (issue 22): two players in two browsers check in, play, report and confirm,
 * and a third browser watching the bracket page sees the result arrive without reloading.
 */

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const OPPONENT = 'OdesaWave';

test('two players check in, one reports, the other confirms, and a viewer of the bracket sees the result live', async ({ player, browser }) => {
  const request = player.request;
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  // League of Legends, as the other tests' own tournaments are: some tests count the CS2 cards.
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const title = `Матчдень ${randomUUID().slice(0, 8)}`;
  const created = await request.post('/api/tournaments', {
    headers: bearer(admin),
    data: { title, date: at(1), game: games.find((g) => g.name === 'League of Legends')!._id, soloOnly: true, checkInEnabled: true, checkInOpensAt: at(-1), checkInClosesAt: at(0.5) },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  for (const nick of [DEMO_PLAYER, OPPONENT]) {
    const applied = await request.post('/api/applications', { headers: bearer(await tokenOf(request, nick)), data: { tournament: id } });
    expect(applied.status(), nick).toBe(201);
    const application = ((await applied.json()) as { application: { _id: string } }).application._id;
    expect((await request.patch(`/api/applications/${application}/status`, { headers: bearer(admin), data: { status: 'approved' } })).ok()).toBe(true);
  }

  // Each player checks in on the tournament page, in a browser of their own.
  const opponent = await (await browser.newContext()).newPage();
  await signIn(opponent, OPPONENT);
  for (const page of [player, opponent]) {
    await page.goto(`/tournaments/${id}`);
    await hydrated(page);
    await page.getByRole('button', { name: 'Підтвердити участь' }).click();
    await expect(page.getByText('Ви підтвердили участь.')).toBeVisible();
  }

  // The organiser draws the stage: only the checked-in players are seeded.
  const stage = await request.post(`/api/tournaments/${id}/stages`, { headers: bearer(admin), data: { format: 'single_elimination' } });
  expect(stage.status()).toBe(201);
  const state = (await (await request.get(`/api/tournaments/${id}/stages`)).json()) as StagesState;
  const match = state.stages[0]!.matches[0]!;
  expect(match.status).toBe('ready');

  // A guest watches the bracket page, its event stream open.
  const viewer = await (await browser.newContext()).newPage();
  const stream = viewer.waitForResponse((r) => r.url().endsWith(`/api/tournaments/${id}/events`) && r.status() === 200);
  await viewer.goto(`/tournament/${id}/bracket`);
  await stream;
  await expect(viewer.getByText('Зіграно матчів: 0 з 1')).toBeVisible();
  await viewer.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  // One side reports on the match page, the other confirms.
  const sides = [match.a, match.b];
  const names = Object.fromEntries(state.participants.map((p) => [p._id, p.name]));
  await player.goto(`/matches/${match._id}`);
  await hydrated(player);
  await player.getByLabel(`Рахунок: ${names[sides[0]!]}`).fill('1');
  await player.getByLabel(`Рахунок: ${names[sides[1]!]}`).fill('0');
  await player.getByRole('button', { name: 'Надіслати рахунок' }).click();
  await expect(player.getByText('Рахунок надіслано: чекаємо на підтвердження суперника')).toBeVisible();
  // The watching guest sees the report waiting, still without a reload.
  await expect(viewer.getByText('Чекає підтвердження')).toBeVisible();

  await opponent.goto(`/matches/${match._id}`);
  await hydrated(opponent);
  await opponent.getByRole('button', { name: 'Підтвердити 1:0' }).click();
  await expect(opponent.getByText('Завершено', { exact: true })).toBeVisible();

  await expect(viewer.getByText('Зіграно матчів: 1 з 1')).toBeVisible();
  await expect(viewer.getByText('Чекає підтвердження')).toHaveCount(0);
  expect(await viewer.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await Promise.all([opponent.context().close(), viewer.context().close()]);
});
