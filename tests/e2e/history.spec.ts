import { E2E_ADMIN } from '../../playwright.config.ts';
import { bearer, expect, open, settled, test, tokenOf } from './fixtures.ts';
import type { APIRequestContext } from '@playwright/test';

/*
 * The history of changes (issue 23): the tournament page shows what changed and when to everyone,
 * without JavaScript and without naming who; its organisers see who too; the admin filters the
 * whole log.
 */

/** A two-player tournament of its own, drawn, its final played 2:0: four entries in its history. */
async function playedCup(request: APIRequestContext, tournament: (players: string[]) => Promise<{ id: string; admin: string }>) {
  const cup = await tournament(['KozakSniper', 'Kyiv_Cyborg']);
  const stages = (await (await request.get(`/api/tournaments/${cup.id}/stages`)).json()) as { stages: { matches: { _id: string; version: number }[] }[] };
  const final = stages.stages[0]!.matches[0]!;
  const saved = await request.patch(`/api/matches/${final._id}`, { headers: bearer(cup.admin), data: { scoreA: 2, scoreB: 0, version: final.version } });
  expect(saved.status()).toBe(200);
  return cup;
}

const adminName = async (request: APIRequestContext) =>
  ((await (await request.get('/api/users/me', { headers: bearer(await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password)) })).json()) as { username: string }).username;

test('a guest reads on the tournament page what changed and when, without JavaScript, and nobody’s name as who made it', async ({ browser, request, tournament }) => {
  const cup = await playedCup(request, tournament);
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  await page.goto(`/tournaments/${cup.id}`);
  const history = page.getByRole('region', { name: 'Історія змін' });
  await expect(history.getByRole('listitem')).toHaveCount(4);
  await expect(history.getByRole('listitem').first()).toContainText('KozakSniper — Kyiv_Cyborg: результат 2:0');
  await expect(history.getByRole('link', { name: 'KozakSniper — Kyiv_Cyborg: результат 2:0' })).toHaveAttribute('href', /^\/matches\//);
  await expect(history).toContainText('Створено етап «Етап 1» (Олімпійська система): 2 учасники');
  await expect(history).toContainText('Заявка KozakSniper: На розгляді → Схвалено');
  await expect(history.locator('time')).toHaveCount(4);
  await expect(history).not.toContainText('Змінив');
  expect(await history.innerHTML()).not.toContain(await adminName(request));
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await context.close();
});

test('the admin sees who made each change, and narrows the whole log by kind and by person', async ({ admin, request, tournament }) => {
  const cup = await playedCup(request, tournament);
  const name = await adminName(request);
  await open(admin, `/tournaments/${cup.id}`);
  await settled(admin);
  const history = admin.getByRole('region', { name: 'Історія змін' });
  await expect(history.getByText(`Змінив(-ла): ${name}`)).toHaveCount(4);

  await open(admin, '/admin?section=audit');
  const log = admin.getByRole('list', { name: 'Журнал змін' });
  // The log is the whole site's: tests running beside this one write to it too, so read our cup's entries.
  const { title } = (await (await request.get(`/api/tournaments/${cup.id}`)).json()) as { title: string };
  const ours = log.getByRole('listitem').filter({ hasText: title });
  await expect(ours.first()).toContainText('KozakSniper — Kyiv_Cyborg: результат 2:0');
  await admin.getByLabel('Що змінено').selectOption({ label: 'Етап створено' });
  await expect(ours.first()).toContainText('Створено етап');
  await expect(log.getByRole('listitem').filter({ hasText: 'результат 2:0' })).toHaveCount(0);
  await ours.first().getByRole('button', { name: `Змінив(-ла): ${name}` }).click();
  await expect(admin.getByText(`Лише зміни ${name}`)).toBeVisible();
  await admin.getByRole('button', { name: 'Скинути фільтри' }).click();
  await expect(admin.getByLabel('Що змінено')).toHaveValue('');
  await expect(ours.first()).toContainText('результат 2:0');
});
