import { bearer, current, expect, freshPlayer, open, signIn, test, tokenOf } from './fixtures.ts';

/*
 * Tournament staff in the browser (issue 23, decision 016): the admin names a co-organiser on the
 * tournament page; the co-organiser decides that tournament and nothing in another one.
 */

test('the admin names a co-organiser, who approves an application and enters a result there, and sees no organiser tools on another tournament', async ({
  admin: page,
  browser,
  request,
  tournament,
}) => {
  test.slow();
  // A: pending, two players approved and a third one's application waiting. B: another tournament, its bracket drawn.
  const mine = await tournament(['Stepan_Clutch', 'ZaporizhRush'], { draw: false });
  const other = await tournament(['OdesaWave', 'KharkivHawk']);
  const applicant = await freshPlayer(page, 'appl');
  const applied = await request.post('/api/applications', { headers: bearer(await tokenOf(request, applicant.nick, applicant.password)), data: { tournament: mine.id } });
  expect(applied.status()).toBe(201);
  const staff = await freshPlayer(page, 'staff');

  // The admin names the co-organiser by nickname.
  await open(page, `/tournaments/${mine.id}`);
  const manage = page.getByRole('region', { name: 'Співорганізатори турніру' });
  await expect(manage.getByText('Співорганізаторів ще немає.')).toBeVisible();
  await manage.getByLabel('Нікнейм або email').fill(staff.nick);
  await manage.getByRole('button', { name: 'Додати', exact: true }).click();
  await expect(manage.getByRole('status')).toHaveText(`${staff.nick} тепер організатор турніру`);
  await expect(manage.getByRole('button', { name: `Прибрати ${staff.nick} з організаторів` })).toBeVisible();
  // Everyone reads the organisers on the page as HTML.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Організатори', exact: true })).toContainText(staff.nick);

  // The co-organiser, in a browser of their own.
  const context = await browser.newContext();
  const staffPage = await context.newPage();
  await signIn(staffPage, staff.nick, staff.password);
  await open(staffPage, `/tournaments/${mine.id}`);
  // Nothing admin-only: no staff management on their own tournament either.
  await expect(staffPage.getByRole('region', { name: 'Співорганізатори турніру' })).toHaveCount(0);
  const tools = staffPage.getByRole('region', { name: 'Усі заявки турніру' });
  await tools.getByRole('button', { name: `Схвалити: ${applicant.nick}` }).click();
  // The page reloads with the new participant.
  await expect(staffPage.getByRole('region', { name: /учасник/i }).getByText(applicant.nick)).toBeVisible();

  // A result: the bracket is drawn (which starts the tournament) and the first semifinal decided.
  await staffPage.getByRole('button', { name: 'Сітка', exact: true }).click();
  const dialog = staffPage.getByRole('dialog', { name: 'Турнірна сітка' });
  await dialog.getByRole('button', { name: 'Створити сітку', exact: true }).click();
  await dialog.getByRole('button', { name: 'Так, створити й розпочати' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Сітку створено' })).toHaveText('Сітку створено для 3 учасників!');
  const semi = dialog.getByRole('article', { name: 'Півфінал, матч 1', exact: true });
  await semi.getByRole('button', { name: 'Stepan_Clutch переміг' }).click();
  await expect(semi).toContainText('Завершено');
  // The board shows the result before the server confirms it: read the bracket once the save is answered.
  await expect(dialog.getByRole('status').filter({ hasText: 'Сітку оновлено!' })).toBeVisible();
  const saved = await current<{ bracket: { matches: { winner: string | null }[] }[] }>(request, `/api/tournaments/${mine.id}/bracket`);
  expect(saved.bracket[0]!.matches[0]!.winner).toBe(mine.ids['Stepan_Clutch']);
  await dialog.getByRole('button', { name: 'Закрити' }).click();

  // Another tournament: the page as anyone sees it, without the organiser tools.
  await open(staffPage, `/tournaments/${other.id}`);
  await expect(staffPage.getByRole('heading', { level: 1 })).toHaveText(other.title);
  await expect(staffPage.getByRole('region', { name: 'Усі заявки турніру' })).toHaveCount(0);
  await expect(staffPage.getByRole('button', { name: 'Етапи', exact: true })).toHaveCount(0);
  await staffPage.getByRole('button', { name: 'Сітка', exact: true }).click();
  const otherDialog = staffPage.getByRole('dialog', { name: 'Турнірна сітка' });
  await expect(otherDialog.getByRole('article', { name: 'Фінал, матч 1', exact: true })).toBeVisible();
  await expect(otherDialog.getByRole('button', { name: /переміг$/ })).toHaveCount(0);
  await expect(otherDialog.getByRole('button', { name: 'Створити сітку', exact: true })).toHaveCount(0);
  await context.close();
});
