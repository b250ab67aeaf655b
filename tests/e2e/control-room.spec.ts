import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import { bearer, current, expect, hydrated, settled, test, tokenOf } from './fixtures.ts';
import { E2E_ADMIN } from '../../playwright.config.ts';

/*
 * The control room (issue 57): the organiser watches it while a dispute arrives, resolves it there
 * and the bracket moves on; check-in at the organisers' desk — checking a player in, bringing back a
 * player the close dropped, extending the window. At 360 and 1280 px, with axe.
 */

type Stage = { stages: { matches: { _id: string; round: number; a: string | null; b: string | null; status: string; winner: string | null }[] }[] };

for (const width of [360, 1280]) {
  test(`a dispute arrives while the organiser watches, is resolved there, and the bracket moves (${width} px)`, async ({ admin, tournament, request }) => {
    await admin.setViewportSize({ width, height: 900 });
    const players = ['KozakSniper', 'OdesaWave', 'KharkivHawk', 'ZaporizhRush'];
    const { id, title, ids } = await tournament(players);
    const stages = await current<Stage>(request, `/api/tournaments/${id}/stages`);
    const semi = stages.stages[0]!.matches.find((m) => m.round === 1 && m.a && m.b)!;
    const nick = (userId: string | null) => Object.keys(ids).find((n) => ids[n] === userId)!;
    const [a, b] = [nick(semi.a), nick(semi.b)];

    // The tournament page leads its organiser to the control room.
    await admin.goto(`/tournaments/${id}`);
    await hydrated(admin);
    await admin.getByRole('link', { name: 'Пульт організатора' }).click();
    await expect(admin).toHaveURL(`/tournaments/${id}/control`);
    await expect(admin.getByRole('heading', { level: 1 })).toHaveText(`Пульт організатора: ${title}`);
    await settled(admin);
    await expect(admin.getByRole('heading', { name: /Готові до гри, без звіту · 2/ })).toBeVisible();

    // The sides disagree, while the room is open: it shows the dispute without a reload.
    const report = await request.post(`/api/matches/${semi._id}/report`, { headers: bearer(await tokenOf(request, a)), data: { scoreA: 2, scoreB: 0 } });
    expect(report.status()).toBe(200);
    const dispute = await request.post(`/api/matches/${semi._id}/dispute`, { headers: bearer(await tokenOf(request, b)), data: { reason: 'Насправді я виграв 2:1' } });
    expect(dispute.status()).toBe(200);
    const card = admin.locator(`[data-kind="dispute"][data-match="${semi._id}"]`);
    await expect(card).toBeVisible({ timeout: 15_000 });
    await expect(card.getByText(`${a}: 2:0`)).toBeVisible();
    await expect(card.getByText(`Скарга (${b}): «Насправді я виграв 2:1»`)).toBeVisible();
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // The organiser enters the result there: the dispute is gone and the winner waits in the final.
    await card.getByRole('button', { name: 'Інший результат…' }).click();
    const form = admin.getByRole('dialog');
    await form.getByLabel(`Рахунок: ${a}`).fill('1');
    await form.getByLabel(`Рахунок: ${b}`).fill('2');
    await form.getByRole('button', { name: 'Зберегти' }).click();
    await expect(admin.getByText('Результат збережено')).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(admin.getByRole('heading', { name: /Готові до гри, без звіту · 1/ })).toBeVisible();
    const after = await current<Stage>(request, `/api/tournaments/${id}/stages`);
    expect(after.stages[0]!.matches.find((m) => m._id === semi._id)).toMatchObject({ status: 'completed', winner: ids[b] });
    const final = after.stages[0]!.matches.find((m) => m.round === 2)!;
    expect([final.a, final.b]).toContain(ids[b]);
  });
}

