import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import type { StagesState, StageView } from '../../src/lib/api/stages.ts';
import { bearer, current, expect, open, settled, test, tokenOf, tokenOfPage } from './fixtures.ts';

/*
 * The admin's «Етапи» modal (issue 21) in a browser: a tournament of 16 from applications through
 * groups and playoffs to its champion, a correction that resets later matches only after the admin
 * confirms, and a manual seeding ordered from the keyboard. Data is set up through the API; every
 * result is entered through the page.
 */

/** A new pending solo tournament with these demo players' applications, pending unless `approve`. */
async function tournamentWithApplications(request: APIRequestContext, nicks: readonly string[], { approve = false } = {}) {
  const admin = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  const game = games.find((g) => g.name === 'League of Legends')!;
  const created = await request.post('/api/tournaments', {
    headers: bearer(admin),
    data: { title: `Етапи ${randomUUID().slice(0, 8)}`, date: '2031-06-01', game: game._id, soloOnly: true, description: 'Турнір для перевірки етапів.' },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { tournament: { _id: string } }).tournament._id;
  const ids: Record<string, string> = {};
  for (const nick of nicks) {
    const applied = await request.post('/api/applications', { headers: bearer(await tokenOf(request, nick)), data: { tournament: id } });
    expect(applied.status(), nick).toBe(201);
    const application = ((await applied.json()) as { application: { _id: string; user: { _id: string } } }).application;
    ids[application.user._id] = nick;
    if (approve) {
      const approved = await request.patch(`/api/applications/${application._id}/status`, { headers: bearer(admin), data: { status: 'approved' } });
      expect(approved.ok()).toBe(true);
    }
  }
  return { id, admin, nickOf: (userId: string | null) => ids[userId!]! };
}

// Results are entered in the page's context, so the test's own reads ask for the current answer.
const stagesOf = async (request: APIRequestContext, id: string) => (await current<StagesState>(request, `/api/tournaments/${id}/stages`)).stages;

/** Opens the tournament page and its «Етапи» modal, once the page and the modal have loaded. */
async function openStages(page: Page, id: string): Promise<Locator> {
  await open(page, `/tournaments/${id}`);
  await settled(page);
  await page.getByRole('button', { name: 'Етапи', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Етапи' });
  await expect(dialog).toBeVisible();
  await settled(page);
  return dialog;
}

const card = (dialog: Locator, label: string) => dialog.getByRole('article', { name: label, exact: true });

/** Enters a score through the match's editor and waits until the modal shows the match completed. */
async function enterResult(page: Page, dialog: Locator, label: string, sides: { a: string; b: string; scoreA: number; scoreB: number }) {
  await card(dialog, label)
    .getByRole('button', { name: `Внести результат: ${label}` })
    .click();
  const editor = page.getByRole('dialog', { name: label });
  await editor.getByLabel(`Рахунок: ${sides.a}`).fill(String(sides.scoreA));
  await editor.getByLabel(`Рахунок: ${sides.b}`).fill(String(sides.scoreB));
  await editor.getByRole('button', { name: 'Зберегти' }).click();
  await expect(editor).toBeHidden();
  await expect(card(dialog, label)).toContainText('Завершено');
}

const letter = (group: number) => String.fromCharCode(64 + group);

// Sixteen demo players in application order: the earlier one wins every meeting, so each table and the playoff are known in advance.
const SIXTEEN = [
  'Kharkiv_Hunter',
  'SlobodaSniper',
  'Lozova_Lynx',
  'Izium_Ice',
  'Chuhuiv_Chief',
  'Polissia_Owl',
  'Zhytomyr_Zen',
  'Korosten_Kid',
  'Ovruch_Oak',
  'Rivne_Ranger',
  'Berkut_Hover',
  'Hoverla_Peak',
  'Yaremche_Yeti',
  'Kolomyia_King',
  'Kosiv_Craft',
  'Dolphin_Dive',
];

test('an admin runs a groups → playoffs tournament of 16 from applications to champion through the UI', async ({ admin: page, request }) => {
  // Sixteen approvals (each reloads the page) and 31 results, each waited for.
  test.setTimeout(360_000);
  const { id, nickOf } = await tournamentWithApplications(request, SIXTEEN);
  const seed = (userId: string | null) => SIXTEEN.indexOf(nickOf(userId));

  // The admin approves every application on the tournament page.
  await open(page, `/tournaments/${id}`);
  await settled(page);
  const applications = page.getByRole('region', { name: 'Усі заявки турніру' });
  for (const nick of SIXTEEN) {
    const reloaded = page.waitForEvent('load');
    await applications.getByRole('button', { name: `Схвалити: ${nick}`, exact: true }).click();
    await reloaded;
    await settled(page);
  }
  await expect(applications.getByText('Схвалено')).toHaveCount(16);

  // A round robin in 4 groups, created through the modal; the first stage starts the tournament.
  await page.getByRole('button', { name: 'Етапи', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Етапи' });
  await settled(page);
  await expect(dialog).toContainText('Схвалених учасників: 16');
  await dialog.getByLabel('Кругова система').check();
  await dialog.getByLabel('Кількість груп').selectOption('4');
  await dialog.getByRole('button', { name: 'Створити етап', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('Перший етап закриє заявки й розпочне турнір');
  await dialog.getByRole('button', { name: 'Так, створити й розпочати' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Етап створено' })).toHaveText('Етап створено: 16 учасників');
  await expect(dialog.getByRole('button', { name: 'Етап 1: Кругова система' })).toHaveAttribute('aria-pressed', 'true');

  // Every group match through the editor: the earlier applicant wins 3:1.
  const [groups] = await stagesOf(request, id);
  expect(groups!.groups.map((g) => g.participants.length)).toEqual([4, 4, 4, 4]);
  expect(groups!.matches).toHaveLength(24);
  for (const m of groups!.matches) {
    const label = `Група ${letter(m.group!)} · Тур ${m.round}, M${m.number}`;
    const aWins = seed(m.a) < seed(m.b);
    await enterResult(page, dialog, label, { a: nickOf(m.a), b: nickOf(m.b), scoreA: aWins ? 3 : 1, scoreB: aWins ? 1 : 3 });
  }
  await expect(dialog).toContainText('Етап завершено');
  // Each table: the group's members in application order, 9 points for three wins down to 0.
  const tables: string[][] = [];
  for (const group of groups!.groups) {
    const order = [...group.participants].sort((x, y) => seed(x) - seed(y)).map(nickOf);
    tables.push(order);
    const table = dialog.getByRole('table', { name: `Таблиця: Група ${letter(group.number)}` });
    await expect(table.getByRole('rowheader')).toHaveText(order);
    await expect(table.locator('tbody tr td:last-child')).toHaveText(['9', '6', '3', '0']);
  }

  // The playoff: the top 2 of each group, single elimination, created through the modal.
  await dialog.getByRole('button', { name: '+ Новий етап' }).click();
  await dialog.getByLabel('Олімпійська система').check();
  await dialog.getByLabel('Назва етапу (необов’язково)').fill('Плей-оф');
  await dialog.getByLabel('Хто грає').selectOption({ label: 'Найкращі з кожної групи: Етап 1: Кругова система' });
  await expect(dialog.getByLabel('Скільки проходить з кожної групи')).toHaveValue('2');
  await dialog.getByRole('button', { name: 'Створити етап', exact: true }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Етап створено' })).toHaveText('Етап створено: 8 учасників');
  await expect(dialog.getByRole('button', { name: 'Етап 2: Плей-оф' })).toHaveAttribute('aria-pressed', 'true');
  const quarterfinalists = (await stagesOf(request, id))[1]!.matches.filter((m) => m.round === 1).flatMap((m) => [nickOf(m.a), nickOf(m.b)]);
  expect(quarterfinalists.sort()).toEqual(tables.flatMap((t) => t.slice(0, 2)).sort());

  // Every playoff result, round by round as the matches become ready: the earlier applicant wins 2:0.
  for (const [round, title] of [
    [1, 'Чвертьфінал'],
    [2, 'Півфінал'],
    [3, 'Фінал'],
  ] as const) {
    const playoff = (await stagesOf(request, id))[1]!;
    for (const m of playoff.matches.filter((x) => x.round === round)) {
      const aWins = seed(m.a) < seed(m.b);
      await enterResult(page, dialog, `${title}, M${m.number}`, { a: nickOf(m.a), b: nickOf(m.b), scoreA: aWins ? 2 : 0, scoreB: aWins ? 0 : 2 });
    }
  }
  // The first applicant won everything: the champion, shown in the modal with the places.
  await expect(dialog.getByText('Переможець етапу: Kharkiv_Hunter')).toBeVisible();
  // Places: 1 and 2, the semifinal losers 3–4, the quarterfinal losers 5–8.
  await expect(dialog.locator('details').filter({ hasText: 'Підсумкові місця' }).getByRole('listitem').first()).toHaveText('1Kharkiv_Hunter');
  await expect(dialog.locator('details').filter({ hasText: 'Підсумкові місця' }).getByRole('listitem')).toHaveCount(8);
  const standings = await current<{ final: boolean; placements: { name: string; from: number }[] }>(request, `/api/tournaments/${id}/standings`);
  expect(standings.final).toBe(true);
  expect(standings.placements[0]).toMatchObject({ name: 'Kharkiv_Hunter', from: 1 });

  // Closing the modal shows the page anew; the winner block offers the champion in one step.
  const reloaded = page.waitForEvent('load');
  await dialog.getByRole('button', { name: 'Закрити' }).click();
  await reloaded;
  await settled(page);
  await expect(page.getByText('Фінал зіграно: переміг Kharkiv_Hunter.')).toBeVisible();
  const declared = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Оголосити Kharkiv_Hunter переможцем' }).click();
  await declared;
  await expect(page.getByRole('heading', { name: 'Переможець' }).locator('xpath=..')).toContainText('Kharkiv_Hunter');
  const detail = await current<{ status: string; winner: { name: string } }>(request, `/api/tournaments/${id}`);
  expect(detail).toMatchObject({ status: 'finished', winner: { name: 'Kharkiv_Hunter' } });
});

test('correcting a semifinal lists the final it resets and changes nothing until the admin confirms; a stale edit shows the newer match', async ({
  admin: page,
  request,
}) => {
  test.slow();
  const four = ['Mykolaiv_Mast', 'Ochakiv_Anchor', 'Kinburn_Kite', 'Vylkove_Venice'];
  const { id } = await tournamentWithApplications(request, four, { approve: true });
  const token = tokenOfPage(page);
  const created = await request.post(`/api/tournaments/${id}/stages`, { headers: bearer(token), data: { format: 'single_elimination' } });
  expect(created.status()).toBe(201);
  const stage = ((await created.json()) as { stage: StageView }).stage;
  // In application order: 1 v 2 and 3 v 4; side a wins both semifinals and the final.
  const playOne = async (round: number, position: number, body: Record<string, unknown>) => {
    const m = (await stagesOf(request, id))[0]!.matches.find((x) => x.round === round && x.position === position)!;
    const res = await request.patch(`/api/matches/${m._id}`, { headers: bearer(token), data: { version: m.version, ...body } });
    expect(res.status()).toBe(200);
  };
  await playOne(1, 1, { scoreA: 2, scoreB: 0 });
  await playOne(1, 2, { scoreA: 2, scoreB: 0 });
  await playOne(2, 1, { scoreA: 2, scoreB: 1 });
  expect(stage.matches).toHaveLength(3);

  const dialog = await openStages(page, id);
  const semi = card(dialog, 'Півфінал, M1');
  const final = card(dialog, 'Фінал, M3');
  await expect(final).toContainText('Завершено');
  await semi.getByRole('button', { name: 'Змінити результат: Півфінал, M1' }).click();
  const editor = page.getByRole('dialog', { name: 'Півфінал, M1' });
  await expect(editor.getByLabel('Рахунок: Mykolaiv_Mast')).toHaveValue('2');
  await editor.getByLabel('Рахунок: Mykolaiv_Mast').fill('1');
  await editor.getByLabel('Рахунок: Ochakiv_Anchor').fill('2');
  await editor.getByRole('button', { name: 'Зберегти' }).click();
  const warning = editor.getByRole('alert');
  await expect(warning).toContainText('Ці матчі буде скинуто:');
  await expect(warning.getByRole('listitem')).toHaveText(['Фінал, M3: Mykolaiv_Mast — Kinburn_Kite']);
  // The preview changed nothing.
  await warning.getByRole('button', { name: 'Скасувати' }).click();
  expect((await stagesOf(request, id))[0]!.matches.find((m) => m.round === 2)).toMatchObject({ status: 'completed', scoreA: 2, scoreB: 1 });

  await editor.getByRole('button', { name: 'Зберегти' }).click();
  await editor.getByRole('alert').getByRole('button', { name: 'Підтвердити' }).click();
  await expect(editor).toBeHidden();
  await expect(dialog.getByRole('status').filter({ hasText: 'Результат збережено' })).toBeVisible();
  await expect(final).toContainText('Готовий');
  await expect(final.getByRole('listitem')).toHaveText(['Ochakiv_Anchor', 'Kinburn_Kite']);
  const after = (await stagesOf(request, id))[0]!.matches;
  expect(after.find((m) => m.round === 1 && m.position === 1)).toMatchObject({ scoreA: 1, scoreB: 2, status: 'completed' });
  expect(after.find((m) => m.round === 2)).toMatchObject({ status: 'ready', winner: null, scoreA: null });

  // Another admin enters the final while this editor is open on the older version.
  await final.getByRole('button', { name: 'Внести результат: Фінал, M3' }).click();
  const finalEditor = page.getByRole('dialog', { name: 'Фінал, M3' });
  await playOne(2, 1, { scoreA: 0, scoreB: 2 });
  await finalEditor.getByLabel('Рахунок: Ochakiv_Anchor').fill('2');
  await finalEditor.getByLabel('Рахунок: Kinburn_Kite').fill('0');
  await finalEditor.getByRole('button', { name: 'Зберегти' }).click();
  await expect(finalEditor.getByRole('alert')).toHaveText('Матч уже змінив інший адміністратор. Показано новішу версію.');
  await expect(finalEditor.getByLabel('Рахунок: Ochakiv_Anchor')).toHaveValue('0');
  await expect(finalEditor.getByLabel('Рахунок: Kinburn_Kite')).toHaveValue('2');

  // Withdrawing the newer result: nothing depends on a final, so it goes through at once.
  await finalEditor.getByRole('button', { name: 'Скасувати результат' }).click();
  await expect(finalEditor).toBeHidden();
  await expect(dialog.getByRole('status').filter({ hasText: 'Результат скасовано' })).toBeVisible();
  await expect(final).toContainText('Готовий');
  expect((await stagesOf(request, id))[0]!.matches.find((m) => m.round === 2)).toMatchObject({ status: 'ready', winner: null });
});

test('an organiser keeps a result comment for the organisers: the form says so and reads it back; no guest read or page carries it', async ({
  admin: page,
  request,
}) => {
  const { id } = await tournamentWithApplications(request, ['Kavun_Kherson', 'Oleshky_Sand'], { approve: true });
  const created = await request.post(`/api/tournaments/${id}/stages`, { headers: bearer(tokenOfPage(page)), data: { format: 'single_elimination' } });
  expect(created.status()).toBe(201);
  const note = `Попередження капітану ${randomUUID().slice(0, 6)}`;
  const dialog = await openStages(page, id);
  const final = card(dialog, 'Фінал, M1');
  await final.getByRole('button', { name: 'Внести результат: Фінал, M1' }).click();
  const editor = page.getByRole('dialog', { name: 'Фінал, M1' });
  // Everyone sees a comment unless the organiser says otherwise, and the form says what unchecking means.
  const everyone = editor.getByRole('checkbox', { name: 'Коментар бачать усі' });
  await expect(everyone).toBeChecked();
  await expect(everyone).toHaveAccessibleDescription('Без позначки коментар бачать лише організатори турніру: гравцям і гостям він не показується.');
  await editor.getByLabel('Рахунок: Kavun_Kherson').fill('2');
  await editor.getByLabel('Рахунок: Oleshky_Sand').fill('1');
  await editor.getByLabel('Коментар', { exact: true }).fill(note);
  await everyone.uncheck();
  await expect(editor.getByLabel('Коментар (лише для організаторів)', { exact: true })).toHaveValue(note);
  await editor.getByRole('button', { name: 'Зберегти' }).click();
  await expect(editor).toBeHidden();
  await expect(final).toContainText('Завершено');
  await expect(final).not.toContainText(note);

  // Opened again, the form reads the text for its organiser, still marked and unchecked.
  await final.getByRole('button', { name: 'Змінити результат: Фінал, M1' }).click();
  await expect(editor.getByLabel('Коментар (лише для організаторів)', { exact: true })).toHaveValue(note);
  await expect(everyone).not.toBeChecked();
  await editor.getByRole('button', { name: 'Скасувати', exact: true }).click();
  await expect(editor).toBeHidden();

  // A guest: the stages read has no text, nor has any page that shows the match.
  const [match] = (await stagesOf(request, id))[0]!.matches;
  expect(match).toMatchObject({ status: 'completed', comment: '' });
  for (const path of [`/tournaments/${id}`, `/tournament/${id}/bracket`, `/matches/${match!._id}`, `/embed/matches/${match!._id}`, `/api/matches/${match!._id}`]) {
    const response = await request.get(path, { headers: { 'cache-control': 'no-cache' } });
    expect(response.status(), path).toBe(200);
    expect(await response.text(), path).not.toContain(note);
  }
});

test('an admin seeds a stage by hand from the keyboard: Alt+arrows move the focused row, buttons move others, each move is announced', async ({
  admin: page,
  request,
}) => {
  const four = ['Halushka_Hero', 'Dykanka_Witch', 'Myrhorod_Mud', 'Reshetylivka'];
  const { id, nickOf } = await tournamentWithApplications(request, four, { approve: true });
  const dialog = await openStages(page, id);
  await dialog.getByLabel('Вручну').check();
  const list = dialog.getByRole('list', { name: 'Порядок посіву' });
  await expect(list.getByRole('listitem')).toHaveText([/Halushka_Hero/, /Dykanka_Witch/, /Myrhorod_Mud/, /Reshetylivka/]);

  // The fourth row goes to the top with Alt+↑ three times; it keeps the focus all the way.
  await list.getByRole('listitem', { name: '4. Reshetylivka' }).focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Alt+ArrowUp');
  await expect(list.getByRole('listitem', { name: '1. Reshetylivka' })).toBeFocused();
  await expect(dialog.getByText('Reshetylivka: місце 1 з 4')).toBeAttached();
  // At the top Alt+↑ does nothing; Alt+↓ and the «down» button move rows too.
  await page.keyboard.press('Alt+ArrowUp');
  await expect(list.getByRole('listitem', { name: '1. Reshetylivka' })).toBeFocused();
  await list.getByRole('button', { name: 'Нижче: Halushka_Hero' }).click();
  await expect(dialog.getByText('Halushka_Hero: місце 3 з 4')).toBeAttached();
  await expect(list.getByRole('button', { name: 'Нижче: Halushka_Hero' })).toBeFocused();
  await expect(list.getByRole('button', { name: 'Вище: Reshetylivka' })).toBeDisabled();
  await expect(list.getByRole('listitem')).toHaveText([/Reshetylivka/, /Dykanka_Witch/, /Halushka_Hero/, /Myrhorod_Mud/]);

  await dialog.getByRole('button', { name: 'Створити етап', exact: true }).click();
  await dialog.getByRole('button', { name: 'Так, створити й розпочати' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Етап створено' })).toHaveText('Етап створено: 4 учасники');
  // Manual order, then standard pairing: 1 v 4 and 2 v 3.
  const [stage] = await stagesOf(request, id);
  expect(stage!.seeding).toBe('manual');
  expect(stage!.seeds.map(nickOf)).toEqual(['Reshetylivka', 'Myrhorod_Mud', 'Dykanka_Witch', 'Halushka_Hero']);
  await expect(card(dialog, 'Півфінал, M1').getByRole('listitem')).toHaveText(['Reshetylivka', 'Myrhorod_Mud']);
});
