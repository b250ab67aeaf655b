import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { setResult } from '../../src/lib/domain/bracket.ts';
import { bearer, current, expect, open, reachFor, signIn, test, tokenOfPage } from './fixtures.ts';
import type { BracketAnswer } from './tournament-setup.ts';

async function tournamentId(request: APIRequestContext, title: string): Promise<string> {
  const list = (await (await request.get('/api/tournaments')).json()) as { _id: string; title: string }[];
  const found = list.find((t) => t.title === title);
  if (!found) throw new Error(`no tournament «${title}»`);
  return found._id;
}

async function bracketOf(request: APIRequestContext, id: string): Promise<BracketAnswer> {
  return current<BracketAnswer>(request, `/api/tournaments/${id}/bracket`);
}

/** Opens the tournament page and its bracket modal. */
async function openBracket(page: Page, id: string): Promise<Locator> {
  await open(page, `/tournaments/${id}`);
  // A guest's «Сітка» is a link to the bracket page until React comes, when the pointer reaches it.
  await reachFor(page.getByRole('link', { name: 'Сітка', exact: true }).or(page.getByRole('button', { name: 'Сітка', exact: true })));
  await page.getByRole('button', { name: 'Сітка', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Турнірна сітка' });
  await expect(dialog).toBeVisible();
  return dialog;
}

const match = (scope: Locator, label: string) => scope.getByRole('article', { name: label, exact: true });
const winnerRow = (card: Locator, name: string) => card.getByRole('listitem').filter({ hasText: name }).getByRole('img', { name: 'переможець' });

test('an admin creates the bracket of a pending tournament, records a result with a quick button, corrects one after confirming, and draws again', async ({
  admin: page,
  request,
}) => {
  // Eleven saves through the modal, each waited for.
  test.slow();
  const id = await tournamentId(request, 'Київська ліга CS2: відбірковий етап');
  // A retry starts from no bracket again.
  const token = tokenOfPage(page);
  await request.patch(`/api/tournaments/${id}/bracket`, { headers: bearer(token), data: { bracket: [] } });
  const before = (await (await request.get(`/api/tournaments/${id}`)).json()) as { title: string; date: string; game: string };
  await request.put(`/api/tournaments/${id}`, { headers: bearer(token), data: { title: before.title, date: before.date, game: before.game, status: 'pending' } });
  // The four approved teams in application order, as the server will seed them.
  const [t1, t2, t3, t4] = (await bracketOf(request, id)).participants.map((p) => p.name) as [string, string, string, string];

  const dialog = await openBracket(page, id);
  await expect(dialog.getByText('Ще немає сітки')).toBeVisible();
  await expect(dialog).toContainText('Схвалених учасників: 4');
  // The tournament is pending: drawing closes applications and starts it, so the admin confirms first.
  await dialog.getByRole('button', { name: 'Створити сітку', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('Створення сітки закриє заявки й розпочне турнір (статус «Розпочато»).');
  await dialog.getByRole('button', { name: 'Скасувати' }).click();
  expect((await bracketOf(request, id)).bracket).toEqual([]);
  await dialog.getByRole('button', { name: 'Створити сітку', exact: true }).click();
  await dialog.getByRole('button', { name: 'Так, створити й розпочати' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Сітку створено' })).toHaveText('Сітку створено для 4 учасників!');
  expect((await current<{ status: string }>(request, `/api/tournaments/${id}`)).status).toBe('started');

  await expect(dialog.getByRole('heading', { level: 3 })).toHaveText(['Півфінал', 'Фінал']);
  const progress = dialog.getByRole('progressbar', { name: 'Прогрес турніру' });
  await expect(progress).toHaveAttribute('aria-valuetext', 'Зіграно матчів: 0 з 3 (0%)');
  const semi1 = match(dialog, 'Півфінал, матч 1');
  const semi2 = match(dialog, 'Півфінал, матч 2');
  const final = match(dialog, 'Фінал, матч 1');
  await expect(semi1).toContainText('Готовий');
  await expect(semi1.getByRole('listitem')).toHaveText([t1, t2]);
  await expect(final).toContainText('Очікує');

  // The quick button: the winner is crowned and advances to the final.
  await semi1.getByRole('button', { name: `${t1} переміг` }).click();
  await expect(semi1).toContainText('Завершено');
  // The quick buttons are gone; the keyboard stays on the match.
  await expect(semi1.getByRole('button', { name: 'Редагувати: Півфінал, матч 1' })).toBeFocused();
  await expect(winnerRow(semi1, t1)).toBeVisible();
  await expect(final.getByRole('listitem')).toHaveText([t1, 'Ще невідомо']);
  await expect(progress).toHaveAttribute('aria-valuetext', 'Зіграно матчів: 1 з 3 (33%)');

  await semi2.getByRole('button', { name: `${t4} переміг` }).click();
  await expect(final).toContainText('Готовий');
  await final.getByRole('button', { name: `${t4} переміг` }).click();
  await expect(winnerRow(final, t4)).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuetext', 'Зіграно матчів: 3 з 3 (100%)');

  // Correcting a semifinal withdraws the final's result: it is shown first, and the admin confirms.
  await semi1.getByRole('button', { name: 'Редагувати: Півфінал, матч 1' }).click();
  const editor = page.getByRole('dialog', { name: 'Півфінал, матч 1' });
  await expect(editor.getByRole('button', { name: t1 })).toHaveAttribute('aria-pressed', 'true');
  await editor.getByRole('button', { name: t2 }).click();
  await editor.getByLabel('Коментар').fill('Перегляд повтору: гол не зараховано');
  await editor.getByRole('button', { name: 'Зберегти' }).click();
  await expect(editor.getByRole('alert')).toContainText('Ці пізніші результати буде скасовано:');
  await expect(editor.getByRole('alert').getByRole('listitem')).toHaveText([`Фінал, матч 1 — переміг ${t4}`]);
  await editor.getByRole('button', { name: 'Так, скасувати їх' }).click();
  await expect(editor).toBeHidden();
  await expect(semi1.getByRole('button', { name: 'Редагувати: Півфінал, матч 1' })).toBeFocused();
  // Escape in the editor closes the editor only.
  await page.keyboard.press('Enter');
  await expect(editor).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(winnerRow(semi1, t2)).toBeVisible();
  await expect(semi1).toContainText('Перегляд повтору: гол не зараховано');
  await expect(final.getByRole('listitem')).toHaveText([t2, t4]);
  await expect(final).toContainText('Готовий');
  await expect(progress).toHaveAttribute('aria-valuetext', 'Зіграно матчів: 2 з 3 (67%)');
  const saved = await bracketOf(request, id);
  expect(saved.bracket[1]!.matches[0]).toMatchObject({ winner: null, loser: null });
  expect(saved.bracket[0]!.matches[0]!.comment).toBe('Перегляд повтору: гол не зараховано');

  // Drawing again over results asks first, then sends replace: standard seeding pairs 1–4 and 2–3.
  await dialog.getByText('Створити сітку заново').click();
  await dialog.getByLabel('Стандартний посів (1 проти N, вільні проходи — найвищим)').check();
  await dialog.getByRole('button', { name: 'Створити сітку', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/Сітка вже має результати — їх буде втрачено/);
  await dialog.getByRole('button', { name: 'Так, створити заново' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Сітку створено' })).toHaveText('Сітку створено для 4 учасників!');
  await expect(semi1.getByRole('listitem')).toHaveText([t1, t4]);
  await expect(semi2.getByRole('listitem')).toHaveText([t2, t3]);
  await expect(progress).toHaveAttribute('aria-valuetext', 'Зіграно матчів: 0 з 3 (0%)');

  // Escape closes the modal; the page shows the started tournament, whose applications are closed.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: 'Участь' })).toContainText('Сітку вже сформовано — заявки на цей турнір закрито');

  // Leave the demo tournament as it was: pending, without a bracket (other tests read its card).
  await request.patch(`/api/tournaments/${id}/bracket`, { headers: bearer(token), data: { bracket: [] } });
  await request.put(`/api/tournaments/${id}`, { headers: bearer(token), data: { title: before.title, date: before.date, game: before.game, status: 'pending' } });
});

test('on a desktop the bracket modal draws the tree as the bracket page does, and at 360 px only the drawing scrolls sideways', async ({ admin: page, tournament }) => {
  const { id } = await tournament(['Stepan_Clutch', 'ZaporizhRush', 'SaloSlayer', 'LvivLion']);
  await page.setViewportSize({ width: 1280, height: 900 });
  const dialog = await openBracket(page, id);
  const drawing = dialog.getByRole('region', { name: 'Сітка: раунди зліва направо' });
  await expect(drawing.getByRole('heading', { level: 3 })).toHaveText(['Півфінал', 'Фінал']);
  // Rounds are columns side by side, the final level with the middle of its two semifinals.
  const semi1 = (await match(drawing, 'Півфінал, матч 1').boundingBox())!;
  const semi2 = (await match(drawing, 'Півфінал, матч 2').boundingBox())!;
  const final = (await match(drawing, 'Фінал, матч 1').boundingBox())!;
  expect(final.x).toBeGreaterThan(semi1.x + semi1.width);
  expect(Math.abs(semi1.x - semi2.x)).toBeLessThan(1);
  expect(Math.abs(final.y + final.height / 2 - (semi1.y + semi1.height / 2 + semi2.y + semi2.height / 2) / 2)).toBeLessThan(4);
  expect((await dialog.boundingBox())!.width).toBeGreaterThan(900);
  // The admin's quick results are on the drawn cards.
  await expect(match(drawing, 'Півфінал, матч 1').getByRole('button', { name: 'Stepan_Clutch переміг' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 360, height: 800 });
  await page.getByRole('button', { name: 'Сітка', exact: true }).click();
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await drawing.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(dialog.getByText('Сітка ширша за екран — гортайте її вбік.')).toBeVisible();
  await match(drawing, 'Півфінал, матч 1').getByRole('button', { name: 'Stepan_Clutch переміг' }).click();
  await expect(winnerRow(match(drawing, 'Півфінал, матч 1'), 'Stepan_Clutch')).toBeVisible();
});

test('a guest reads the whole bracket on its own page without JavaScript, and on a phone only the drawing scrolls', async ({ browser, request, tournament }) => {
  const { id, title, admin, ids, drawn } = await tournament(['Stepan_Clutch', 'ZaporizhRush', 'SaloSlayer', 'LvivLion', 'Mavka_Mid']);
  // Five players: one first-round match and three byes, who are through already.
  const played = setResult(drawn.bracket, 0, 0, ids.ZaporizhRush!, 'Три карти з трьох');
  expect((await request.patch(`/api/tournaments/${id}/bracket`, { headers: bearer(admin), data: { bracket: played, version: drawn.version } })).status()).toBe(200);

  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  const response = await page.goto(`/tournament/${id}/bracket`);
  expect(response?.headers()['cache-control']).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=60');
  await expect(page).toHaveTitle(`Турнірна сітка: ${title} — Кіберарена`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Турнірна сітка: ${title}`);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `Турнірна сітка: ${title} — Кіберарена`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', `Турнірна сітка турніру «${title}»: зіграно матчів — 4 з 7.`);
  await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute('content', /^http:\/\/127\.0\.0\.1:\d+\/.+/);

  const drawing = page.getByRole('region', { name: 'Сітка: раунди зліва направо' });
  await expect(drawing.getByRole('heading', { level: 2 })).toHaveText(['Чвертьфінал', 'Півфінал', 'Фінал']);
  const first = match(drawing, 'Чвертьфінал, матч 1');
  await expect(first).toContainText('Завершено');
  await expect(first).toContainText('Три карти з трьох');
  await expect(winnerRow(first, 'ZaporizhRush')).toBeVisible();
  await expect(drawing.getByText('Автоматичний прохід')).toHaveCount(3);
  await expect(match(drawing, 'Півфінал, матч 1').getByRole('listitem')).toHaveText(['ZaporizhRush', 'SaloSlayer']);
  await expect(match(drawing, 'Півфінал, матч 1')).toContainText('Готовий');
  await expect(match(drawing, 'Фінал, матч 1')).toContainText('Очікує');
  await expect(page.getByRole('progressbar', { name: 'Прогрес турніру' })).toHaveAttribute('aria-valuetext', 'Зіграно матчів: 4 з 7 (57%)');

  // At 360 px the page itself does not scroll sideways; the drawing does.
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
  expect(await drawing.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  await page.getByRole('link', { name: 'До турніру' }).click();
  await expect(page).toHaveURL(`/tournaments/${id}`);
  // Without JavaScript the tournament page's «Сітка» is a link to this page.
  await expect(page.getByRole('link', { name: 'Сітка', exact: true })).toHaveAttribute('href', `/tournament/${id}/bracket`);
  await context.close();
});

test('a guest opens the bracket modal and sees the bracket without any admin control; an empty bracket says so', async ({ page, request, tournament }) => {
  const { id } = await tournament(['OdesaWave', 'KharkivHawk']);
  const dialog = await openBracket(page, id);
  await expect(dialog.getByRole('heading', { level: 3 })).toHaveText(['Фінал']);
  await expect(match(dialog, 'Фінал, матч 1').getByRole('listitem')).toHaveText(['OdesaWave', 'KharkivHawk']);
  await expect(dialog.getByRole('button', { name: /переміг$/ })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /^Редагувати/ })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Створити сітку', exact: true })).toHaveCount(0);
  await expect(dialog.getByRole('link', { name: 'Окрема сторінка сітки' })).toHaveAttribute('href', `/tournament/${id}/bracket`);
  await dialog.getByRole('button', { name: 'Закрити' }).click();
  await expect(dialog).toBeHidden();

  const empty = await tournamentId(request, 'Кубок Карпат з Valorant');
  await page.goto(`/tournament/${empty}/bracket`);
  await expect(page.getByText('Ще немає сітки')).toBeVisible();
  const missing = await page.goto('/tournament/00000000-0000-4000-8000-000000000000/bracket');
  expect(missing?.status()).toBe(404);
});

test('two admins edit the same bracket: the second sees the first one’s result within a poll, and a save on an old copy is answered with the newer bracket', async ({
  admin: first,
  browser,
  request,
  tournament,
}) => {
  // Two browsers, five sign-ins and a poll to wait for.
  test.slow();
  const { id, ids } = await tournament(['Lesya_Support', 'Vyshyvanka_OP', 'Bandura_Beats', 'PoltavaPro']);
  const secondContext = await browser.newContext();
  const second = await secondContext.newPage();
  await signIn(second, E2E_ADMIN.email, E2E_ADMIN.password);

  const one = await openBracket(first, id);
  const two = await openBracket(second, id);
  await expect(match(two, 'Півфінал, матч 1')).toContainText('Готовий');

  await match(one, 'Півфінал, матч 1').getByRole('button', { name: 'Lesya_Support переміг' }).click();
  await expect(one.getByRole('status').filter({ hasText: 'Сітку оновлено!' })).toBeVisible();
  // One poll is 5000 ms.
  await expect(two.getByText('Сітку оновлено іншим адміністратором')).toBeVisible({ timeout: 6_000 });
  await expect(winnerRow(match(two, 'Півфінал, матч 1'), 'Lesya_Support')).toBeVisible();

  // The second admin's tab goes to the background: it stops polling and keeps its copy...
  await second.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await match(one, 'Півфінал, матч 2').getByRole('button', { name: 'Bandura_Beats переміг' }).click();
  await expect(winnerRow(match(one, 'Півфінал, матч 2'), 'Bandura_Beats')).toBeVisible();
  await expect(match(two, 'Півфінал, матч 2')).toContainText('Готовий');

  // ...so its save is based on the old version: the server answers with the newer bracket.
  await match(two, 'Півфінал, матч 2').getByRole('button', { name: 'PoltavaPro переміг' }).click();
  await expect(two.getByRole('alert')).toHaveText('Сітку вже змінив інший адміністратор. Показано новішу версію.');
  await expect(winnerRow(match(two, 'Півфінал, матч 2'), 'Bandura_Beats')).toBeVisible();
  await expect(match(two, 'Фінал, матч 1').getByRole('listitem')).toHaveText(['Lesya_Support', 'Bandura_Beats']);

  // No update was lost.
  const saved = await bracketOf(request, id);
  expect(saved.bracket[0]!.matches.map((m) => m.winner)).toEqual([ids.Lesya_Support, ids.Bandura_Beats]);
  expect(saved.version).toBe(3);
  await secondContext.close();
});

test('when the final is decided the admin declares the tournament winner in one step', async ({ admin: page, request, tournament }) => {
  const { id } = await tournament(['Chernihiv_Ghost', 'BorschtBoss']);
  const dialog = await openBracket(page, id);
  await match(dialog, 'Фінал, матч 1').getByRole('button', { name: 'BorschtBoss переміг' }).click();
  await expect(dialog).toContainText('Фінал зіграно: переміг BorschtBoss. Оголосити переможцем турніру?');
  await dialog.getByRole('button', { name: 'Оголосити BorschtBoss переможцем' }).click();
  // One call finished the started tournament and saved its winner.
  await expect(dialog.getByRole('status').filter({ hasText: 'Переможця збережено, турнір завершено!' })).toBeVisible();
  await expect(dialog).toContainText('Переможець турніру: BorschtBoss');

  // Closing the modal shows the page with the winner, and the tournament is finished.
  await dialog.getByRole('button', { name: 'Закрити' }).click();
  await expect(page.getByRole('heading', { name: 'Переможець' }).locator('xpath=..')).toContainText('BorschtBoss');
  await expect(page.getByRole('definition').filter({ hasText: 'Завершено' })).toBeVisible();
  const detail = await current<{ status: string; winner: { name: string } }>(request, `/api/tournaments/${id}`);
  expect(detail).toMatchObject({ status: 'finished', winner: { name: 'BorschtBoss' } });
});
