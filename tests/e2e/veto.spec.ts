import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { bearer, expect, open, test, tokenOf, useToken } from './fixtures.ts';
import { vetoFinal } from './tournament-setup.ts';

/*
 * The map veto on phones (issue 58): two players, each on a 360 px screen, play Valve's Bo1 with
 * the buttons the page gives the side whose turn it is, while a guest's page follows every move
 * live; axe finds nothing serious on the room.
 */

const PHONE = { width: 360, height: 800 };
const POOL = ['Ancient', 'Anubis', 'Dust II', 'Inferno', 'Mirage', 'Nuke', 'Overpass'];

async function phone(browser: Browser, token?: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  if (token) await useToken(page, token);
  return page;
}

test('the admin gives a game its map pool; two players veto a Bo1 on their phones, turn by turn, and a guest sees it live', async ({ browser, request }) => {
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  // A game of its own, so the demo games' lists stay as other tests count them; its pool set in the admin's games panel.
  const name = `Вето ${randomUUID().slice(0, 8)}`;
  const game = ((await (await request.post('/api/games', { headers: bearer(admin), data: { name } })).json()) as { game: { _id: string } }).game._id;
  const desk = await phone(browser, admin);
  await open(desk, '/admin?section=games');
  await desk.getByRole('button', { name: `Редагувати: ${name}` }).click();
  const poolForm = desk.getByRole('form', { name: `Пул карт гри ${name}` });
  await poolForm.getByLabel('Карти для вето (по одній у рядку)').fill(POOL.join('\n'));
  await poolForm.getByRole('button', { name: 'Зберегти пул карт' }).click();
  await expect(desk.getByText('Назвіть обидві стартові сторони гри (наприклад, CT і T)')).toBeVisible();
  await poolForm.getByLabel('Стартова сторона 1').fill('CT');
  await poolForm.getByLabel('Стартова сторона 2').fill('T');
  await poolForm.getByRole('button', { name: 'Зберегти пул карт' }).click();
  await expect(desk.getByText('Пул карт збережено')).toBeVisible();
  await desk.context().close();
  expect(await (await request.get(`/api/games/${game}/maps`)).json()).toEqual({ maps: POOL, sides: ['CT', 'T'] });
  const { matchId, tokens } = await vetoFinal(request, admin, { title: name, game, bestOf: 1, players: ['KozakSniper', 'OdesaWave'] });

  const first = await phone(browser, tokens.KozakSniper);
  const second = await phone(browser, tokens.OdesaWave);
  const guest = await phone(browser);
  for (const page of [first, second, guest]) await open(page, `/matches/${matchId}`);
  const turn = (page: Page) => page.getByRole('region', { name: 'Ваш хід у вето', exact: true });
  const vetoOf = (page: Page) => page.getByRole('region', { name: 'Вето карт', exact: true });

  // The higher seed starts: KozakSniper chooses to be Team A; the guest sees it without a reload.
  await expect(vetoOf(guest)).toContainText('Починає KozakSniper — вища сіяна сторона');
  await expect(turn(second)).toHaveCount(0);
  await turn(first).getByRole('button', { name: 'Командою A' }).click();
  await expect(vetoOf(guest)).toContainText('Зараз: KozakSniper викреслює карту');

  // Valve's Bo1: A bans two, B three, A one; B chooses the side on the map left.
  const ban = async (page: Page, map: string) => {
    await turn(page)
      .getByRole('button', { name: `Викреслити ${map}` })
      .click();
    await expect(vetoOf(page)).toContainText(`${map} (`);
  };
  await ban(first, 'Nuke');
  await ban(first, 'Ancient');
  await expect(turn(first)).toHaveCount(0);
  await ban(second, 'Anubis');
  await ban(second, 'Overpass');
  await ban(second, 'Inferno');
  await expect(vetoOf(guest)).toContainText('Зараз: KozakSniper викреслює карту');
  await ban(first, 'Mirage');
  // Dust II is left: the decider; OdesaWave chooses the side.
  await expect(turn(second)).toContainText('Оберіть стартову сторону на карті Dust II');
  const axe = await new AxeBuilder({ page: second }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  await turn(second).getByRole('button', { name: 'Почати за CT' }).click();
  await expect(turn(second)).toHaveCount(0);

  const played = vetoOf(guest).getByRole('listitem');
  await expect(played).toHaveCount(1);
  await expect(played.first()).toContainText('Dust II');
  await expect(played.first()).toContainText('десайдер');
  await expect(played.first()).toContainText('OdesaWave починає за CT');
  await expect(vetoOf(guest)).toContainText(
    'Викреслено: Nuke (KozakSniper), Ancient (KozakSniper), Anubis (OdesaWave), Overpass (OdesaWave), Inferno (OdesaWave), Mirage (KozakSniper)',
  );
  await expect(vetoOf(guest).getByText(/^Зараз:/)).toHaveCount(0);
  for (const page of [first, second, guest]) await page.context().close();
});