test('check-in at the organisers’ desk: check a player in, and bring back one the close dropped; axe finds nothing serious', async ({ admin, request }) => {
  test.setTimeout(120_000);
  const boss = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const now = Date.now();
  const created = await request.post('/api/tournaments', {
    headers: bearer(boss),
    data: {
      title: `Відмітка ${randomUUID().slice(0, 8)}`,
      date: new Date(now + 2 * 3_600_000).toISOString(),
      game: games.find((g) => g.name === 'League of Legends')!._id,
      soloOnly: true,
      checkInEnabled: true,
      checkInOpensAt: new Date(now - 60_000).toISOString(),
      // Closes soon: the sweep (every 15 s) drops whoever has not checked in.
      checkInClosesAt: new Date(now + 40_000).toISOString(),
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  for (const nick of ['Mavka_Mid', 'Lesya_Support']) {
    const applied = await request.post('/api/applications', { headers: bearer(await tokenOf(request, nick)), data: { tournament: id } });
    const application = ((await applied.json()) as { application: { _id: string } }).application;
    await request.patch(`/api/applications/${application._id}/status`, { headers: bearer(boss), data: { status: 'approved' } });
  }

  await admin.setViewportSize({ width: 360, height: 900 });
  await admin.goto(`/tournaments/${id}/control`);
  await settled(admin);
  const desk = admin.getByRole('region', { name: 'Реєстрація присутності' });
  await expect(desk.getByText('Відмітилися 0 з 2')).toBeVisible();
  const mavka = desk.getByRole('listitem').filter({ hasText: 'Mavka_Mid' });
  await mavka.getByRole('button', { name: 'Відмітити' }).click();
  await expect(mavka.getByText('Відмічений')).toBeVisible();
  await expect(desk.getByText('Відмітилися 1 з 2')).toBeVisible();

  const axe = await new AxeBuilder({ page: admin }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

  // Lesya does not come in time: the close drops her, and the room shows it live.
  const lesya = desk.getByRole('listitem').filter({ hasText: 'Lesya_Support' });
  await expect(lesya.getByText('Вибув: не відмітився вчасно')).toBeVisible({ timeout: 75_000 });
  // She arrives after all: the organiser brings her back.
  await lesya.getByRole('button', { name: 'Повернути' }).click();
  await expect(lesya.getByText('Відмічений')).toBeVisible();
  await expect(desk.getByText('Відмітилися 2 з 2')).toBeVisible();
  const bell = (await (await request.get('/api/users/me/notifications', { headers: bearer(await tokenOf(request, 'Lesya_Support')) })).json()) as { kind: string }[];
  expect(bell.map((n) => n.kind)).toEqual(expect.arrayContaining(['checkInMissed', 'applicationApproved']));
});

test('extending check-in moves its close later, as the desk shows', async ({ admin, request }) => {
  const boss = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const now = Date.now();
  const closes = new Date(now + 30 * 60_000);
  const created = await request.post('/api/tournaments', {
    headers: bearer(boss),
    data: {
      title: `Подовження ${randomUUID().slice(0, 8)}`,
      date: new Date(now + 2 * 3_600_000).toISOString(),
      game: games.find((g) => g.name === 'League of Legends')!._id,
      soloOnly: true,
      checkInEnabled: true,
      checkInOpensAt: new Date(now - 60_000).toISOString(),
      checkInClosesAt: closes.toISOString(),
    },
  });
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  // Its organiser is not offered to apply: the tournament page leads to the control room instead.
  await admin.goto(`/tournaments/${id}`);
  await settled(admin);
  const apply = admin.getByRole('region', { name: 'Участь' });
  await expect(apply.getByText('Ви організовуєте цей турнір: заявки учасників і їхню відмітку — у пульті.')).toBeVisible();
  await expect(apply.getByRole('button', { name: 'Подати заявку' })).toHaveCount(0);
  await apply.getByRole('link', { name: 'Пульт організатора' }).click();
  await expect(admin).toHaveURL(`/tournaments/${id}/control`);
  await settled(admin);
  await admin.getByRole('button', { name: 'Подовжити на 10 хв' }).click();
  await expect(admin.getByText('Реєстрацію присутності подовжено')).toBeVisible();
  const detail = await current<{ checkInClosesAt: string }>(request, `/api/tournaments/${id}`);
  expect(Date.parse(detail.checkInClosesAt) - closes.getTime()).toBe(10 * 60_000);
});

test('a player calls the organiser from the match page; the organiser sees the call in the control room and answers it', async ({ player, browser, tournament }) => {
  const { id, admin: bossToken } = await tournament(['KozakSniper', 'Hetman_AWP']);
  const match = (await (await player.request.get(`/api/tournaments/${id}/stages`)).json()) as Stage;
  const matchId = match.stages[0]!.matches[0]!._id;
  await player.goto(`/matches/${matchId}`);
  await hydrated(player);
  await player.getByRole('button', { name: 'Покликати організатора' }).click();
  await player.getByLabel('Що сталося (можна не писати)').fill('Суперник не заходить у лобі');
  await player.getByRole('button', { name: 'Покликати', exact: true }).click();
  await expect(player.getByText('Організаторів покликано: вони бачать ваш матч у пульті')).toBeVisible();

  const organiser = await (await browser.newContext()).newPage();
  await organiser.addInitScript((token) => localStorage.setItem('token', token), bossToken);
  await organiser.goto(`/tournaments/${id}/control`);
  await settled(organiser);
  const card = organiser.locator(`[data-kind="call"][data-match="${matchId}"]`);
  await expect(card.getByText(/KozakSniper о \d{2}:\d{2}: «Суперник не заходить у лобі»/)).toBeVisible();
  await card.getByRole('button', { name: 'Відповів — закрити виклик' }).click();
  await expect(organiser.getByText('Виклик закрито')).toBeVisible();
  await expect(card).toHaveCount(0);
  await organiser.context().close();
});

test('the organiser approves every pending application at once near the top of the page; the admin list narrows to one tournament', async ({ admin, request }) => {
  const boss = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const title = `Заявки ${randomUUID().slice(0, 8)}`;
  const created = await request.post('/api/tournaments', {
    headers: bearer(boss),
    data: { title, date: '2031-07-01T16:00:00Z', game: games.find((g) => g.name === 'League of Legends')!._id, soloOnly: true },
  });
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  for (const nick of ['PoltavaPro', 'Dnister_Flow', 'Bandura_Beats']) {
    expect((await request.post('/api/applications', { headers: bearer(await tokenOf(request, nick)), data: { tournament: id } })).status(), nick).toBe(201);
  }
  await admin.goto(`/tournaments/${id}`);
  await settled(admin);
  const tools = admin.getByRole('region', { name: 'Усі заявки турніру' });
  // Above the apply block and the description.
  const top = async (name: string) => (await admin.getByRole('region', { name }).boundingBox())!.y;
  expect(await top('Усі заявки турніру')).toBeLessThan(await top('Участь'));
  await tools.getByRole('button', { name: 'Схвалити всі на розгляді (3)' }).click();
  await expect(tools.getByText('Схвалено')).toHaveCount(3);
  const detail = await current<{ applications: { status: string }[] }>(request, `/api/tournaments/${id}`);
  expect(detail.applications.map((a) => a.status)).toEqual(['approved', 'approved', 'approved']);

  // The admin list, newest first and paged, is opened narrowed to this tournament by its address:
  // other tests' newer applications cannot push its rows off the first page.
  await admin.goto(`/admin-tournaments?tournament=${id}`);
  await settled(admin);
  const panel = admin.getByRole('region', { name: 'Заявки' });
  await expect(panel.getByText(`Турнір: ${title}`)).toBeVisible();
  // None of its applications is pending any more.
  await expect(panel.getByText('Заявок немає.')).toBeVisible();
  await panel.getByRole('button', { name: 'Усі', exact: true }).click();
  await expect(panel.getByRole('listitem')).toHaveCount(3);
  await expect(panel.getByRole('listitem').filter({ hasText: title })).toHaveCount(3);
  // Drawn tournaments' applications offer no «Схвалити» any more; these are approved already.
  await expect(panel.getByRole('button', { name: /^Схвалити/ })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Лише цей турнір' })).toHaveCount(0);

  // «Усі турніри» takes the narrowing out of the address.
  await panel.getByRole('button', { name: 'Усі турніри' }).click();
  await expect(admin).toHaveURL('/admin-tournaments');
  await expect(panel.getByText(/^Турнір: /)).toHaveCount(0);

  // «Лише цей турнір» on a row (whichever is first now) narrows the list and writes it into the address.
  await settled(admin);
  const first = panel.getByRole('listitem').first();
  const link = first.locator('a[href^="/tournaments/"]').first();
  const [href, shown] = [await link.getAttribute('href'), await link.textContent()];
  await first.getByRole('button', { name: 'Лише цей турнір' }).click();
  await expect(panel.getByText(`Турнір: ${shown}`)).toBeVisible();
  await expect(admin).toHaveURL(`/admin-tournaments?tournament=${href!.slice('/tournaments/'.length)}`);
  await settled(admin);
  for (const each of await panel.locator('li a[href^="/tournaments/"]').all()) await expect(each).toHaveAttribute('href', href!);
  // A reload keeps it.
  await admin.reload();
  await settled(admin);
  await expect(panel.getByText(`Турнір: ${shown}`)).toBeVisible();
});
