import { bearer, current, expect, hydrated, signIn, test } from './fixtures.ts';

/*
 * Players report results on the match page (issue 22): two players in two browsers — one reports,
 * the other confirms, and the page shows the result and its history; or the other disputes and
 * the admin's result settles it.
 */

type Stages = { stages: { matches: { _id: string; a: string | null; b: string | null; version: number }[] }[] };

test('one player reports, the other confirms in another browser, and the match page shows the result and its history', async ({
  player,
  browser,
  tournament,
  request,
}) => {
  const { id, title } = await tournament(['KozakSniper', 'OdesaWave']);
  const stages = (await (await request.get(`/api/tournaments/${id}/stages`)).json()) as Stages;
  const matchId = stages.stages[0]!.matches[0]!._id;

  // The bracket's match card leads to the match page.
  await player.goto(`/tournament/${id}/bracket`);
  await player.getByRole('link', { name: 'M1', exact: true }).first().click();
  await expect(player).toHaveURL(`/matches/${matchId}`);
  await expect(player).toHaveTitle(new RegExp(`KozakSniper проти OdesaWave — ${title}`));
  await hydrated(player);
  await player.getByLabel('Рахунок: KozakSniper').fill('16');
  await player.getByLabel('Рахунок: OdesaWave').fill('12');
  await player.getByRole('button', { name: 'Надіслати рахунок' }).click();
  await expect(player.getByText('Рахунок надіслано: чекаємо на підтвердження суперника')).toBeVisible();
  await expect(player.getByText(/KozakSniper повідомляє рахунок 16:12; підтвердження до/)).toBeVisible();
  // The reporter cannot confirm their own report.
  await expect(player.getByRole('button', { name: /Підтвердити/ })).toHaveCount(0);
  // Read anew, a change of the waiting report starts from the score sent, not from blank fields.
  await player.reload();
  await hydrated(player);
  await expect(player.getByRole('button', { name: 'Змінити свій звіт' })).toBeVisible();
  await expect(player.getByLabel('Рахунок: KozakSniper')).toHaveValue('16');
  await expect(player.getByLabel('Рахунок: OdesaWave')).toHaveValue('12');

  const other = await (await browser.newContext()).newPage();
  await signIn(other, 'OdesaWave');
  await other.goto(`/matches/${matchId}`);
  await hydrated(other);
  await expect(other.getByText(/Суперник повідомив рахунок 16:12/)).toBeVisible();
  await other.getByRole('button', { name: 'Підтвердити 16:12' }).click();
  const history = other.getByRole('region', { name: 'Історія матчу' });
  await expect(history.getByText('OdesaWave підтверджує рахунок 16:12')).toBeVisible();
  await expect(history.getByText('KozakSniper повідомляє рахунок 16:12')).toBeVisible();
  await expect(other.getByText('Завершено', { exact: true })).toBeVisible();
  await expect(other.getByRole('button', { name: /Підтвердити|Оскаржити/ })).toHaveCount(0);

  // The reporter's page, read anew, shows the same.
  await player.reload();
  await expect(player.getByRole('region', { name: 'Історія матчу' }).getByText('OdesaWave підтверджує рахунок 16:12')).toBeVisible();
  await other.context().close();
});

test('the other player disputes the report with a reason, and the admin’s result settles it', async ({ player, browser, tournament, request }) => {
  const { id, admin } = await tournament(['KozakSniper', 'KharkivHawk']);
  const stages = (await (await request.get(`/api/tournaments/${id}/stages`)).json()) as Stages;
  const matchId = stages.stages[0]!.matches[0]!._id;

  await player.goto(`/matches/${matchId}`);
  await hydrated(player);
  await player.getByLabel('Рахунок: KozakSniper').fill('1');
  await player.getByLabel('Рахунок: KharkivHawk').fill('0');
  await player.getByRole('button', { name: 'Надіслати рахунок' }).click();
  await expect(player.getByText('Рахунок надіслано: чекаємо на підтвердження суперника')).toBeVisible();

  const other = await (await browser.newContext()).newPage();
  await signIn(other, 'KharkivHawk');
  await other.goto(`/matches/${matchId}`);
  await hydrated(other);
  await other.getByRole('button', { name: 'Оскаржити' }).click();
  await other.getByLabel('Чому рахунок неправильний').fill('Насправді я виграв 1:0');
  await other.getByRole('button', { name: 'Надіслати скаргу' }).click();
  await expect(other.getByText('Результат оскаржено: рішення за організатором')).toBeVisible();
  await expect(other.getByText('Насправді я виграв 1:0')).toBeVisible();
  await expect(other.getByRole('button', { name: /Підтвердити|Оскаржити/ })).toHaveCount(0);

  // The admin decides through the match edit the stages window uses.
  const disputed = await current<{ match: { version: number } }>(request, `/api/matches/${matchId}`);
  const resolved = await request.patch(`/api/matches/${matchId}`, { headers: bearer(admin), data: { scoreA: 0, scoreB: 1, version: disputed.match.version } });
  expect(resolved.status()).toBe(200);
  await other.reload();
  await expect(other.getByText('Результат оскаржено: рішення за організатором')).toHaveCount(0);
  await expect(other.getByRole('region', { name: 'Історія матчу' }).getByText(/вносить результат 0:1/)).toBeVisible();
  await expect(other.getByText('Завершено', { exact: true })).toBeVisible();
  await other.context().close();
});

test('the match page works without JavaScript at 360 px, in English too', async ({ browser, tournament, request }) => {
  const { id } = await tournament(['KozakSniper', 'LvivLion']);
  const stages = (await (await request.get(`/api/tournaments/${id}/stages`)).json()) as Stages;
  const matchId = stages.stages[0]!.matches[0]!._id;
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(`/matches/${matchId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/KozakSniper\s+проти\s+LvivLion/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /KozakSniper проти LvivLion/);
  await expect(page.getByText('Готовий', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await context.addCookies([{ name: 'lang', value: 'en', url: page.url() }]);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/KozakSniper\s+vs\s+LvivLion/);
  await expect(page.getByRole('heading', { name: 'Match history' })).toBeVisible();
  await context.close();
});
