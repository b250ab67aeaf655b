import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import { bearer, expect, freshPlayer, open, settled, signIn, test, tokenOf } from './fixtures.ts';

/*
 * Organisations in the browser (issue 56): a new player founds one, names a staff member,
 * publishes a weekly cup and clones it; a follower hears of the new tournament in the bell. The
 * organisation's page reads without JavaScript on a phone, in both languages.
 */

test('a new player founds an organisation, adds staff, publishes and clones a cup; a follower hears of it', async ({ page, browser, request }) => {
  test.slow();
  const founder = await freshPlayer(page, 'org');
  const staff = await freshPlayer(page, 'orgstaff');
  const fan = await freshPlayer(page, 'fan');
  await signIn(page, founder.nick, founder.password);

  // Founding, from the directory.
  await open(page, '/organisations');
  await page.getByRole('link', { name: 'Створити організацію' }).click();
  await page.waitForURL('/organisations/new');
  await settled(page);
  const name = `Клуб ${randomUUID().slice(0, 6)}`;
  await page.getByLabel('Назва', { exact: true }).fill(name);
  await page.getByLabel('Telegram').fill('https://t.me/club_e2e');
  await page.getByRole('button', { name: 'Створити', exact: true }).click();
  await page.waitForURL(/\/org\/[a-z0-9-]+\/manage$/);
  const slug = new URL(page.url()).pathname.split('/')[2]!;
  await settled(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Керування: ${name}`);

  // A staff member, by nickname.
  const people = page.getByRole('region', { name: 'Люди' });
  await people.getByLabel('Нікнейм або id гравця').fill(staff.nick);
  await people.getByRole('button', { name: 'Додати', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(`${staff.nick} тепер персонал організації`);
  await expect(people.getByRole('link', { name: staff.nick })).toBeVisible();

  // The follower follows from the organisation's page, in a browser of their own.
  const context = await browser.newContext();
  const fanPage = await context.newPage();
  await signIn(fanPage, fan.nick, fan.password);
  await open(fanPage, `/org/${slug}`);
  await fanPage.getByRole('button', { name: 'Стежити' }).click();
  await expect(fanPage.getByRole('button', { name: 'Не стежити' })).toBeVisible();
  await expect(fanPage.getByText('1 підписник', { exact: true })).toBeVisible();

  // A weekly cup, published from the manage page.
  const cups = page.getByRole('region', { name: 'Турніри' });
  await cups.getByText('Новий турнір').click();
  await cups.getByLabel('Назва турніру').fill('Щотижневий кубок');
  await cups.getByLabel('Дата й час (за Києвом)').fill('2031-03-01T18:00');
  // Not CS2: other browser tests count the CS2 cards.
  await cups.locator('#new-tournament-game').selectOption({ label: 'League of Legends' });
  await expect(cups.getByRole('combobox', { name: 'Статус' })).toHaveCount(0);
  await cups.getByRole('button', { name: 'Додати турнір' }).click();
  // The organiser lands on the new tournament's page, which names its host.
  await page.waitForURL(/\/tournaments\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Щотижневий кубок');
  await expect(page.locator('dl')).toContainText('Очікує');
  await expect(page.locator('dl').getByRole('link', { name, exact: true })).toBeVisible();
  await open(page, `/org/${slug}/manage`);
  await settled(page);
  const published = cups.getByRole('link', { name: 'Щотижневий кубок' });
  await expect(published).toHaveCount(1);

  // Cloned a week later.
  const clone = cups.getByRole('form', { name: 'Клонувати «Щотижневий кубок» на нову дату' });
  await clone.getByLabel('Дата й час нового турніру').fill('2031-03-08T18:00');
  await clone.getByRole('button', { name: 'Клонувати' }).click();
  await expect(page.getByRole('status')).toHaveText('Турнір склоновано: перевірте назву й дату');
  await expect(cups.getByRole('link', { name: 'Щотижневий кубок' })).toHaveCount(2);

  // The follower's bell has both.
  const token = await tokenOf(request, fan.nick, fan.password);
  const bell = (await (await request.get('/api/users/me/notifications', { headers: bearer(token) })).json()) as { text: string }[];
  expect(bell.filter((n) => n.text === `«${name}» оголошує новий турнір: «Щотижневий кубок».`)).toHaveLength(2);
  await open(fanPage, `/org/${slug}`);
  await settled(fanPage);
  await fanPage.getByRole('button', { name: /^Сповіщення/ }).click();
  await expect(fanPage.getByText(`«${name}» оголошує новий турнір: «Щотижневий кубок».`).first()).toBeVisible();

  // The tournament's page names its organiser, and the organisation's page lists the cups.
  await open(fanPage, `/org/${slug}`);
  await expect(fanPage.getByRole('region', { name: 'Незабаром' }).getByRole('link', { name: 'Щотижневий кубок', exact: true })).toHaveCount(2);
  await context.close();
});

for (const lang of ['uk', 'en'] as const) {
  test(`an organisation's page reads without JavaScript at 360 px (${lang}) and passes axe`, async ({ browser, request }) => {
    const [first] = (await (await request.get('/api/organisations')).json()) as { slug: string; name: string }[];
    expect(first, 'the demo has organisations').toBeTruthy();
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 800 } });
    await context.addCookies([{ name: 'lang', value: lang, url: test.info().project.use.baseURL! }]);
    const page = await context.newPage();
    const response = await page.goto(`/org/${first!.slug}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(first!.name);
    await expect(page.getByRole('heading', { name: lang === 'uk' ? 'Незабаром' : 'Upcoming' })).toBeVisible();
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/api\/og\/organisation\//);
    // Nothing wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();

    const withScript = await browser.newContext({ viewport: { width: 360, height: 800 } });
    await withScript.addCookies([{ name: 'lang', value: lang, url: test.info().project.use.baseURL! }]);
    const axePage = await withScript.newPage();
    for (const path of [`/org/${first!.slug}`, '/organisations', '/organisations/new']) {
      await open(axePage, path);
      const result = await new AxeBuilder({ page: axePage }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
      expect(serious, path).toEqual([]);
    }
    await withScript.close();
  });
}
