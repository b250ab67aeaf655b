import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { setResult } from '../../src/lib/domain/bracket.ts';
import { bearer, expect, freshPlayer, open, signIn, test, tokenOf, tokenOfPage } from './fixtures.ts';

/** The id of a demo tournament, found by its title through the public API. */
async function tournamentId(page: Page, title: string): Promise<string> {
  const response = await page.request.get('/api/tournaments');
  const list = (await response.json()) as { _id: string; title: string }[];
  const found = list.find((t) => t.title === title);
  if (!found) throw new Error(`no tournament «${title}»`);
  return found._id;
}

const cardTitles = (page: Page) => page.locator('main').getByRole('heading', { level: 3 });

test('a guest without JavaScript reads the games, the tournament cards and a tournament page', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();

  await page.goto('/tournaments');
  await expect(page.getByRole('heading', { level: 1, name: 'Турніри' })).toBeVisible();
  const games = page.getByRole('list', { name: 'Ігри' });
  // Other browser tests may add games to the shared database; the four demo games are always there.
  await expect(games.getByRole('link', { name: 'Valorant' })).toBeVisible();
  expect(await games.getByRole('link').allTextContents()).toEqual(expect.arrayContaining(['CS2', 'Dota 2', 'League of Legends', 'Valorant']));

  await games.getByRole('link', { name: 'CS2', exact: true }).click();
  await expect(page).toHaveURL(/\/games\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Турніри з гри: CS2');
  await expect(cardTitles(page)).toHaveText(['Київська ліга CS2: відбірковий етап', 'Соло-челендж «Королі AWP»', 'Aim Major з CS2: швейцарський етап', 'Кубок Дніпра з CS2']);
  const firstCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Київська ліга CS2: відбірковий етап' }) });
  await expect(firstCard.locator('time')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
  await expect(firstCard).toContainText('Лише команди');
  await expect(firstCard).toContainText('Очікує');
  await expect(firstCard.getByRole('link', { name: /^Подати заявку/ })).toBeVisible();

  await page.getByRole('link', { name: 'Кубок Дніпра з CS2', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Кубок Дніпра з CS2');
  await expect(page).toHaveTitle('Кубок Дніпра з CS2 — Кіберарена');
  await expect(page.getByRole('heading', { name: '4 учасники' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Склад команди Київські Кіборги' }).getByRole('listitem')).toHaveCount(6);
  await expect(page.getByText('Київські Кіборги', { exact: true }).first()).toBeVisible();
  // Its bracket is drawn and played: applications are closed, and the page says why.
  await expect(page.getByText('Сітку вже сформовано — заявки на цей турнір закрито')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Сітка' })).toHaveAttribute('href', /^\/tournament\/[0-9a-f-]{36}\/bracket$/);

  // A shared link previews well: its own title, description and an absolute picture.
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Кубок Дніпра з CS2 — Кіберарена');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Командний турнір за олімпійською системою/);
  // The link preview is the tournament's share card (issue 23), in the reader's language.
  const card = /^http:\/\/127\.0\.0\.1:\d+\/api\/og\/tournament\/[0-9a-f-]{36}\.png\?lang=uk&v=\w+$/;
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', card);
  await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute('content', card);
  await context.close();
});

test('a guest without JavaScript lists every game’s tournaments from /tournaments, each card naming its game', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/tournaments');
  await page.getByRole('link', { name: 'Усі турніри всіх ігор' }).click();
  await expect(page).toHaveURL('/games/all');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Турніри всіх ігор');
  const cards = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
  await expect(cards.first()).toBeVisible();
  // Each card says its game; the list holds more than one game's tournaments.
  const named = await cards.evaluateAll((items) => items.map((item) => item.querySelector('p.text-sm span.font-semibold')?.textContent ?? ''));
  expect(named.every((name) => name.length > 0)).toBe(true);
  expect(new Set(named).size).toBeGreaterThan(1);
  expect(named).toEqual(expect.arrayContaining([expect.stringMatching(/^(CS2|Dota 2|League of Legends|Valorant)$/)]));
  // A made-up game is still not found.
  expect((await page.request.get('/games/every')).status()).toBe(404);
  await context.close();
});

test('a player applies solo and then sees «Заявку вже подано», also after a reload', async ({ page }) => {
  const id = await tournamentId(page, 'Valorant Duel Cup: вечірній спринт');
  await signIn(page, 'Karpaty_Wolf');
  await page.goto(`/tournaments/${id}`);
  const block = page.getByRole('region', { name: 'Участь' });
  await block.getByRole('button', { name: 'Подати заявку' }).click();
  await expect(block.getByRole('status')).toHaveText('Заявку подано!');
  await expect(block.getByRole('button', { name: 'Заявку вже подано' })).toBeDisabled();
  await expect(block).toContainText('Заявка чекає на розгляд організатора.');
  await page.reload();
  await expect(block.getByRole('button', { name: 'Заявку вже подано' })).toBeDisabled();

  // The game's cards say so too, instead of offering another application; a guest is still offered one.
  const game = await page.getByRole('link', { name: 'Valorant', exact: true }).first().getAttribute('href');
  await page.goto(game ?? '/tournaments');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Valorant Duel Cup: вечірній спринт' }) });
  await expect(card.getByRole('link', { name: 'Заявку подано: Valorant Duel Cup: вечірній спринт' })).toBeVisible();
  await expect(card.getByRole('link', { name: /^Подати заявку/ })).toHaveCount(0);
  const guest = await page.context().browser()!.newPage();
  await guest.goto(game ?? '/tournaments');
  await expect(guest.getByRole('link', { name: 'Подати заявку: Valorant Duel Cup: вечірній спринт' })).toBeVisible();
  await guest.close();
});

test('a team member who is not the captain cannot apply for the team', async ({ page }) => {
  const id = await tournamentId(page, 'Чемпіонат Слобожанщини з LoL');
  await signIn(page, 'Hetman_AWP');
  await page.goto(`/tournaments/${id}`);
  const block = page.getByRole('region', { name: 'Участь' });
  await expect(block.getByRole('button', { name: 'Лише капітан може подати заявку від команди' })).toBeDisabled();
  await expect(block).toContainText('Команда «Київські Кіборги»: гравців — 6.');
});

test('a guest is asked to sign in on the apply card untouched, and the link brings them back to it signed in; a signed-in reader is never asked', async ({ page, browser }) => {
  const id = await tournamentId(page, 'Valorant Duel Cup: вечірній спринт');
  const { nick, password } = await freshPlayer(page, 'back');
  const back = `/tournaments/${id}#apply`;

  // Where the home page's «Подати заявку» leads: the offer is the page's own HTML, with nothing hydrated.
  await page.goto(back);
  const block = page.getByRole('region', { name: 'Участь' });
  const offer = block.getByRole('link', { name: 'Увійдіть, щоб подати заявку' });
  await expect(offer).toBeVisible();
  await expect(offer).toHaveAttribute('href', `/login?next=${encodeURIComponent(back)}`);
  await expect(block.getByRole('link', { name: 'Зареєструйтеся' })).toHaveAttribute('href', `/register?next=${encodeURIComponent(back)}`);
  await expect(block.getByText('Перевіряємо, чи можна подати заявку...')).toBeHidden();
  await expect(block.locator('astro-island')).toHaveAttribute('ssr', '');

  await offer.click();
  await expect(page).toHaveURL(`/login?next=${encodeURIComponent(back)}`);
  await page.getByLabel('Нікнейм або email').fill(nick);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Увійти', exact: true }).click();
  await expect(page).toHaveURL(back);
  await expect(block.getByRole('button', { name: 'Подати заявку' })).toBeVisible();
  await expect(offer).toHaveCount(0);

  // A signed-in reader gets the same shared HTML: with no island script ever loading, the offer
  // is still hidden from the first paint, and the block says it is checking instead.
  const reader = await browser.newPage();
  await signIn(reader, nick, password);
  await reader.route('**/_astro/**/*.js', (route) => route.abort());
  await reader.goto(back);
  const readerBlock = reader.getByRole('region', { name: 'Участь' });
  await expect(readerBlock.getByText('Перевіряємо, чи можна подати заявку...')).toBeVisible();
  await expect(readerBlock.getByRole('link', { name: 'Увійдіть, щоб подати заявку' })).toBeHidden();
  await reader.close();
});

test('a captain of a five-player team applies, an admin approves, and the team appears among participants', async ({ admin, browser }) => {
  const title = 'Чемпіонат Слобожанщини з LoL';
  const id = await tournamentId(admin, title);

  const captainContext = await browser.newContext();
  const captain = await captainContext.newPage();
  await signIn(captain, 'DniproDragon');
  await captain.goto(`/tournaments/${id}`);
  await expect(captain.getByRole('region', { name: 'Учасники' })).not.toContainText('Dnipro Dragons');
  const block = captain.getByRole('region', { name: 'Участь' });
  await expect(block).toContainText('Команда «Dnipro Dragons»: гравців — 5.');
  await block.getByRole('button', { name: 'Подати заявку від команди «Dnipro Dragons»' }).click();
  await expect(block.getByRole('status')).toHaveText('Заявку від команди подано! Очікуйте підтвердження від організатора.');
  await expect(block.getByRole('button', { name: 'Заявку вже подано' })).toBeDisabled();

  await admin.goto('/admin');
  const panel = admin.getByRole('region', { name: 'Заявки' });
  const row = panel.getByRole('listitem').filter({ hasText: title }).filter({ hasText: 'Dnipro Dragons' });
  await row.getByRole('button', { name: /^Схвалити/ }).click();
  await expect(panel.getByRole('status')).toHaveText('✅ Заявку схвалено');
  await expect(row).toHaveCount(0);

  await admin.goto(`/tournaments/${id}`);
  // Two clans were approved in the demo before it: the new one makes three.
  const participants = admin.getByRole('region', { name: '3 учасники' });
  await expect(participants.getByRole('heading', { name: 'Dnipro Dragons' })).toBeVisible();
  await expect(participants.getByRole('list', { name: 'Склад команди Dnipro Dragons' }).getByRole('listitem')).toHaveCount(5);

  // The captain's page says so too.
  await captain.reload();
  await expect(captain.getByRole('region', { name: 'Участь' })).toContainText('Заявку схвалено — ви серед учасників.');
  await captainContext.close();
});

test('the list filters and sort survive a reload, and reset restores all, all, newest first', async ({ page }) => {
  await page.goto('/tournaments');
  await page.getByRole('list', { name: 'Ігри' }).getByRole('link', { name: 'CS2', exact: true }).click();
  await expect(cardTitles(page)).toHaveCount(4);

  await page.getByRole('button', { name: 'Лише команди' }).click();
  await expect(cardTitles(page)).toHaveText(['Київська ліга CS2: відбірковий етап', 'Кубок Дніпра з CS2']);
  await page.getByLabel('Сортування').selectOption({ label: 'Спершу старі' });
  await expect(cardTitles(page)).toHaveText(['Кубок Дніпра з CS2', 'Київська ліга CS2: відбірковий етап']);
  await page.getByLabel('Статус').selectOption({ label: 'Завершені' });
  await expect(cardTitles(page)).toHaveText(['Кубок Дніпра з CS2']);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Лише команди' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Статус')).toHaveValue('finished');
  await expect(page.getByLabel('Сортування')).toHaveValue('date_asc');
  await expect(cardTitles(page)).toHaveText(['Кубок Дніпра з CS2']);
  expect(await page.evaluate(() => [localStorage.getItem('tl_filter'), localStorage.getItem('tl_status'), localStorage.getItem('tl_sort')])).toEqual([
    'team',
    'finished',
    'date_asc',
  ]);

  await page.getByRole('button', { name: 'Лише соло' }).click();
  await expect(page.getByRole('status')).toHaveText('Жоден турнір не відповідає вибраним фільтрам');

  await page.getByRole('button', { name: 'Скинути' }).click();
  await expect(page.getByRole('button', { name: 'Усі' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Статус')).toHaveValue('all');
  await expect(page.getByLabel('Сортування')).toHaveValue('date_desc');
  await expect(cardTitles(page)).toHaveText(['Київська ліга CS2: відбірковий етап', 'Соло-челендж «Королі AWP»', 'Aim Major з CS2: швейцарський етап', 'Кубок Дніпра з CS2']);
});

test('an admin adds a game and a tournament for it, lands on the new pending tournament, and may not delete the game while it exists', async ({ admin: page }) => {
  const game = `Tekken ${randomUUID().slice(0, 6)}`;
  const title = `Турнір з ${game}`;
  await page.goto('/admin?section=games');

  // The lists arrive once the panels have hydrated; only then do the forms act without a reload.
  const games = page.getByRole('region', { name: 'Ігри', exact: true });
  await expect(games.getByRole('listitem').first()).toBeVisible();
  await games.getByLabel('Назва гри').fill(game);
  await games.getByLabel('Зображення (URL або шлях)').fill('/no-such-picture.png');
  await games.getByRole('button', { name: 'Додати гру' }).click();
  await expect(games.getByRole('status')).toHaveText('✅ Гру додано!');

  await page.getByRole('navigation', { name: 'Розділи адмін-панелі' }).getByRole('link', { name: 'Турніри' }).click();
  await expect(page.getByRole('region', { name: 'Список турнірів' }).getByRole('listitem').first()).toBeVisible();
  const form = page.getByRole('form', { name: 'Новий турнір' });
  // A new tournament starts pending: the form offers no status to choose.
  await expect(form.getByText('Статус спершу «Очікує»')).toBeVisible();
  await expect(form.getByRole('combobox', { name: 'Статус' })).toHaveCount(0);
  await form.getByLabel('Назва турніру').fill(title);
  await form.getByRole('button', { name: 'Додати турнір' }).click();
  await expect(page.getByRole('region', { name: 'Новий турнір' }).getByRole('alert')).toHaveText('❌ Оберіть гру для турніру!');
  await form.getByRole('combobox', { name: 'Гра', exact: true }).selectOption({ label: game });
  await form.getByLabel('Дата й час (за Києвом)').fill('2031-05-01T19:00');
  await form.getByLabel('Лише соло-гравці').check();
  await form.getByLabel('Зображення (URL або шлях)').fill('/no-such-picture.png');
  await form.getByRole('button', { name: 'Додати турнір' }).click();
  // The admin lands on the new tournament's page, and it is pending.
  await page.waitForURL(/\/tournaments\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.locator('dl')).toContainText('Очікує');
  // The list is paged, newest first, and other tests add tournaments dated later: narrowed to the new game, it is there.
  await open(page, '/admin?section=tournaments');
  const list = page.getByRole('region', { name: 'Список турнірів' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await list.getByRole('combobox', { name: 'Гра' }).selectOption({ label: game });
  await expect(list.getByRole('link', { name: title })).toBeVisible();

  await open(page, '/admin?section=games');
  await expect(games.getByRole('listitem').first()).toBeVisible();
  page.once('dialog', (dialog) => void dialog.accept());
  await games.getByRole('button', { name: `Видалити: ${game}` }).click();
  await expect(games.getByRole('alert')).toHaveText(/^❌ Не можна видалити гру: до неї привʼязано турнірів — 1\./);

  // The new tournament is on the game's public list, solo and pending, dated in Kyiv time.
  // Broken pictures give way to the default one, on the game picker and on the cards.
  await page.goto('/tournaments');
  const gameLink = page.getByRole('list', { name: 'Ігри' }).getByRole('link', { name: game });
  await expect(gameLink.locator('img')).toHaveAttribute('src', '/default_game.jpg');
  await gameLink.click();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card.locator('time')).toHaveText('2031-05-01');
  await expect(card).toContainText('Лише соло-гравці');
  await expect(card.locator('img')).toHaveAttribute('src', '/default_game.jpg');
});

test('«Розпочати» asks first when a tournament has no stage drawn, and starts one with a stage at once', async ({ admin: page, request }) => {
  const headers = bearer(tokenOfPage(page));
  // A game of its own, so the admin list narrowed to it holds just these two.
  const game = `Старт ${randomUUID().slice(0, 6)}`;
  const made = await request.post('/api/games', { headers, data: { name: game } });
  expect(made.status()).toBe(201);
  const gameId = ((await made.json()) as { game: { _id: string } }).game._id;
  const create = async (title: string) => {
    const response = await request.post('/api/tournaments', { headers, data: { title, date: '2031-07-01T16:00:00Z', game: gameId, soloOnly: true } });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { tournament: { _id: string } }).tournament._id;
  };
  const statusOf = async (id: string) => ((await (await request.get(`/api/tournaments/${id}`)).json()) as { status: string }).status;
  const bareId = await create('Без сітки');

  // One with a bracket drawn (which starts it), set back to pending by its edit form.
  const drawnId = await create('Із сіткою');
  for (const nick of ['OdesaWave', 'KharkivHawk']) {
    const applied = await request.post('/api/applications', { headers: bearer(await tokenOf(request, nick)), data: { tournament: drawnId } });
    expect(applied.status(), nick).toBe(201);
    const application = ((await applied.json()) as { application: { _id: string } }).application;
    expect((await request.patch(`/api/applications/${application._id}/status`, { headers, data: { status: 'approved' } })).ok()).toBe(true);
  }
  expect((await request.post(`/api/tournaments/${drawnId}/bracket`, { headers, data: {} })).status()).toBe(201);
  const back = await request.put(`/api/tournaments/${drawnId}`, {
    headers,
    data: { title: 'Із сіткою', date: '2031-07-01T16:00:00Z', game: gameId, status: 'pending' },
  });
  expect(back.status()).toBe(200);

  const dialogs: string[] = [];
  await open(page, '/admin-tournaments');
  const list = page.getByRole('region', { name: 'Список турнірів' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await list.getByRole('combobox', { name: 'Гра' }).selectOption({ label: game });
  const row = (title: string) => list.getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) });
  await expect(list.getByRole('listitem')).toHaveCount(2);

  // Without a stage: asked, and declining changes nothing.
  page.once('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await row('Без сітки').getByRole('button', { name: 'Розпочати' }).click();
  await expect.poll(() => dialogs).toEqual(['У турнірі ще немає сітки чи етапу: розпочати все одно?']);
  await expect(row('Без сітки').getByRole('button', { name: 'Розпочати' })).toBeEnabled();
  expect(await statusOf(bareId)).toBe('pending');
  await expect(row('Без сітки')).toContainText('Очікує');

  // Agreeing starts it.
  page.once('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await row('Без сітки').getByRole('button', { name: 'Розпочати' }).click();
  await expect(page.getByRole('status')).toHaveText('✅ Статус турніру «Без сітки»: Розпочато');
  await expect(row('Без сітки')).toContainText('Розпочато');
  expect(await statusOf(bareId)).toBe('started');
  expect(dialogs).toHaveLength(2);

  // With a stage drawn: started at once, nothing asked.
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await row('Із сіткою').getByRole('button', { name: 'Розпочати' }).click();
  await expect(page.getByRole('status')).toHaveText('✅ Статус турніру «Із сіткою»: Розпочато');
  expect(await statusOf(drawnId)).toBe('started');
  expect(dialogs).toHaveLength(2);
});

test('on a tournament page an admin deletes an application only after confirming, and chooses the winner of a finished one', async ({ admin: page }) => {
  await page.goto(`/tournaments/${await tournamentId(page, 'Мід 1×1: Дуель козаків')}`);
  const tools = page.getByRole('region', { name: 'Усі заявки турніру' });
  const remove = tools.getByRole('button', { name: 'Видалити: SaloSlayer' });
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('Видалити заявку «SaloSlayer»?');
    void dialog.dismiss();
  });
  await remove.click();
  await expect(remove).toBeVisible();
  page.once('dialog', (dialog) => void dialog.accept());
  await remove.click();
  await expect(tools.getByRole('button', { name: 'Видалити: SaloSlayer' })).toHaveCount(0);
  await expect(tools.getByRole('button', { name: 'Видалити: Sich_Raider' })).toBeVisible();
  // A pending tournament offers no winner choice.
  await expect(page.getByRole('combobox', { name: 'Обрати переможця' })).toHaveCount(0);
});

test('by the winner block an admin is offered exactly the bracket’s champion, and may choose someone else only after confirming', async ({ admin: page, request, tournament }) => {
  const { id, admin, drawn, ids } = await tournament(['OdesaWave', 'KharkivHawk', 'Mavka_Mid', 'LvivLion']);
  // Play the whole bracket: OdesaWave beats KharkivHawk, Mavka_Mid beats LvivLion, Mavka_Mid wins the final.
  let bracket = setResult(drawn.bracket, 0, 0, ids.OdesaWave!);
  bracket = setResult(bracket, 0, 1, ids.Mavka_Mid!);
  bracket = setResult(bracket, 1, 0, ids.Mavka_Mid!);
  expect((await request.patch(`/api/tournaments/${id}/bracket`, { headers: bearer(admin), data: { bracket } })).status()).toBe(200);

  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page, `/tournaments/${id}`);
  const winnerBlock = page.getByRole('heading', { name: 'Переможець' }).locator('xpath=../..');
  const declare = page.getByRole('button', { name: 'Оголосити Mavka_Mid переможцем' });
  await expect(declare).toBeVisible();
  // Right by the winner block, not at the bottom of the page; one champion, no list of everyone.
  const block = (await winnerBlock.boundingBox())!;
  expect((await declare.boundingBox())!.y - (block.y + block.height)).toBeLessThan(200);
  await expect(page.getByRole('button', { name: /^Оголосити .* переможцем$/ })).toHaveCount(1);
  await expect(page.getByRole('combobox', { name: 'Обрати переможця' })).toHaveCount(0);

  // Someone else only after confirming that the bracket says otherwise.
  const other = page.getByRole('button', { name: 'Обрати іншого переможця' });
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('Сітку виграв Mavka_Mid. Справді оголосити переможцем когось іншого?');
    void dialog.dismiss();
  });
  await other.click();
  await expect(page.getByRole('combobox', { name: 'Обрати переможця' })).toHaveCount(0);
  page.once('dialog', (dialog) => void dialog.accept());
  await other.click();
  const chooser = page.getByRole('combobox', { name: 'Обрати переможця' });
  expect((await chooser.getByRole('option').allTextContents()).sort()).toEqual(['KharkivHawk', 'LvivLion', 'OdesaWave', 'Оберіть учасника']);
  await chooser.selectOption({ label: 'OdesaWave' });
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('Оголосити переможцем «OdesaWave»? Змінити вибір потім не можна.');
    void dialog.dismiss();
  });
  await page.getByRole('button', { name: 'Зберегти переможця' }).click();

  // The one action: the champion is the winner and the started tournament is finished, in one call.
  await declare.click();
  await expect(winnerBlock).toContainText('Mavka_Mid');
  await expect(page.locator('dl')).toContainText('Завершено');
  await expect(page.getByRole('button', { name: /переможцем$/ })).toHaveCount(0);
});

test('once the bracket is drawn the apply block says applications are closed', async ({ page, request, tournament }) => {
  const { id, admin } = await tournament(['OdesaWave', 'KharkivHawk'], { draw: false });
  await signIn(page, 'Karpaty_Wolf');
  await open(page, `/tournaments/${id}`);
  const apply = page.getByRole('region', { name: 'Участь' });
  await expect(apply.getByRole('button', { name: 'Подати заявку' })).toBeVisible();
  expect((await request.post(`/api/tournaments/${id}/bracket`, { headers: bearer(admin), data: {} })).status()).toBe(201);
  // The page open since before the draw: applying is refused with the server's reason.
  await apply.getByRole('button', { name: 'Подати заявку' }).click();
  await expect(apply.getByRole('alert')).toContainText('Сітку вже сформовано — заявки на цей турнір закрито');
  await page.reload();
  await expect(apply).toContainText('Сітку вже сформовано — заявки на цей турнір закрито');
  await expect(apply.getByRole('button', { name: 'Подати заявку' })).toHaveCount(0);
  await expect(page.locator('dl')).toContainText('Розпочато');
});

test('a long list shows a page of cards, and «Показати ще» brings the next one until none is left, with or without JavaScript', async ({ admin: page, browser }) => {
  const headers = bearer(tokenOfPage(page));
  const game = (await (await page.request.post('/api/games', { headers, data: { name: `Довга ліга ${randomUUID().slice(0, 6)}` } })).json()) as {
    game: { _id: string };
  };
  // Long past, so these stay behind the demo tournaments in every other test's lists.
  for (let i = 0; i < 30; i++) {
    const date = new Date(Date.UTC(2001, 0, 1 + i)).toISOString();
    const created = await page.request.post('/api/tournaments', { headers, data: { game: game.game._id, title: `Етап ${String(i + 1).padStart(2, '0')}`, date } });
    expect(created.status()).toBe(201);
  }

  // Without JavaScript «Показати ще» is a link to the same list with one page more.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const reader = await plain.newPage();
  await reader.goto(`/games/${game.game._id}`);
  await expect(cardTitles(reader)).toHaveCount(24);
  await reader.getByRole('link', { name: 'Показати ще' }).click();
  await expect(reader).toHaveURL(`/games/${game.game._id}?page=2`);
  await expect(cardTitles(reader)).toHaveCount(30);
  await expect(cardTitles(reader).first()).toHaveText('Етап 30');
  await expect(cardTitles(reader).last()).toHaveText('Етап 01');
  await expect(reader.getByRole('link', { name: 'Показати ще' })).toHaveCount(0);
  await plain.close();

  // With it, the next page is added in place.
  await open(page, `/games/${game.game._id}`);
  await expect(cardTitles(page)).toHaveCount(24);
  await expect(cardTitles(page).first()).toHaveText('Етап 30');
  await page.getByRole('link', { name: 'Показати ще' }).click();
  await expect(cardTitles(page)).toHaveCount(30);
  await expect(cardTitles(page).last()).toHaveText('Етап 01');
  await expect(page).toHaveURL(`/games/${game.game._id}`);
  await expect(page.getByRole('link', { name: 'Показати ще' })).toHaveCount(0);

  // Sorting asks the server again, from the first page.
  await page.getByLabel('Сортування').selectOption({ label: 'Назва Я–А' });
  await expect(cardTitles(page)).toHaveCount(24);
  await expect(cardTitles(page).first()).toHaveText('Етап 30');
  await page.getByLabel('Сортування').selectOption({ label: 'Спершу старі' });
  await expect(cardTitles(page).first()).toHaveText('Етап 01');
});
