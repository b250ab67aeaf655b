import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { bearer, expect, hydrated, open, signIn, test, tokenOf } from './fixtures.ts';

/*
 * An organiser's venue network (issue 57, decision 035): a co-organiser asks for the hall's network
 * in the control room, the site's admin approves it in /admin, the control room says it works now,
 * and the organiser withdraws it. Axe finds nothing serious on either side.
 */

test('an organiser asks for the hall’s network, the admin approves it, the organiser withdraws it', async ({ admin, browser, request }) => {
  test.setTimeout(120_000);
  const boss = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const title = `Зала ${randomUUID().slice(0, 8)}`;
  // A game of its own, so the demo games' lists other tests read stay as they are.
  const game = (await (await request.post('/api/games', { headers: bearer(boss), data: { name: title } })).json()) as { game: { _id: string } };
  const created = await request.post('/api/tournaments', {
    headers: bearer(boss),
    data: { title, date: new Date(Date.now() + 3 * 3_600_000).toISOString(), game: game.game._id, soloOnly: true },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  expect((await request.post(`/api/tournaments/${id}/staff`, { headers: bearer(boss), data: { user: 'LvivLion' } })).status()).toBe(201);

  // The co-organiser asks in the control room; a loopback network is refused with the start's own sentence.
  const context = await browser.newContext();
  const organiser = await context.newPage();
  await signIn(organiser, 'LvivLion');
  await open(organiser, `/tournaments/${id}/control`);
  const desk = organiser.getByRole('region', { name: 'Мережа зали' });
  await expect(desk).toBeVisible();
  await desk.getByLabel(/IP-адреси або мережі зали/).fill('127.0.0.1');
  await desk.getByLabel('Назва зали').fill('Клуб на Площі Ринок');
  await desk.getByRole('button', { name: 'Надіслати на схвалення' }).click();
  await expect(desk.getByText(/«127\.0\.0\.1» містить loopback/)).toBeVisible();
  await desk.getByLabel(/IP-адреси або мережі зали/).fill('192.0.2.0/24, 2001:db8:99::/48');
  await desk.getByRole('button', { name: 'Надіслати на схвалення' }).click();
  await expect(desk.getByText('Запит на мережу зали надіслано адміністраторові сайту')).toBeVisible();
  await expect(desk.getByText('Чекає на схвалення адміністратора')).toBeVisible();
  await expect(desk.getByText('192.0.2.0/24, 2001:db8:99::/48')).toBeVisible();
  expect((await new AxeBuilder({ page: organiser }).include('#venue-network-title').analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // The admin finds it among the waiting ones and approves it.
  await open(admin, '/admin?section=venues');
  await expect(admin.getByRole('heading', { level: 2, name: 'Мережі залів від організаторів' })).toBeVisible();
  const item = admin.locator('li', { hasText: 'Клуб на Площі Ринок' });
  await expect(item.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  const axe = await new AxeBuilder({ page: admin }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await item.getByRole('button', { name: 'Схвалити' }).click();
  await expect(admin.getByText('Мережу зали «Клуб на Площі Ринок» схвалено')).toBeVisible();
  await expect(admin.getByRole('region', { name: /Схвалені/ }).getByText('Клуб на Площі Ринок')).toBeVisible();

  // The organiser sees it approved and working, and withdraws it.
  await organiser.reload();
  await hydrated(organiser);
  await expect(desk.getByText('Схвалено')).toBeVisible();
  await expect(desk.getByText('· Діє зараз')).toBeVisible();
  organiser.once('dialog', (dialog) => void dialog.accept());
  await desk.getByRole('button', { name: 'Відкликати' }).click();
  await expect(desk.getByText('Мережу зали відкликано')).toBeVisible();
  await expect(desk.getByRole('button', { name: 'Надіслати на схвалення' })).toBeVisible();
  await context.close();
});
