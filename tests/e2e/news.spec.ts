import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { newsPreview } from '../../src/lib/domain/news.ts';
import { DEMO_PLAYER, expect, open, signIn, test, tokenOfPage } from './fixtures.ts';

const newsMenu = (page: Page) => page.getByRole('navigation', { name: 'Розділи новин' });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });

/** Titles and links of the RSS feed's items, read by the browser's XML parser; null when it is not well-formed XML. */
async function readFeed(page: Page) {
  const response = await page.request.get('/news/rss.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
  return page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    if (doc.querySelector('parsererror') || doc.documentElement.nodeName !== 'rss') return null;
    return [...doc.querySelectorAll('channel > item')].map((item) => ({
      title: item.querySelector('title')?.textContent ?? '',
      link: item.querySelector('link')?.textContent ?? '',
    }));
  }, await response.text());
}

test('an admin publishes news, a player saves it, the admin archives it and the feed follows', async ({ admin: page, browser }) => {
  const title = `Турнірні новини ${randomUUID().slice(0, 8)} & <розклад>`;
  const content = `${'Оголошуємо новий сезон турнірів Кіберарени для всіх гравців. '.repeat(3)}\n\nРегламент: https://example.com/rules.`;

  // The admin publishes from the admin panel.
  await page.goto('/admin?section=news');
  const form = page.getByRole('form', { name: 'Додати новину' });
  await form.getByLabel('Назва').fill(title);
  await form.getByLabel('Текст').fill(content);
  await form.getByRole('button', { name: 'Додати новину' }).click();
  await expect(form.getByRole('status')).toHaveText('Додано новину!');
  await expect(form.getByLabel('Назва')).toHaveValue('');

  // The feed is well-formed XML and lists it with an absolute link.
  const feed = await readFeed(page);
  expect(feed).not.toBeNull();
  const entry = feed?.find((item) => item.title === title);
  expect(entry?.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/news\/[0-9a-f-]{36}$/);

  // A player sees the collapsed card, opens it, saves it and finds it under Saved.
  const playerContext = await browser.newContext();
  const player = await playerContext.newPage();
  await signIn(player, DEMO_PLAYER);
  await player.goto('/news');
  const playerCard = card(player, title);
  await expect(playerCard.locator('summary')).toContainText(newsPreview(content));
  expect(newsPreview(content).endsWith('…')).toBe(true);
  await expect(playerCard.getByRole('link', { name: 'https://example.com/rules' })).toBeHidden();
  await playerCard.locator('summary').click();
  await expect(playerCard.getByRole('link', { name: 'https://example.com/rules' })).toBeVisible();
  await playerCard.getByRole('button', { name: 'Зберегти' }).click();
  await expect(playerCard.getByRole('button', { name: 'Прибрати зі збережених' })).toBeVisible();
  await newsMenu(player).getByRole('link', { name: 'Збережені' }).click();
  await expect(player).toHaveURL('/news?view=saved');
  await expect(card(player, title)).toBeVisible();
  await player.reload();
  await expect(card(player, title)).toBeVisible();

  // The admin archives it from the News page: it leaves All news and appears in Archive.
  await page.goto('/news');
  await expect(newsMenu(page).getByRole('link', { name: 'Збережені' })).toHaveCount(0);
  await card(page, title).getByRole('button', { name: 'Редагувати' }).click();
  const edit = page.getByRole('form', { name: 'Зберегти зміни' });
  await expect(edit.getByLabel('Назва')).toHaveValue(title);
  await edit.getByLabel('В архіві').check();
  await edit.getByRole('button', { name: 'Зберегти зміни' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Новину оновлено!' })).toBeVisible();
  await expect(card(page, title)).toHaveCount(0);
  await newsMenu(page).getByRole('link', { name: 'Архів' }).click();
  await expect(page).toHaveURL('/news?view=archive');
  await expect(card(page, title)).toContainText('В архіві');

  // The player sees it in Archive and still in Saved, no longer in All news; the feed drops it.
  await player.goto('/news');
  await expect(newsMenu(player).getByRole('link', { name: 'Усі новини' })).toHaveAttribute('aria-current', 'page');
  await expect(player.getByRole('article').first()).toBeVisible();
  await expect(card(player, title)).toHaveCount(0);
  await newsMenu(player).getByRole('link', { name: 'Архів' }).click();
  await expect(card(player, title)).toBeVisible();
  await newsMenu(player).getByRole('link', { name: 'Збережені' }).click();
  await expect(card(player, title)).toBeVisible();
  expect((await readFeed(page))?.some((item) => item.title === title)).toBe(false);
  await playerContext.close();
});

test('an admin adds news on the News page, is refused an unsafe link, and deletes only after confirming', async ({ admin: page }) => {
  const title = `Новина на видалення ${randomUUID().slice(0, 8)}`;
  await page.goto('/news');
  await newsMenu(page).getByRole('link', { name: 'Додати новину' }).click();
  await expect(page).toHaveURL('/news?view=add');
  const form = page.getByRole('form', { name: 'Додати новину' });
  await form.getByLabel('Назва').fill(title);
  await form.getByLabel('Текст').fill('Коротко.');
  await form.getByLabel('Посилання «Детальніше»').fill('javascript:alert(1)');
  await form.getByRole('button', { name: 'Додати новину' }).click();
  await expect(form.getByRole('alert')).toHaveText('Поле «Посилання» має містити адресу http(s) або шлях на сайті, що починається з «/»');

  await form.getByLabel('Посилання «Детальніше»').fill('/tournaments');
  await form.getByRole('button', { name: 'Додати новину' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Додано новину!' })).toBeVisible();
  await expect(page).toHaveURL('/news');
  const created = card(page, title);
  await created.locator('summary').click();
  await expect(created.getByRole('link', { name: 'Детальніше' })).toHaveAttribute('href', '/tournaments');

  page.once('dialog', (dialog) => void dialog.dismiss());
  await created.getByRole('button', { name: 'Видалити' }).click();
  await expect(created).toBeVisible();

  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(`Видалити новину «${title}»?`);
    void dialog.accept();
  });
  await created.getByRole('button', { name: 'Видалити' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Новину видалено' })).toBeVisible();
  await expect(created).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(card(page, title)).toHaveCount(0);
});

test('a guest sees neither Save nor Add news, and Saved asks to sign in', async ({ page }) => {
  await page.goto('/news');
  const first = page.getByRole('article').first();
  await expect(first).toBeVisible();
  await expect(newsMenu(page).getByRole('link')).toHaveText(['Усі новини', 'Архів']);
  await expect(page.getByRole('button', { name: 'Зберегти' })).toHaveCount(0);
  await page.goto('/news?view=saved');
  await expect(page.getByText('Увійдіть, щоб зберігати новини й бачити їх тут.')).toBeVisible();
  await page.goto('/news?view=add');
  await expect(page.getByRole('alert')).toHaveText('Додавати новини може лише адміністратор.');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a guest reads every card in full, switches to Archive and opens a news page with link-preview tags', async ({ page }) => {
    const response = await page.goto('/news');
    expect(response?.headers()['cache-control']).toContain('public');
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', '/news/rss.xml');

    const title = 'Як подати командну заявку: коротка інструкція';
    const guide = card(page, title);
    const ending = 'Статус заявки можна стежити у сповіщеннях.';
    await expect(guide.getByText(ending)).toBeHidden();
    await expect(guide.locator('summary')).toContainText('…');
    await guide.locator('summary').click();
    await expect(guide.getByText(ending)).toBeVisible();
    await guide.locator('summary').click();
    await expect(guide.getByText(ending)).toBeHidden();

    await newsMenu(page).getByRole('link', { name: 'Архів' }).click();
    await expect(page).toHaveURL('/news?view=archive');
    await expect(card(page, '«Львівські Леви» — чемпіони першого сезону LoL')).toBeVisible();
    await expect(card(page, title)).toHaveCount(0);

    await newsMenu(page).getByRole('link', { name: 'Усі новини' }).click();
    const withImage = card(page, 'Відкрито реєстрацію на Київську лігу CS2');
    await withImage.locator('summary').click();
    await withImage.getByRole('link', { name: 'Сторінка новини' }).click();
    await expect(page).toHaveURL(/\/news\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Відкрито реєстрацію на Київську лігу CS2');
    await expect(page).toHaveTitle('Відкрито реєстрацію на Київську лігу CS2 — Кіберарена');
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect(await meta('meta[name="description"]')).toMatch(/^Стартувала реєстрація на відбірковий етап .{40,}…$/);
    expect(await meta('meta[property="og:title"]')).toBe('Відкрито реєстрацію на Київську лігу CS2 — Кіберарена');
    // The link preview is the item's share card (issue 23).
    expect(await meta('meta[property="og:image"]')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/og\/news\/[0-9a-f-]{36}\.png\?lang=uk&v=\w+$/);
    expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(await meta('meta[property="og:url"]')).toBe(page.url());
    await page.getByRole('link', { name: 'До всіх новин' }).click();
    await expect(page).toHaveURL('/news');
  });

  test('an unknown news page answers 404 with a way back', async ({ page }) => {
    const response = await page.goto(`/news/${randomUUID()}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Новину не знайдено');
    expect((await page.goto('/news/not-an-id'))?.status()).toBe(404);
    await expect(page.getByRole('link', { name: 'До всіх новин' })).toBeVisible();
  });
});

test('the archive shows ten news at a time, and «Показати ще» brings the rest, with or without JavaScript', async ({ admin: page, browser }) => {
  const headers = { Authorization: `Bearer ${tokenOfPage(page)}` };
  const mark = randomUUID().slice(0, 6);
  const created: string[] = [];
  try {
    for (let i = 1; i <= 11; i++) {
      const response = await page.request.post('/api/news', { headers, data: { title: `Архівна ${mark} №${i}`, content: 'Текст.', archived: true } });
      expect(response.status()).toBe(201);
      created.push(((await response.json()) as { _id: string })._id);
    }
    const total = ((await (await page.request.get('/api/news?archived=true')).json()) as unknown[]).length;
    // The demo archive is small: two pages hold it with ours.
    expect(total).toBeLessThanOrEqual(20);

    // A click before the island wakes would do nothing, as it would for a reader.
    await open(page, '/news?view=archive');
    const articles = page.getByRole('article');
    await expect(articles).toHaveCount(10);
    await expect(articles.first()).toHaveAccessibleName(`Архівна ${mark} №11`);
    const more = page.getByRole('link', { name: 'Показати ще' });
    await expect(more).toHaveAttribute('href', '/news?view=archive&page=2');
    await more.click();
    await expect(articles).toHaveCount(total);
    await expect(more).toHaveCount(0);
    await expect(page).toHaveURL('/news?view=archive');
    await expect(page.getByRole('article', { name: `Архівна ${mark} №1`, exact: true })).toBeVisible();

    // Without JavaScript the link opens the archive with both pages.
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const reader = await plain.newPage();
    await reader.goto('/news?view=archive');
    await expect(reader.getByRole('article')).toHaveCount(10);
    await reader.getByRole('link', { name: 'Показати ще' }).click();
    await expect(reader).toHaveURL('/news?view=archive&page=2');
    await expect(reader.getByRole('article')).toHaveCount(total);
    await expect(reader.getByRole('link', { name: 'Показати ще' })).toHaveCount(0);
    await plain.close();

    // A signed-in reader's fresh copy of that address is just as long.
    const fresh = page.waitForResponse((response) => /\/api\/news\?.*archived=true/.test(response.url()));
    await open(page, '/news?view=archive&page=2');
    await fresh;
    await expect(articles).toHaveCount(total);
    await expect(page.getByRole('button', { name: 'Редагувати' }).first()).toBeVisible();

    // All news is a list of its own, read from its first page.
    await newsMenu(page).getByRole('link', { name: 'Усі новини' }).click();
    await expect(page.getByRole('article', { name: new RegExp(`Архівна ${mark}`) })).toHaveCount(0);
  } finally {
    for (const id of created) expect((await page.request.delete(`/api/news/${id}`, { headers })).status()).toBe(200);
  }
});
