import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { CHAT_POLL_MS } from '../../src/lib/domain/chat.ts';
import { parseFeed } from '../support/ical.ts';
import { bearer, current, expect, freshPlayer, hydrated, open, settled, test, tokenOf, useToken } from './fixtures.ts';

/*
 * Match day schedules in the browser (issue 22): the admin times a stage in the «Етапи» window in
 * their own zone, the bracket page shows the time in the reader's zone (Kyiv's, marked, without
 * JavaScript), and the player finds the match in the cabinet's «Мої матчі» with its time and links,
 * gets the personal calendar address and changes it, after which the old one answers 404. The team
 * tab shows a team's next match and open check-in to its members (the button the captain's only),
 * and follows the team's changes through the user's event stream, without a reload.
 */

// Everyone here reads in New York: 18:00 there is 22:00 UTC, 01:00 the next day in Kyiv.
const ZONE = 'America/New_York';
test.use({ timezoneId: ZONE });

type Stages = { stages: { matches: { _id: string; scheduledAt: string | null }[] }[] };

test('the admin schedules a round in the Етапи window; the bracket and the player’s cabinet show it in the reader’s time; the personal feed is shown and revoked', async ({
  player,
  browser,
  tournament,
  request,
}) => {
  const { id, title, admin } = await tournament(['KozakSniper', 'OdesaWave']);

  const adminPage = await (await browser.newContext({ timezoneId: ZONE, locale: 'uk-UA' })).newPage();
  await useToken(adminPage, admin);
  await open(adminPage, `/tournaments/${id}`);
  await settled(adminPage);
  await adminPage.getByRole('button', { name: 'Етапи', exact: true }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Етапи' });
  await expect(dialog).toBeVisible();
  await settled(adminPage);
  await dialog.getByText('Розклад', { exact: true }).click();
  // Without a start the form says so and sends nothing.
  await dialog.getByRole('button', { name: 'Призначити час' }).click();
  await expect(dialog.getByText('Вкажіть дату й час початку.')).toBeVisible();
  await dialog.getByLabel('Початок (за північноамериканським східним часом)').fill('2031-06-01T18:00');
  await dialog.getByLabel('Тури').selectOption({ label: 'Фінал' });
  await expect(dialog.getByLabel('Хвилин на тур')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Призначити час' }).click();
  await expect(dialog.getByText('Час призначено 1 матчу.')).toBeVisible();
  // The board is read again: the match carries its time, in the admin's zone.
  await expect(dialog.getByText('1 червня 2031 р. о 18:00')).toBeVisible();
  const stages = await current<Stages>(request, `/api/tournaments/${id}/stages`);
  const match = stages.stages[0]!.matches[0]!;
  expect(match.scheduledAt).toBe('2031-06-01T22:00:00.000Z');
  await adminPage.context().close();

  // The bracket page: the server writes Kyiv's time, marked; the browser rewrites it in New York's.
  const html = await (await request.get(`/tournament/${id}/bracket`)).text();
  expect(html).toContain('2 черв. 2031 р., 01:00');
  expect(html).toContain('(за Києвом)');
  await open(player, `/tournament/${id}/bracket`);
  const card = player.getByRole('article').filter({ has: player.getByRole('link', { name: 'M1', exact: true }) });
  await expect(card.locator(`time[datetime="${match.scheduledAt}"]`)).toHaveText('1 черв. 2031 р., 18:00');
  // One zone on the screen, named: the reader's.
  await expect(card.getByText('(за Києвом)')).toHaveCount(0);
  await expect(card.getByText('(за північноамериканським східним часом)')).toBeVisible();

  // The cabinet: the match with its opponent, tournament, time and links.
  // Not `settled`: the demo player's match history below keeps its «Завантажити ще» button.
  await open(player, '/cabinet');
  const mine = player.getByRole('region', { name: 'Мої матчі' });
  const item = mine.getByRole('article').filter({ has: player.getByRole('link', { name: title, exact: true }) });
  await expect(item).toContainText('проти OdesaWave');
  await expect(item.locator('time')).toHaveText('1 червня 2031 р. о 18:00');
  await expect(item.getByRole('link', { name: 'Сторінка матчу' })).toHaveAttribute('href', `/matches/${match._id}`);
  await expect(item.getByRole('link', { name: 'Звітувати' })).toHaveAttribute('href', `/matches/${match._id}`);

  // The personal calendar: asked for on demand, works; changed after a confirm step, the old one is gone.
  const calendar = mine.getByRole('region', { name: 'Мій календар' });
  await calendar.getByRole('button', { name: 'Показати адресу календаря' }).click();
  const address = calendar.getByLabel('Адреса календаря');
  await expect(address).toHaveValue(/\/api\/calendar\/[\w-]+\.ics$/);
  const oldPath = new URL(await address.inputValue()).pathname;
  const feed = await player.request.get(oldPath);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toContain('text/calendar');
  // Read as a calendar reads it: the match is an event at its time, linking its page.
  const event = parseFeed(await feed.text()).events.find((e) => e.url !== null && new URL(e.url).pathname === `/matches/${match._id}`);
  expect(event?.summary).toBe(`KozakSniper vs OdesaWave — ${title}`);
  expect(event?.start.toISOString()).toBe(match.scheduledAt);

  await calendar.getByRole('button', { name: 'Змінити адресу' }).click();
  await expect(calendar.getByRole('alert')).toContainText('Стара адреса перестане працювати');
  await calendar.getByRole('button', { name: 'Скасувати' }).click();
  expect((await player.request.get(oldPath)).status()).toBe(200);
  await calendar.getByRole('button', { name: 'Змінити адресу' }).click();
  await calendar.getByRole('button', { name: 'Так, змінити' }).click();
  await expect(calendar.getByText('Адресу календаря змінено: стара більше не працює.')).toBeVisible();
  await expect(address).not.toHaveValue(new RegExp(`${oldPath}$`));
  expect((await player.request.get(oldPath)).status()).toBe(404);
  expect((await player.request.get(new URL(await address.inputValue()).pathname)).status()).toBe(200);
});

test('the tournament page links its calendar feed and shows its date marked as Kyiv’s until the browser rewrites it', async ({ page, tournament }) => {
  const { id, title } = await tournament(['KozakSniper', 'OdesaWave'], { draw: false });
  await open(page, `/tournaments/${id}`);
  const link = page.getByRole('link', { name: 'Додати в календар' });
  await expect(link).toHaveAttribute('href', `/api/tournaments/${id}/calendar.ics`);
  const feed = await page.request.get(`/api/tournaments/${id}/calendar.ics`);
  expect(feed.status()).toBe(200);
  const [event] = parseFeed(await feed.text()).events;
  expect(event).toMatchObject({ summary: title, start: new Date('2031-06-01T00:00:00Z') });
  expect(new URL(event!.url!).pathname).toBe(`/tournaments/${id}`);
  // The day is stored as midnight UTC: 03:00 in Kyiv, 20:00 the evening before in New York.
  const html = await (await page.request.get(`/tournaments/${id}`)).text();
  expect(html).toContain('1 червня 2031 р. о 03:00');
  await expect(page.locator('main time[datetime]').first()).toHaveText('31 травня 2031 р. о 20:00');
  await expect(page.getByText('(за Києвом)')).toHaveCount(0);
  await expect(page.getByText('(за північноамериканським східним часом)').first()).toBeVisible();
});

test('a reader in New York sees one zone, named, on every screen: the match page, the history and the registration and check-in windows', async ({
  page,
  tournament,
  request,
}) => {
  const { id, admin } = await tournament(['KozakSniper', 'OdesaWave']);
  const [match] = (await current<{ stages: { matches: { _id: string; version: number }[] }[] }>(request, `/api/tournaments/${id}/stages`)).stages[0]!.matches;
  // 16:00 UTC: 19:00 in Kyiv, 12:00 in New York.
  const timed = await request.patch(`/api/matches/${match!._id}`, { headers: bearer(admin), data: { version: match!.version, scheduledAt: '2031-06-01T16:00:00.000Z' } });
  expect(timed.status()).toBe(200);
  const played = await request.patch(`/api/matches/${match!._id}`, { headers: bearer(admin), data: { version: match!.version + 1, scoreA: 2, scoreB: 0 } });
  expect(played.status()).toBe(200);

  const kyivMark = page.getByText('(за Києвом)');
  const newYorkMark = page.getByText('(за північноамериканським східним часом)');
  await open(page, `/matches/${match!._id}`);
  await expect(page.getByText('Початок: 1 червня 2031 р. о 12:00')).toBeVisible();
  await expect(page.getByText(/^Зіграно: /)).toBeVisible();
  await expect(kyivMark).toHaveCount(0);
  await expect(newYorkMark.first()).toBeVisible();
  // Every time on the page is New York's: what the server wrote in Kyiv's is gone.
  const html = await (await request.get(`/matches/${match!._id}`)).text();
  expect(html).toContain('1 червня 2031 р. о 19:00');
  await expect(page.getByText('1 червня 2031 р. о 19:00')).toHaveCount(0);

  await open(page, `/tournaments/${id}/history`);
  await expect(newYorkMark.first()).toBeVisible();
  await expect(kyivMark).toHaveCount(0);

  // Registration until 10:00 UTC and check-in 14:00–15:30 UTC: 06:00, 10:00 and 11:30 in New York.
  // A game of its own, so the demo games' lists other tests read stay as they are.
  const title = `Зони ${randomUUID().slice(0, 8)}`;
  const game = (await (await request.post('/api/games', { headers: bearer(admin), data: { name: title } })).json()) as { game: { _id: string } };
  const created = await request.post('/api/tournaments', {
    headers: bearer(admin),
    data: {
      title,
      date: '2031-07-01T16:00:00.000Z',
      game: game.game._id,
      soloOnly: true,
      registrationClosesAt: '2031-07-01T10:00:00.000Z',
      checkInEnabled: true,
      checkInOpensAt: '2031-07-01T14:00:00.000Z',
      checkInClosesAt: '2031-07-01T15:30:00.000Z',
    },
  });
  expect(created.status()).toBe(201);
  const cup = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  await open(page, `/tournaments/${cup}`);
  await expect(page.getByText('до 1 липня 2031 р. о 06:00 (за північноамериканським східним часом)')).toBeVisible();
  await expect(page.getByText('1 липня 2031 р. о 10:00 — 1 липня 2031 р. о 11:30 (за північноамериканським східним часом)')).toBeVisible();
  await expect(kyivMark).toHaveCount(0);
});

test('a tournament on its own clock: a reader in New York sees Warsaw’s time on its pages, named, and the organiser’s stage window takes it', async ({
  page,
  browser,
  tournament,
  request,
}) => {
  const { id, admin } = await tournament(['KozakSniper', 'OdesaWave']);
  const detail = await current<{ title: string; date: string; game: string }>(request, `/api/tournaments/${id}`);
  const zoned = await request.put(`/api/tournaments/${id}`, { headers: bearer(admin), data: { title: detail.title, date: detail.date, game: detail.game, timeZone: 'Europe/Warsaw' } });
  expect(zoned.status()).toBe(200);
  const [match] = (await current<{ stages: { matches: { _id: string; version: number }[] }[] }>(request, `/api/tournaments/${id}/stages`)).stages[0]!.matches;
  // 16:00 UTC: 18:00 in Warsaw, 12:00 in New York, 19:00 in Kyiv.
  const timed = await request.patch(`/api/matches/${match!._id}`, { headers: bearer(admin), data: { version: match!.version, scheduledAt: '2031-06-01T16:00:00.000Z' } });
  expect(timed.status()).toBe(200);

  const warsaw = page.getByText('(за центральноєвропейським часом)');
  const otherZones = page.getByText(/північноамериканським|за Києвом/);
  await open(page, `/matches/${match!._id}`);
  await expect(page.getByText('Початок: 1 червня 2031 р. о 18:00')).toBeVisible();
  await expect(warsaw.first()).toBeVisible();
  await expect(otherZones).toHaveCount(0);
  // Written so by the server: the same for a reader without JavaScript.
  expect(await (await request.get(`/matches/${match!._id}`)).text()).toContain('Початок: 1 червня 2031 р. о 18:00');

  // The tournament page: its start (midnight UTC, 02:00 in Warsaw) and nothing in another zone.
  await open(page, `/tournaments/${id}`);
  await expect(page.locator('main time[datetime]').first()).toHaveText('1 червня 2031 р. о 02:00');
  await expect(warsaw.first()).toBeVisible();
  await expect(otherZones).toHaveCount(0);
  await open(page, `/tournament/${id}/bracket`);
  const card = page.getByRole('article').filter({ has: page.getByRole('link', { name: 'M1', exact: true }) });
  await expect(card.locator('time[datetime="2031-06-01T16:00:00.000Z"]')).toHaveText('1 черв. 2031 р., 18:00');
  await expect(otherZones).toHaveCount(0);

  // The organiser, also in New York, schedules on the tournament's clock.
  const adminPage = await (await browser.newContext({ timezoneId: ZONE, locale: 'uk-UA' })).newPage();
  await useToken(adminPage, admin);
  await open(adminPage, `/tournaments/${id}`);
  await settled(adminPage);
  await adminPage.getByRole('button', { name: 'Етапи', exact: true }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Етапи' });
  await settled(adminPage);
  await expect(dialog.getByText('1 червня 2031 р. о 18:00')).toBeVisible();
  await dialog.getByText('Розклад', { exact: true }).click();
  await dialog.getByLabel('Початок (за центральноєвропейським часом)').fill('2031-06-02T20:00');
  await dialog.getByRole('button', { name: 'Призначити час' }).click();
  await expect(dialog.getByText(/Час призначено/)).toBeVisible();
  const after = await current<{ stages: { matches: { scheduledAt: string | null }[] }[] }>(request, `/api/tournaments/${id}/stages`);
  expect(after.stages[0]!.matches[0]!.scheduledAt).toBe('2031-06-02T18:00:00.000Z');
  await adminPage.context().close();
});

// ------------------------------------------------------------------ the team tab

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

interface FreshTeam {
  id: string;
  name: string;
  captain: string;
  /** The members' tokens, the captain's not among them. */
  members: string[];
}

/** A team of five fresh players through the API: its captain creates it, the others accept invites. */
async function freshTeam(page: Page): Promise<FreshTeam> {
  const request = page.request;
  const lead = await freshPlayer(page, 'tcap');
  const captain = await tokenOf(request, lead.nick, lead.password);
  const name = `Склад ${randomUUID().slice(0, 8)}`;
  const created = await request.post('/api/teams', { headers: bearer(captain), data: { name } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { team: { _id: string } }).team._id;
  const members: string[] = [];
  for (let i = 1; i < 5; i++) {
    const member = await freshPlayer(page, 'tmem');
    const token = await tokenOf(request, member.nick, member.password);
    expect((await request.post(`/api/teams/${id}/invite`, { headers: bearer(captain), data: { query: member.nick } })).status()).toBe(201);
    expect((await request.post(`/api/teams/${id}/accept-invite`, { headers: bearer(token) })).status()).toBe(200);
    members.push(token);
  }
  return { id, name, captain, members };
}

/** A team tournament starting in two hours whose check-in is open now, with these teams approved. */
async function teamCup(request: APIRequestContext, admin: string, teams: FreshTeam[]) {
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const title = `Командний ${randomUUID().slice(0, 8)}`;
  const created = await request.post('/api/tournaments', {
    headers: bearer(admin),
    data: {
      title,
      date: inHours(2),
      game: games.find((g) => g.name === 'League of Legends')!._id,
      soloOnly: false,
      checkInEnabled: true,
      checkInOpensAt: inHours(-1),
      checkInClosesAt: inHours(1),
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  for (const team of teams) {
    const applied = await request.post('/api/applications', { headers: bearer(team.captain), data: { tournament: id, team: team.id } });
    expect(applied.status()).toBe(201);
    const application = ((await applied.json()) as { application: { _id: string } }).application._id;
    expect((await request.patch(`/api/applications/${application}/status`, { headers: bearer(admin), data: { status: 'approved' } })).ok()).toBe(true);
  }
  return { id, title };
}

const checkIn = async (request: APIRequestContext, token: string, tournamentId: string) =>
  expect((await request.post(`/api/tournaments/${tournamentId}/check-in`, { headers: bearer(token), data: {} })).status()).toBe(200);

/** The admin draws a single-elimination stage (which ends check-in); its one match's id. */
async function drawn(request: APIRequestContext, admin: string, tournamentId: string): Promise<{ stage: string; match: string }> {
  const made = await request.post(`/api/tournaments/${tournamentId}/stages`, { headers: bearer(admin), data: { format: 'single_elimination' } });
  expect(made.status()).toBe(201);
  const { stage } = (await made.json()) as { stage: { _id: string; matches: { _id: string }[] } };
  return { stage: stage._id, match: stage.matches[0]!._id };
}

test('the team tab shows the team’s next match and open check-in; only the captain checks in, and the members’ open tabs follow the team live', async ({
  page: captain,
  browser,
}) => {
  test.setTimeout(150_000);
  const request = captain.request;
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const [ours, theirs] = [await freshTeam(captain), await freshTeam(captain)];

  // Played: both teams checked in, the stage drawn (check-in ends with it) and timed.
  const played = await teamCup(request, admin, [ours, theirs]);
  await checkIn(request, ours.captain, played.id);
  await checkIn(request, theirs.captain, played.id);
  const { stage, match } = await drawn(request, admin, played.id);
  const timed = await request.post(`/api/tournaments/${played.id}/stages/${stage}/schedule`, {
    headers: bearer(admin),
    data: { start: '2031-06-01T22:00:00Z', roundMinutes: 60 },
  });
  expect(timed.status()).toBe(200);
  // Coming: check-in open, only the other team checked in so far.
  const coming = await teamCup(request, admin, [ours, theirs]);
  await checkIn(request, theirs.captain, coming.id);

  await useToken(captain, ours.captain);
  await open(captain, '/team');
  const card = captain.getByRole('article', { name: ours.name });
  const matches = card.getByRole('region', { name: 'Найближчі матчі команди' });
  const next = matches.getByRole('article', { name: 'Наступний матч' });
  await expect(next).toContainText(`проти ${theirs.name}`);
  await expect(next.getByRole('link', { name: played.title })).toHaveAttribute('href', `/tournaments/${played.id}`);
  // 22:00 UTC is 18:00 in New York, where this reader is.
  await expect(next.locator('time')).toHaveText('1 червня 2031 р. о 18:00');
  await expect(next.getByRole('link', { name: 'Сторінка матчу' })).toHaveAttribute('href', `/matches/${match}`);
  await expect(next.getByRole('link', { name: 'Звітувати' })).toHaveAttribute('href', `/matches/${match}`);
  const captainCheckIn = matches.getByRole('listitem').filter({ hasText: `Підтвердження участі в «${coming.title}»` });
  await expect(captainCheckIn.getByRole('button', { name: 'Підтвердити участь' })).toBeVisible();

  // A member sees the same match and the open check-in, but neither the captain's button nor the report.
  const memberContext = await browser.newContext({ timezoneId: ZONE, locale: 'uk-UA' });
  const member = await memberContext.newPage();
  // The team tab's 6 s clock stopped on this page: what it shows next can only come through the live stream.
  await member.addInitScript((pollMs) => {
    const every = window.setInterval.bind(window);
    window.setInterval = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) => (ms === pollMs ? 0 : every(handler, ms, ...rest))) as typeof window.setInterval;
  }, CHAT_POLL_MS);
  await useToken(member, ours.members[0]!);
  await open(member, '/team');
  const memberCard = member.getByRole('article', { name: ours.name });
  const memberMatches = memberCard.getByRole('region', { name: 'Найближчі матчі команди' });
  const memberNext = memberMatches.getByRole('article', { name: 'Наступний матч' });
  await expect(memberNext).toContainText(`проти ${theirs.name}`);
  await expect(memberNext.locator('time')).toHaveText('1 червня 2031 р. о 18:00');
  await expect(memberNext.getByRole('link', { name: 'Сторінка матчу' })).toHaveAttribute('href', `/matches/${match}`);
  await expect(memberNext.getByRole('link', { name: 'Звітувати' })).toHaveCount(0);
  const memberCheckIn = memberMatches.getByRole('listitem').filter({ hasText: `Підтвердження участі в «${coming.title}»` });
  await expect(memberCheckIn).toContainText('Участь команди підтверджує капітан');
  await expect(memberMatches.getByRole('button')).toHaveCount(0);

  // The captain checks the team in from the tab.
  await captainCheckIn.getByRole('button', { name: 'Підтвердити участь' }).click();
  await expect(captainCheckIn).toContainText('✓ Участь підтверджено');
  await expect(captainCheckIn.getByRole('button', { name: 'Скасувати підтвердження' })).toBeVisible();

  // The admin draws the coming tournament: the captain's open tab shows the new match (its notice on
  // the user stream) well before any poll would, and the ended check-in goes.
  await drawn(request, admin, coming.id);
  const fresh = matches.getByRole('article').filter({ has: captain.getByRole('link', { name: coming.title, exact: true }) });
  await expect(fresh).toContainText(`проти ${theirs.name}`, { timeout: 2_000 });
  await expect(captainCheckIn).toHaveCount(0, { timeout: 2_000 });

  // The captain writes in the chat: the member's open tab, its poll stopped, shows it within 2 s.
  await hydrated(member);
  const words = `Збір о 17:30 ${randomUUID().slice(0, 6)}`;
  await card.getByLabel('Повідомлення', { exact: true }).fill(words);
  await card.getByRole('button', { name: 'Надіслати' }).click();
  await expect(card.getByRole('log').getByText(words)).toBeVisible();
  await expect(memberCard.getByRole('log').getByText(words)).toBeVisible({ timeout: 2_000 });
  await memberContext.close();
});
