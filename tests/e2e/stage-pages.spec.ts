import type { APIRequestContext } from '@playwright/test';
import type { StageMatchView, StageView } from '../../src/lib/api/stages.ts';
import { bearer, expect, open, settled, test } from './fixtures.ts';

/*
 * Issue 21: a guest reads every format of competition on the bracket page, as server HTML,
 * without JavaScript, on a 360 px phone — the page never scrolls sideways, each drawing or table
 * scrolls in its own box.
 */

const PLAYERS = ['Stepan_Clutch', 'ZaporizhRush', 'SaloSlayer', 'LvivLion', 'Mavka_Mid', 'Hetman_AWP'];

/** Creates a stage through the API and plays its first `results` ready matches (side a wins 2–0). */
async function stageWithResults(
  request: APIRequestContext,
  admin: string,
  tournamentId: string,
  body: Record<string, unknown>,
  results: number,
): Promise<StageView> {
  const created = await request.post(`/api/tournaments/${tournamentId}/stages`, { headers: bearer(admin), data: body });
  expect(created.status()).toBe(201);
  let stage = ((await created.json()) as { stage: StageView }).stage;
  for (let i = 0; i < results; i++) {
    const ready = stage.matches.find((m: StageMatchView) => m.status === 'ready');
    if (!ready) break;
    const saved = await request.patch(`/api/matches/${ready._id}`, { headers: bearer(admin), data: { scoreA: 2, scoreB: 0, version: ready.version } });
    expect(saved.status()).toBe(200);
    const state = (await (await request.get(`/api/tournaments/${tournamentId}/stages`)).json()) as { stages: StageView[] };
    stage = state.stages.find((s) => s._id === stage._id)!;
  }
  return stage;
}

const FORMATS = [
  {
    name: 'double elimination: two trees and the grand final',
    body: { format: 'double_elimination', name: 'Основний етап' },
    results: 6,
    regions: ['Сітка переможців: раунди зліва направо', 'Нижня сітка: раунди зліва направо', 'Гранд-фінал: раунди зліва направо'],
  },
  {
    name: 'round robin in two groups: result grids and tables',
    body: { format: 'round_robin', name: 'Групи', settings: { groups: 2 } },
    results: 4,
    regions: ['Турнірна таблиця: Група A', 'Турнірна таблиця: Група B'],
  },
  {
    name: 'Swiss: rounds and the standings',
    body: { format: 'swiss', name: 'Швейцарка', settings: { rounds: 3 } },
    results: 3,
    regions: ['Турнірна таблиця: Група A'],
  },
] as const;

for (const format of FORMATS) {
  test(`a guest reads ${format.name}, without JavaScript at 360 px`, async ({ browser, request, tournament }) => {
    const { id, admin } = await tournament([...PLAYERS], { draw: false });
    const stage = await stageWithResults(request, admin, id, format.body, format.results);
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 800 } });
    const page = await context.newPage();
    await page.goto(`/tournament/${id}/bracket`);
    await expect(page.getByRole('heading', { level: 2, name: format.body.name })).toBeVisible();
    for (const name of format.regions) await expect(page.getByRole('region', { name }).first()).toBeVisible();
    expect(stage.matches.filter((m) => m.status === 'completed' && !m.bye)).toHaveLength(format.results);
    // The stage is under way: no champion is announced before its end.
    await expect(page.getByText('Етап триває')).toBeVisible();
    await expect(page.getByText(/Чемпіон/)).toHaveCount(0);
    // At 360 px the page itself does not scroll sideways.
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    // The tournament page lists its stages and links to the whole drawing.
    await page.goto(`/tournaments/${id}`);
    const summary = page.getByRole('region', { name: 'Етапи турніру' });
    await expect(summary.getByRole('listitem').filter({ hasText: format.body.name })).toHaveText([new RegExp(`^${format.body.name}.*Етап триває$`)]);
    await expect(summary.getByRole('link', { name: 'Сітки й таблиці всіх етапів' })).toHaveAttribute('href', `/tournament/${id}/bracket`);
    await context.close();
  });
}

test('the winner control offers the champion of a double elimination, which the SPEC bracket cannot hold', async ({ admin: page, request, tournament }) => {
  const { id, admin, ids } = await tournament(PLAYERS.slice(0, 4), { draw: false });
  const stage = await stageWithResults(request, admin, id, { format: 'double_elimination', settings: { grandFinal: 'simple' } }, 10);
  expect(stage.complete).toBe(true);
  const standings = (await (await request.get(`/api/tournaments/${id}/standings`)).json()) as { placements: { participant: string; from: number }[] };
  const championId = standings.placements.find((p) => p.from === 1)!.participant;
  const champion = Object.entries(ids).find(([, userId]) => userId === championId)![0];
  await open(page, `/tournaments/${id}`);
  await settled(page);
  await page.getByRole('button', { name: `Оголосити ${champion} переможцем` }).click();
  await expect(page.getByText(champion).first()).toBeVisible();
  const detail = (await (await request.get(`/api/tournaments/${id}`)).json()) as { status: string; winner: { id: string } | null };
  expect(detail.status).toBe('finished');
  expect(detail.winner?.id).toBe(championId);
});
