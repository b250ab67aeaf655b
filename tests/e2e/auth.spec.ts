import { randomUUID } from 'node:crypto';
import { confirmationLink, expect, hydrated, logIn, open, test } from './fixtures.ts';

test('a new player registers, confirms through the letter, logs in and logs out', async ({ page }) => {
  const nick = `e2e_${randomUUID().slice(0, 8)}`;
  const email = `${nick}@example.test`;

  await open(page, '/login');
  await page.getByRole('tab', { name: 'Реєстрація' }).click();
  await page.getByLabel('Нікнейм').fill(nick);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль').fill('strong-password-1');
  await page.getByRole('button', { name: 'Зареєструватися' }).click();
  await expect(page.getByRole('status')).toHaveText('Реєстрація успішна! Перевірте пошту, щоб підтвердити акаунт.');
  // What comes next: sign in, or ask for the letter again.
  await expect(page.getByRole('main').getByRole('link', { name: 'Увійти', exact: true })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('link', { name: 'Лист не прийшов? Надіслати ще раз' })).toHaveAttribute('href', '/confirm');

  await page.getByRole('tab', { name: 'Вхід' }).click();
  await page.getByLabel('Нікнейм або email').fill(nick);
  await page.getByLabel('Пароль').fill('strong-password-1');
  await page.getByRole('button', { name: 'Увійти', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Пошту не підтверджено');

  const link = new URL(await confirmationLink(email));
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('status')).toHaveText('Пошту підтверджено! Тепер можна увійти.');
  await page.getByRole('link', { name: 'До входу' }).click();

  await logIn(page, email, 'strong-password-1');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[\w-]{43}$/);
  const nav = page.getByRole('navigation', { name: 'Головна навігація' });
  const signOut = nav.getByRole('button', { name: 'Вийти' });
  await expect(signOut).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Адмінка' })).toHaveCount(0);

  await signOut.click();
  await expect(page).toHaveURL('/login');
  await expect(nav.getByRole('link', { name: 'Увійти' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeFalsy();
});

test('the separate registration page sends the player to login two seconds after success', async ({ page }) => {
  const nick = `reg_${randomUUID().slice(0, 8)}`;
  await open(page, '/register');
  await page.getByLabel('Нікнейм').fill(nick);
  await page.getByLabel('Email').fill(`${nick}@example.test`);
  await page.getByLabel('Пароль').fill('strong-password-1');
  const submitted = Date.now();
  await page.getByRole('button', { name: 'Зареєструватися' }).click();
  await expect(page.getByRole('status')).toContainText('Реєстрація успішна!');
  await page.waitForURL('/login', { timeout: 5000 });
  expect(Date.now() - submitted).toBeGreaterThanOrEqual(1900);
});

test('the confirmation page without a token offers to send the letter again', async ({ page }) => {
  await open(page, '/confirm');
  await expect(page.getByRole('status')).toContainText('Ми надіслали лист');
  await page.getByRole('button', { name: 'Надіслати ще раз' }).click();
  await expect(page.getByRole('alert')).toHaveText('Введіть email');
  await page.getByLabel('Email').fill('someone@example.test');
  await page.getByRole('button', { name: 'Надіслати ще раз' }).click();
  await expect(page.getByRole('status').last()).toContainText('ми надіслали лист');
});

test('a stored token that the server refuses signs the visitor out silently', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('token', 'stale-token'));
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Головна навігація' }).getByRole('link', { name: 'Увійти' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeFalsy();
});

test('admin pages send everyone but admins home, and show admins the panel', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL('/');
  await page.goto('/admin-tournaments');
  await expect(page).toHaveURL('/');
});

test('an admin sees the Admin link and the admin page', async ({ admin: page }) => {
  await open(page, '/');
  const nav = page.getByRole('navigation', { name: 'Головна навігація' });
  await nav.getByRole('link', { name: 'Адмінка' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { name: 'Адмін-панель' })).toBeVisible();
  await expect(page.getByText('доступ лише для адміністратора')).toHaveCount(0);
});

test('unknown paths redirect home, the theme persists, and the nav collapses', async ({ page }) => {
  await open(page, '/no/such/page');
  await expect(page).toHaveURL('/');
  await expect(page.locator('body')).toHaveAttribute('data-theme', 'dark');
  const nav = page.getByRole('navigation', { name: 'Головна навігація' });
  await nav.getByRole('button', { name: 'Світла тема' }).click();
  await expect(page.locator('body')).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await hydrated(page);
  await expect(page.locator('body')).toHaveAttribute('data-theme', 'light');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');

  const header = page.locator('header').filter({ has: nav });
  const wide = (await header.boundingBox())!.width;
  await nav.getByRole('button', { name: 'Згорнути меню' }).click();
  // Icons only: the link keeps its name for screen readers, its text is visually hidden.
  await expect(nav.getByRole('link', { name: 'Турніри' })).toBeVisible();
  await expect(nav.getByText('Турніри', { exact: true })).toHaveCSS('clip-path', 'inset(50%)');
  expect((await header.boundingBox())!.width).toBeLessThan(wide / 2);
  await page.reload();
  await expect(nav.getByRole('button', { name: 'Розгорнути меню' })).toHaveAttribute('aria-pressed', 'true');
  // Collapsed before the first paint (the line in Base.astro): the page does not move sideways.
  const layoutShift = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
  expect(layoutShift).toBeLessThan(0.01);
  await expect(nav.getByText('Турніри', { exact: true })).toHaveCSS('clip-path', 'inset(50%)');
});
