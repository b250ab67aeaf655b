import sharp from 'sharp';
import { expect, freshPlayer, logIn, open, signIn, test } from './fixtures.ts';

test('a player changes the avatar and sees it in the navigation', async ({ page }) => {
  const { nick, password } = await freshPlayer(page);
  await signIn(page, nick, password);
  await open(page, '/cabinet');
  await expect(page.getByRole('heading', { name: nick })).toBeVisible();
  await expect(page.getByText('Ви не в команді.')).toBeVisible();

  const picture = await sharp({ create: { width: 120, height: 120, channels: 3, background: { r: 10, g: 200, b: 120 } } }).png().toBuffer();
  await page.getByLabel('Змінити аватар').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
  await page.getByRole('button', { name: 'Зберегти аватар' }).click();
  await expect(page.getByRole('status')).toHaveText('Аватар збережено!');

  const navAvatar = page.getByTestId('nav-user').locator('img');
  await expect(navAvatar).toHaveAttribute('src', /\/api\/avatar\/[0-9a-f-]+\?v=/);
  await page.reload();
  await expect(page.getByTestId('nav-user').locator('img')).toHaveAttribute('src', /\?v=/);
  const loaded = await page.getByTestId('nav-user').locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
  expect(loaded).toBe(true);
});

test('a player changes the password and signs in with the new one', async ({ page }) => {
  const { nick, password } = await freshPlayer(page);
  await signIn(page, nick, password);
  await open(page, '/cabinet');
  await page.getByRole('button', { name: 'Редагувати профіль' }).click();
  const dialog = page.getByRole('dialog', { name: 'Редагувати профіль' });
  await dialog.getByLabel('Старий пароль').fill(password);
  await dialog.getByRole('button', { name: 'Зберегти' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Введіть старий і новий пароль');
  await dialog.getByLabel('Новий пароль').fill('second-password-2');
  await dialog.getByRole('button', { name: 'Зберегти' }).click();
  await expect(page.getByRole('status')).toContainText('Пароль змінено!');

  await page.getByRole('navigation', { name: 'Головна навігація' }).getByRole('button', { name: 'Вийти' }).click();
  await expect(page).toHaveURL('/login');
  await page.getByLabel('Нікнейм або email').fill(nick);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Увійти', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Неправильний логін або пароль');
  // The form again, with the new password: what this test is about after signing out.
  await logIn(page, nick, 'second-password-2');
});

test('the cabinet asks a guest to sign in', async ({ page }) => {
  await open(page, '/cabinet');
  await expect(page.getByText('Увійдіть, щоб побачити свій кабінет.')).toBeVisible();
});

test('the profile editor opens from the keyboard, keeps focus inside and closes on Escape', async ({ page }) => {
  const { nick, password } = await freshPlayer(page);
  await signIn(page, nick, password);
  await open(page, '/cabinet');
  const opener = page.getByRole('button', { name: 'Редагувати профіль' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Редагувати профіль' });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    const inside = await page.evaluate(() => document.activeElement?.closest('dialog') !== null || document.activeElement === document.body);
    expect(inside).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
