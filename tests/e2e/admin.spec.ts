import { expect, hydrated, open, test } from './fixtures.ts';

// The admin page is split into sections reached in one step; the address keeps the choice.

test('an admin reaches every section of the admin page in one step, and the address keeps it across reload, back and forward', async ({ admin: page }) => {
  const islands = () => page.locator('astro-island').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('component-url') ?? '').filter((url) => /Panel/.test(url)));
  await open(page, '/admin');
  const menu = page.getByRole('navigation', { name: 'Розділи адмін-панелі' });
  await expect(menu.getByRole('link', { name: 'Заявки' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('region', { name: 'Заявки' })).toBeVisible();
  // Only the chosen section's panels are on the page, so only their islands load.
  expect((await islands()).map((url) => url.replace(/.*\/|\..*$/g, ''))).toEqual(['ApplicationsPanel']);
  await expect(page.getByRole('region', { name: 'Ігри', exact: true })).toHaveCount(0);

  await menu.getByRole('link', { name: 'Ігри та статистика' }).click();
  await expect(page).toHaveURL('/admin?section=games');
  await expect(page.getByRole('region', { name: 'Ігри', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Заявки' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Ігри та статистика' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle(/^Ігри та статистика · Адмін-панель/);

  await menu.getByRole('link', { name: 'Новини' }).click();
  await expect(page.getByRole('form', { name: 'Додати новину' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Додати новину' })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL('/admin?section=games');
  await expect(page.getByRole('region', { name: 'Ігри', exact: true })).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL('/admin?section=news');

  // A link to a section works on its own; an unknown section falls back to the first one.
  await open(page, '/admin?section=results');
  await expect(page.getByRole('region', { name: 'Статистика турнірів' })).toBeVisible();
  await open(page, '/admin?section=nonsense');
  await expect(menu.getByRole('link', { name: 'Заявки' })).toHaveAttribute('aria-current', 'page');
});

test('the tournament management page names itself once', async ({ admin: page }) => {
  await open(page, '/admin-tournaments');
  await expect(page.getByRole('heading', { name: 'Керування турнірами' })).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Список турнірів' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Заявки' })).toBeVisible();
});

test('a wrong tournament, bracket or news address says so once, with the right status', async ({ page }) => {
  for (const [path, text] of [
    ['/tournaments/not-an-id', 'Турнір не знайдено або посилання некоректне!'],
    ['/tournaments/00000000-0000-4000-8000-000000000000', 'Турнір не знайдено'],
    ['/tournament/not-an-id/bracket', 'Турнір не знайдено або посилання некоректне!'],
    ['/tournament/00000000-0000-4000-8000-000000000000/bracket', 'Турнір не знайдено'],
    ['/news/not-an-id', 'Новину не знайдено'],
    ['/news/00000000-0000-4000-8000-000000000000', 'Новину не знайдено'],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(text);
    await expect(page.getByText(text, { exact: true }), path).toHaveCount(1);
    await expect(page.getByRole('alert'), path).toHaveCount(0);
  }
});

test('a field with a limit counts near it, keeps pasted text whole and refuses to send too much, naming the limit', async ({ admin: page }) => {
  await open(page, '/admin?section=news');
  const form = page.getByRole('form', { name: 'Додати новину' });
  const title = form.getByLabel('Назва');
  const counter = form.getByText(/^\d+\/200$/);
  await expect(title).toHaveAccessibleDescription('Не більше 200 символів');

  // Far from the limit the counter keeps its place but is not shown; near it, it is.
  await title.fill('Коротка назва');
  await expect(counter).toBeHidden();
  await title.fill('я'.repeat(195));
  await expect(counter).toHaveText('195/200');
  await expect(counter).toBeVisible();

  // Pasting more than fits keeps every character and says how far over the limit it is.
  await title.fill('');
  await title.focus();
  // Inserted at once, as a paste is.
  await page.keyboard.insertText('я'.repeat(205));
  await expect(title).toHaveValue('я'.repeat(205));
  await expect(counter).toHaveText('205/200');
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Текст').fill('Текст новини');
  await form.getByRole('button', { name: 'Додати новину' }).click();
  await expect(title).toBeFocused();
  expect(await title.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe('«Назва» — не довше 200 символів; зараз 205');
  await expect(form.getByRole('status')).toHaveCount(0);

  // Back within the limit, the form sends.
  await title.fill(`Рівно двісті ${'я'.repeat(187)}`);
  await expect(title).not.toHaveAttribute('aria-invalid');
  await form.getByRole('button', { name: 'Додати новину' }).click();
  await expect(form.getByRole('status')).toHaveText('Додано новину!');
  await expect(counter).toBeHidden();

  // A title that long with no space in it still wraps on a phone, where the home page lists it.
  await page.setViewportSize({ width: 360, height: 740 });
  await open(page, '/');
  await expect(page.getByRole('link', { name: /^Рівно двісті/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
