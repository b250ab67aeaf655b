import { expect, open, settled, test, useToken } from './fixtures.ts';

/*
 * Match day schedules in the browser (issue 22): the admin times a stage in the «Етапи» window in
 * their own zone, the bracket page shows the time in the reader's zone (Kyiv's, marked, without
 * JavaScript), and the player finds the match in the cabinet's «Мої матчі» with its time and links,
 * gets the personal calendar address and changes it, after which the old one answers 404.
 */

// Everyone here reads in New York: 18:00 there is 22:00 UTC, 01:00 the next day in Kyiv.
const ZONE = 'America/New_York';
test.use({ timezoneId: ZONE });

type Stages = { stages: { matches: { _id: string; scheduledAt: string | null }[] }[] };

test('the admin schedules a round in the Етапи window; the bracket and the player’s cabinet show it in the reader’s time; the personal feed is shown and revoked', async ({
  player,
  browser,
  tournament,
  request,
}) => {
  const { id, title, admin } = await tournament(['KozakSniper', 'OdesaWave']);

  const adminPage = await (await browser.newContext({ timezoneId: ZONE, locale: 'uk-UA' })).newPage();
  await useToken(adminPage, admin);
  await open(adminPage, `/tournaments/${id}`);
  await settled(adminPage);
  await adminPage.getByRole('button', { name: 'Етапи', exact: true }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Етапи' });
  await expect(dialog).toBeVisible();
  await settled(adminPage);
  await dialog.getByText('Розклад', { exact: true }).click();
  // Without a start the form says so and sends nothing.
  await dialog.getByRole('button', { name: 'Призначити час' }).click();
  await expect(dialog.getByText('Вкажіть дату й час початку.')).toBeVisible();
  await dialog.getByLabel('Початок (ваш час)').fill('2031-06-01T18:00');
  await dialog.getByLabel('Тури').selectOption({ label: 'Фінал' });
  await expect(dialog.getByLabel('Хвилин на тур')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Призначити час' }).click();
  await expect(dialog.getByText('Час призначено 1 матчу.')).toBeVisible();
  // The board is read again: the match carries its time, in the admin's zone.
  await expect(dialog.getByText('1 червня 2031 р. о 18:00')).toBeVisible();
  const stages = (await (await request.get(`/api/tournaments/${id}/stages`)).json()) as Stages;
  const match = stages.stages[0]!.matches[0]!;
  expect(match.scheduledAt).toBe('2031-06-01T22:00:00.000Z');
  await adminPage.context().close();

  // The bracket page: the server writes Kyiv's time, marked; the browser rewrites it in New York's.
  const html = await (await request.get(`/tournament/${id}/bracket`)).text();
  expect(html).toContain('2 черв. 2031 р., 01:00');
  expect(html).toContain('(за Києвом)');
  await open(player, `/tournament/${id}/bracket`);
  const card = player.getByRole('article').filter({ has: player.getByRole('link', { name: 'Матч 1', exact: true }) });
  await expect(card.locator(`time[datetime="${match.scheduledAt}"]`)).toHaveText('1 черв. 2031 р., 18:00');
  await expect(card.getByText('(за Києвом)')).toHaveCount(0);

  // The cabinet: the match with its opponent, tournament, time and links.
  // Not `settled`: the demo player's match history below keeps its «Завантажити ще» button.
  await open(player, '/cabinet');
  const mine = player.getByRole('region', { name: 'Мої матчі' });
  const item = mine.getByRole('article').filter({ has: player.getByRole('link', { name: title, exact: true }) });
  await expect(item).toContainText('проти OdesaWave');
  await expect(item.locator('time')).toHaveText('1 червня 2031 р. о 18:00');
  await expect(item.getByRole('link', { name: 'Сторінка матчу' })).toHaveAttribute('href', `/matches/${match._id}`);
  await expect(item.getByRole('link', { name: 'Звітувати' })).toHaveAttribute('href', `/matches/${match._id}`);

  // The personal calendar: asked for on demand, works; changed after a confirm step, the old one is gone.
  const calendar = mine.getByRole('region', { name: 'Мій календар' });
  await calendar.getByRole('button', { name: 'Показати адресу календаря' }).click();
  const address = calendar.getByLabel('Адреса календаря');
  await expect(address).toHaveValue(/\/api\/calendar\/[\w-]+\.ics$/);
  const oldPath = new URL(await address.inputValue()).pathname;
  const feed = await player.request.get(oldPath);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toContain('text/calendar');
  expect(await feed.text()).toContain('OdesaWave');

  await calendar.getByRole('button', { name: 'Змінити адресу' }).click();
  await expect(calendar.getByRole('alert')).toContainText('Стара адреса перестане працювати');
  await calendar.getByRole('button', { name: 'Скасувати' }).click();
  expect((await player.request.get(oldPath)).status()).toBe(200);
  await calendar.getByRole('button', { name: 'Змінити адресу' }).click();
  await calendar.getByRole('button', { name: 'Так, змінити' }).click();
  await expect(calendar.getByText('Адресу календаря змінено: стара більше не працює.')).toBeVisible();
  await expect(address).not.toHaveValue(new RegExp(`${oldPath}$`));
  expect((await player.request.get(oldPath)).status()).toBe(404);
  expect((await player.request.get(new URL(await address.inputValue()).pathname)).status()).toBe(200);
});

test('the tournament page links its calendar feed and shows its date marked as Kyiv’s until the browser rewrites it', async ({ page, tournament }) => {
  const { id } = await tournament(['KozakSniper', 'OdesaWave'], { draw: false });
  await open(page, `/tournaments/${id}`);
  const link = page.getByRole('link', { name: 'Додати в календар' });
  await expect(link).toHaveAttribute('href', `/api/tournaments/${id}/calendar.ics`);
  expect((await page.request.get(`/api/tournaments/${id}/calendar.ics`)).status()).toBe(200);
  // The day is stored as midnight UTC: 03:00 in Kyiv, 20:00 the evening before in New York.
  const html = await (await page.request.get(`/tournaments/${id}`)).text();
  expect(html).toContain('1 червня 2031 р. о 03:00');
  await expect(page.locator('main time[datetime]').first()).toHaveText('31 травня 2031 р. о 20:00');
  await expect(page.getByText('(за Києвом)')).toHaveCount(0);
});
