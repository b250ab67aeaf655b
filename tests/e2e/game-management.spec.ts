import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, hydrated, open, test, tokenOfPage } from './fixtures.ts';

/** A game with no statistics yet, added through the API with the signed-in admin's token. */
async function gameWithoutConfig(page: Page, name: string) {
  const response = await page.request.post('/api/games', { headers: { authorization: `Bearer ${tokenOfPage(page)}` }, data: { name, image: '/games/valorant.jpg' } });
  expect(response.status()).toBe(201);
}

/**
 * /admin's game-and-stats panel, ready for clicks. The page after sign-in settles first (leaving it
 * mid session check would drop the token); the panel's island hydrates only once the admin gate
 * has shown it, so the islands are awaited again after that.
 */
async function statsPanel(page: Page, title = 'Ігри та статистика') {
  await page.waitForLoadState('networkidle');
  await open(page, '/admin?section=games');
  const panel = page.getByRole('region', { name: title });
  await expect(panel).toBeVisible();
  await hydrated(page);
  return panel;
}

test('an admin sets up statistics for a game through the prefilled setup, then adds a stat field and an achievement', async ({ admin: page }) => {
  const name = `Арена ${randomUUID().slice(0, 6)}`;
  await gameWithoutConfig(page, name);
  const panel = await statsPanel(page);

  // «Ігри» lists it without statistics.
  const row = panel.getByRole('listitem').filter({ hasText: name });
  await expect(row).toContainText('Без статистики');
  await row.getByRole('button', { name: `Конфігурація гри «${name}»` }).click();

  // «Конфігурація» opens on it: not configured, and the setup comes prefilled.
  await expect(panel.getByRole('tab', { name: 'Конфігурація' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('combobox', { name: /^Гра/ })).toHaveValue(/[0-9a-f-]{36}/);
  await expect(panel.getByText('Статистику для цієї гри не налаштовано')).toBeVisible();
  await panel.getByRole('button', { name: 'Налаштувати статистику' }).click();
  const dialog = page.getByRole('dialog', { name: 'Налаштування статистики гри' });
  await expect(dialog.getByLabel('Назва гри')).toHaveValue(name);
  await expect(dialog.getByLabel('Зображення (URL або шлях)')).toHaveValue('/games/valorant.jpg');
  await expect(dialog.getByRole('combobox', { name: /^Шаблон/ })).toHaveValue('default');
  await dialog.getByRole('button', { name: 'Налаштувати', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole('status')).toHaveText(`✅ Статистику для гри «${name}» налаштовано (шаблон «Загальний»)`);

  const fields = panel.getByRole('list', { name: /^Поля статистики/ });
  await expect(fields.getByRole('listitem')).toHaveCount(5);
  await expect(fields).toContainText('kills');

  // A stat field, with the defaults for what is left empty.
  const fieldForm = panel.getByRole('form', { name: 'Нове поле статистики' });
  await expect(fieldForm.getByLabel('Іконка')).toHaveValue('📊');
  await fieldForm.getByLabel('Назва поля (англійською)').fill('headshots');
  await fieldForm.getByLabel('Назва для показу').fill('Постріли в голову');
  await fieldForm.getByRole('combobox', { name: /^Категорія/ }).selectOption('combat');
  await fieldForm.getByLabel('Основна характеристика').check();
  await fieldForm.getByRole('button', { name: 'Додати поле' }).click();
  await expect(panel.getByRole('status')).toHaveText('✅ Поле «Постріли в голову» додано');
  const added = fields.getByRole('listitem').filter({ hasText: 'headshots' });
  await expect(added).toContainText('Постріли в голову');
  await expect(added).toContainText('Основна');
  await expect(added).toContainText('Число · Бій');
  await expect(fieldForm.getByLabel('Назва поля (англійською)')).toHaveValue('');

  // The condition hint now names the new field; an unknown one is refused with the server's reason.
  const achievementForm = panel.getByRole('form', { name: 'Нове досягнення' });
  await expect(achievementForm.locator('#game-stats-condition-variables')).toContainText('headshots');
  await expect(achievementForm.getByLabel('Іконка')).toHaveValue('🏆');
  await achievementForm.getByLabel('Назва', { exact: true }).fill('Headhunter');
  await achievementForm.getByLabel('Опис').fill('Сто пострілів у голову');
  await achievementForm.getByLabel('Умова').fill('headshot >= 100');
  await achievementForm.getByRole('button', { name: 'Додати досягнення' }).click();
  await expect(panel.getByRole('alert')).toHaveText('❌ Невідоме поле "headshot" — можливо, "headshots"?');

  await achievementForm.getByLabel('Умова').fill('headshots >= 100 and winRate > 60');
  await achievementForm.getByRole('combobox', { name: /^Рідкість/ }).selectOption('epic');
  await achievementForm.getByRole('button', { name: 'Додати досягнення' }).click();
  await expect(panel.getByRole('status')).toHaveText('✅ Досягнення «Headhunter» додано');
  const achievements = panel.getByRole('list', { name: /^Досягнення/ });
  const headhunter = achievements.getByRole('listitem').filter({ hasText: 'Headhunter' });
  await expect(headhunter).toContainText('Епічне');
  await expect(headhunter).toContainText('Сто пострілів у голову');
  await expect(headhunter).toContainText('headshots >= 100 and winRate > 60');

  // The games tab now shows the game as configured.
  await panel.getByRole('tab', { name: 'Ігри' }).click();
  await expect(panel.getByRole('listitem').filter({ hasText: name })).toContainText('Статистику налаштовано');
});

test('an admin deletes an achievement and a stat field after confirming', async ({ admin: page }) => {
  const name = `Видалення ${randomUUID().slice(0, 6)}`;
  await gameWithoutConfig(page, name);
  const panel = await statsPanel(page);
  await panel.getByRole('tab', { name: 'Конфігурація' }).click();
  await panel.getByRole('combobox', { name: /^Гра/ }).selectOption({ label: name });
  await panel.getByRole('button', { name: 'Налаштувати статистику' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Налаштувати', exact: true }).click();
  const achievements = panel.getByRole('list', { name: /^Досягнення/ });
  await expect(achievements.getByRole('listitem')).toHaveCount(5);

  // Declining the confirmation keeps it.
  page.once('dialog', (d) => void d.dismiss());
  await panel.getByRole('button', { name: 'Видалити досягнення «Centurion»' }).click();
  await expect(achievements.getByRole('listitem')).toHaveCount(5);

  // «kills» is used by Centurion's condition: refused while it is there.
  page.once('dialog', (d) => void d.accept());
  await panel.getByRole('button', { name: 'Видалити поле «Вбивства»' }).click();
  await expect(panel.getByRole('alert')).toHaveText('❌ Поле «kills» використовують умови досягнень: Centurion. Спершу видаліть ці досягнення.');

  page.once('dialog', (d) => {
    expect(d.message()).toBe('Видалити досягнення «Centurion»? Гравці й команди, які його здобули, його втратять.');
    void d.accept();
  });
  await panel.getByRole('button', { name: 'Видалити досягнення «Centurion»' }).click();
  await expect(panel.getByRole('status')).toHaveText('✅ Досягнення «Centurion» видалено');
  await expect(achievements.getByRole('listitem')).toHaveCount(4);

  page.once('dialog', (d) => void d.accept());
  await panel.getByRole('button', { name: 'Видалити поле «Вбивства»' }).click();
  await expect(panel.getByRole('status')).toHaveText('✅ Поле «kills» видалено');
  await expect(panel.getByRole('list', { name: /^Поля статистики/ }).getByRole('listitem')).toHaveCount(4);
});

test('an admin reading English sees a template’s stat fields and achievements in English, and a field of their own as typed', async ({ admin: page, baseURL }) => {
  const name = `Own ${randomUUID().slice(0, 6)}`;
  const headers = { authorization: `Bearer ${tokenOfPage(page)}` };
  const setup = await page.request.post('/api/game-management/setup', { headers, data: { name, template: 'default' } });
  expect(setup.status()).toBe(201);
  const own = ((await setup.json()) as { game: { _id: string } }).game;
  // «Вбивства» under a field of the admin's own: not the template's field, so left as typed.
  const added = await page.request.post(`/api/game-management/${own._id}/add-stat-field`, { headers, data: { fieldName: 'frags', displayName: 'Вбивства', description: 'Фраги за матч' } });
  expect(added.status()).toBe(201);

  await page.context().addCookies([{ name: 'lang', value: 'en', url: baseURL }]);
  const panel = await statsPanel(page, 'Games and statistics');
  await panel.getByRole('tab', { name: 'Configuration' }).click();
  // The demo set Dota 2 up with its template.
  await panel.getByRole('combobox', { name: /^Game/ }).selectOption({ label: '✓ Dota 2' });
  const fields = panel.getByRole('list', { name: /^Stat fields/ });
  const lastHits = fields.getByRole('listitem').filter({ hasText: 'lastHits' });
  await expect(lastHits).toContainText('Last hits');
  await expect(lastHits).toContainText('Creeps the player finished off');
  await expect(fields).not.toContainText('Добивання');
  const healer = panel.getByRole('list', { name: /^Achievements/ }).getByRole('listitem').filter({ hasText: 'Healer' });
  await expect(healer).toContainText('Restore 50,000 health to allies');

  await panel.getByRole('combobox', { name: /^Game/ }).selectOption({ label: `✓ ${name}` });
  await expect(fields.getByRole('listitem').filter({ hasText: 'kills' }).first()).toContainText('Kills');
  const frags = fields.getByRole('listitem').filter({ hasText: 'frags' });
  await expect(frags).toContainText('Вбивства');
  await expect(frags).toContainText('Фраги за матч');
});
