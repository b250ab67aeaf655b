import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import { expect, open, settled, test } from './fixtures.ts';

/*
 * Export and import as CSV in the browser (issue 60): on a phone, an organiser checks a file of
 * participants, reads each row's problem, fixes the file and adds them; then downloads the
 * participants as a CSV file Excel opens.
 */

test('an organiser checks a file of participants at 360 px, adds them once no row has a problem, and downloads the participants as CSV', async ({
  admin: page,
  tournament,
}) => {
  test.slow();
  const cup = await tournament(['Stepan_Clutch'], { draw: false });
  await page.setViewportSize({ width: 360, height: 740 });
  await open(page, `/tournaments/${cup.id}`);
  const files = page.getByRole('region', { name: 'Експорт та імпорт' });
  await files.scrollIntoViewIfNeeded();

  // A file with a player nobody has and one already taking part: each row says what is wrong, nothing can be added.
  await files.getByLabel('Вміст CSV').fill('Нікнейм\nZaporizhRush\nnobody_here_at_all\nStepan_Clutch\n');
  await files.getByRole('button', { name: 'Перевірити', exact: true }).click();
  const preview = files.locator('[data-import-preview]');
  await expect(preview.getByText('Можна додати: 1. З проблемами: 2.')).toBeVisible();
  await expect(preview.locator('tr[data-status="unknownPlayer"]')).toContainText('Гравця не знайдено');
  await expect(preview.locator('tr[data-status="alreadyRegistered"]')).toContainText('Уже має заявку (Схвалено)');
  await expect(files.locator('[data-import-add]')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const axe = await new AxeBuilder({ page }).include('[data-participant-files]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

  // The file fixed: both rows can be added, and the button says how many.
  await files.getByLabel('Вміст CSV').fill('Нікнейм\nZaporizhRush\nOdesaWave\n');
  await expect(files.getByText('Текст змінився після перевірки — перевірте знову.')).toBeVisible();
  // The same rows as a file saved by Excel: a byte order mark, «;», CRLF.
  const saved = Buffer.from('\ufeffНікнейм;Коментар\r\nZaporizhRush;з форми\r\nOdesaWave;\r\n', 'utf8');
  await files.getByLabel('Вибрати файл CSV…').setInputFiles({ name: 'реєстрація.csv', mimeType: 'text/csv', buffer: saved });
  await expect(files.getByText('З файлу «реєстрація.csv»')).toBeVisible();
  await expect(files.getByLabel('Вміст CSV')).toHaveValue(/^Нікнейм;Коментар\r?\nZaporizhRush;з форми/);
  await files.getByRole('button', { name: 'Перевірити', exact: true }).click();
  await expect(preview.getByText('Можна додати: 2. З проблемами: 0.')).toBeVisible();
  await files.getByRole('button', { name: 'Додати 2 учасників' }).click();
  await expect(files.getByText('Додано учасників: 2')).toBeVisible();
  await expect(preview).toHaveCount(0);

  // The participants are the tournament's now, for everyone.
  await page.reload();
  await settled(page);
  await expect(page.getByRole('region', { name: /учасник/i }).first()).toContainText('OdesaWave');

  // The participants as a file, under the tournament's name, with the byte order mark Excel needs.
  const link = page.getByRole('region', { name: 'Експорт та імпорт' }).getByRole('link', { name: 'Завантажити CSV: Учасники' });
  await link.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/ — учасники\.csv$/);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  expect(text.split('\r\n')[0]).toBe('Гравець;Статус;Посів;Заявка подана (Europe/Kyiv);Відмітився (Europe/Kyiv)');
  for (const nick of ['Stepan_Clutch', 'ZaporizhRush', 'OdesaWave']) expect(text).toContain(`${nick};Схвалено`);
});

test('a player sees no export or import on a tournament page', async ({ player: page, tournament }) => {
  const cup = await tournament(['KharkivHawk'], { draw: false });
  await open(page, `/tournaments/${cup.id}`);
  await settled(page);
  await expect(page.getByRole('region', { name: 'Експорт та імпорт' })).toHaveCount(0);
});
