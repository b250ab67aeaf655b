import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { oauthStandIn, type OAuthStandIn } from '../support/oauth-provider.ts';
import { openIdStandIn, type OpenIdStandIn } from '../support/openid-provider.ts';
import { type AppInstance, freePort, startInstance } from './app-instance.ts';
import { expect, open, test } from './fixtures.ts';

/*
 * Issue 60: sign-in with Discord and Steam. Playwright's own server has neither, so its login page
 * shows no provider buttons; a second instance of the same build runs with both aimed at stand-ins
 * on loopback (tests/support/oauth-provider.ts, openid-provider.ts), which sign in at once.
 */

const OUT = process.env.SIGN_IN_SHOTS ?? '/tmp/pw-out-oauth';

test('without providers the login page shows no Discord or Steam button', async ({ page }) => {
  const asked = page.waitForResponse((answer) => answer.url().endsWith('/api/auth/providers'));
  await open(page, '/login');
  expect(await (await asked).json()).toEqual({ discord: false, steam: false });
  await expect(page.getByRole('link', { name: /Увійти через/ })).toHaveCount(0);
});

test.describe('with Discord and Steam', () => {
  test.describe.configure({ mode: 'serial' });
  let app: AppInstance;
  let discord: OAuthStandIn;
  let steam: OpenIdStandIn;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    discord = await oauthStandIn();
    steam = await openIdStandIn();
    dataDir = mkdtempSync(join(tmpdir(), 'kiberarena-sign-in-'));
    app = await startInstance(await freePort(), {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL: 'sign-in-admin@e2e.test',
      ADMIN_PASSWORD: 'sign-in-admin-password',
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
      DISCORD_OAUTH_ROOT: discord.root,
      STEAM_SIGN_IN: 'true',
      STEAM_OPENID_ENDPOINT: steam.endpoint,
    });
  });

  test.afterAll(async () => {
    await app?.stop();
    await discord?.close();
    await steam?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function look(page: Page, lang: 'uk' | 'en', theme: 'light' | 'dark') {
    await page.context().addCookies([{ name: 'lang', value: lang, url: app.url }]);
    await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
  }

  for (const width of [360, 1280]) {
    test(`a guest signs in with Discord, links Steam in the cabinet and it shows on the profile (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await look(page, 'uk', 'light');
      discord.user = { id: `80351110224678${width}`, username: `gamer${width}`, global_name: `Гравець ${width}` };
      steam.steamId = `765611979604${String(width).padStart(5, '0')}`;
      await page.goto(`${app.url}/login`);
      const button = page.getByRole('link', { name: 'Увійти через Discord' });
      await expect(button).toBeVisible();
      await expect(page.getByRole('link', { name: 'Увійти через Steam' })).toBeVisible();
      await page.screenshot({ path: `${OUT}/login-uk-light-${width}.png`, fullPage: true });
      await button.click();
      // Back from the stand-in: the code is traded for the session and the new player lands in the cabinet.
      await page.waitForURL(/\/cabinet/);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
      const section = page.locator('#linked-accounts');
      await expect(section).toBeVisible();
      await expect(section.getByText('Discord:')).toBeVisible();
      await section.getByRole('button', { name: 'Прив’язати Steam' }).click();
      await page.waitForURL(/linked=steam/);
      await expect(page.locator('#linked-accounts').getByText('Steam прив’язано')).toBeVisible();
      await expect(page.locator('#linked-accounts').getByRole('link', { name: steam.steamId })).toBeVisible();
      await page.locator('#linked-accounts').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${OUT}/cabinet-uk-light-${width}.png` });
      const me = await page.evaluate(async () => {
        const answer = await fetch('/api/users/me', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
        return (await answer.json()) as { _id: string };
      });
      await page.goto(`${app.url}/players/${me._id}`);
      const steamLink = page.locator('[data-linked="steam"] a');
      await expect(steamLink).toHaveAttribute('href', `https://steamcommunity.com/profiles/${steam.steamId}`);
      await expect(page.locator('[data-linked="discord"]')).toContainText(`Гравець ${width}`);
    });
  }

  for (const [lang, theme] of [
    ['en', 'dark'],
    ['uk', 'dark'],
    ['en', 'light'],
  ] as const) {
    test(`the login page and the cabinet's section read well (${lang}, ${theme})`, async ({ page }) => {
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await look(page, lang, theme);
        discord.user = { id: `9${width}${lang === 'en' ? 1 : 2}${theme === 'dark' ? 1 : 2}000000000`, username: `look_${lang}_${theme}_${width}` };
        await page.goto(`${app.url}/login`);
        await expect(page.getByRole('link', { name: lang === 'en' ? 'Sign in with Discord' : 'Увійти через Discord' })).toBeVisible();
        await page.screenshot({ path: `${OUT}/login-${lang}-${theme}-${width}.png`, fullPage: true });
        await page.getByRole('link', { name: lang === 'en' ? 'Sign in with Discord' : 'Увійти через Discord' }).click();
        await page.waitForURL(/\/cabinet/);
        await expect(page.locator('#linked-accounts')).toBeVisible();
        await page.locator('#linked-accounts').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${OUT}/cabinet-${lang}-${theme}-${width}.png` });
        await page.evaluate(() => localStorage.removeItem('token'));
      }
    });
  }
});
