import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type APIRequestContext, test as base, expect, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_DATA_DIR } from '../../playwright.config.ts';
import { DEMO_PASSWORD } from '../../src/server/db/seed.ts';
import { bearer, soloTournamentWithBracket, tokenOf } from './tournament-setup.ts';

export { bearer, DEMO_PASSWORD, tokenOf };
/** The demo player the `player` fixture signs in as (a free agent who won CS2 in the demo). */
export const DEMO_PLAYER = 'KozakSniper';
/** The demo team's captain, whom the `captain` fixture signs in as. */
export const DEMO_CAPTAIN = 'Kyiv_Cyborg';

/**
 * The server's current answer for `path`, as a live page reads it after an event (decision 019):
 * a guest's read may otherwise get, until its refresh comes back, the copy a write made elsewhere (in
 * the page's browser context, not this request context) put out of date.
 */
export async function current<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: { 'cache-control': 'no-cache' } });
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

/** The confirmation link of the newest letter written to the outbox for `email`. */
export async function confirmationLink(email: string): Promise<string> {
  const dir = join(E2E_DATA_DIR, 'outbox');
  const safe = email.replace(/[^a-z0-9@._-]/gi, '_');
  for (let attempt = 0; attempt < 20; attempt++) {
    const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith(`-${safe}.eml`)).sort();
    const newest = files.at(-1);
    if (newest) {
      // Quoted-printable soft line breaks would split the link; join them first.
      const text = (await readFile(join(dir, newest), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = text.match(/https?:\/\/\S+\/confirm\?token=[\w-]+/)?.[0];
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no confirmation letter for ${email}`);
}

/** Registers and confirms a fresh player through the API, so a test owns its account (and its settings). */
export async function freshPlayer(page: Page, prefix = 'cab') {
  const nick = `${prefix}_${randomUUID().slice(0, 8)}`;
  const password = 'first-password-1';
  // Each from an address of its own (the server trusts one proxy in these runs), so the registration limit per address is not what a long run meets.
  const headers = { 'X-Forwarded-For': `192.0.2.${Math.floor(Math.random() * 250) + 1}` };
  const res = await page.request.post('/api/auth/register', { headers, data: { username: nick, email: `${nick}@example.test`, password } });
  expect(res.status()).toBe(201);
  const link = new URL(await confirmationLink(`${nick}@example.test`));
  expect((await page.request.get(`/api/auth/confirm${link.search}`)).status()).toBe(200);
  return { nick, password };
}

/**
 * Waits until the page's islands have hydrated, so clicks reach React and not bare HTML. Islands
 * that wait to be scrolled into view (`client:visible`) are not waited for, nor those waiting for
 * the reader's first interaction (`client:interact`, unless a localStorage key its value names is
 * set: then it hydrates at idle, src/lib/hooks/client-interact.ts).
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('astro-island[ssr]')].every((island) => {
      const client = island.getAttribute('client');
      if (client === 'visible') return true;
      if (client !== 'interact') return false;
      const value: unknown = JSON.parse(island.getAttribute('opts') ?? '{}').value;
      return !(typeof value === 'string' && value.split(/\s+/).some((key) => key && localStorage.getItem(key)));
    }),
  );
}

/**
 * A reader reaching for an island that hydrates on interaction (`client:interact`, issue 24): the
 * pointer over `target`, then React ready in the island around it.
 */
export async function reachFor(target: Locator) {
  await target.hover();
  await expect(target.locator('xpath=ancestor-or-self::astro-island[1]')).not.toHaveAttribute('ssr', '');
}

/**
 * Waits until the signed-in user's bell has its first list (the bell sets `data-loaded` then): the
 * readiness of the bell itself, however long the session check and the bell's chunk take.
 */
export async function bellLoaded(page: Page) {
  await page.locator('[data-loaded="true"]:has(> button[aria-controls="notification-panel"])').waitFor();
}

/**
 * Waits until what the page loads after hydrating has arrived: the bell's first list when someone
 * is signed in, and no hydrated island still busy or showing a loading line («Завантаж…», «Loading…»).
 * Pages that poll never go network-idle, so this is the page's own readiness instead of a clock.
 */
export async function settled(page: Page) {
  await hydrated(page);
  if (await page.locator('button[aria-controls="notification-panel"]').count()) await bellLoaded(page);
  await page.waitForFunction(() => {
    if (document.querySelector('[aria-busy="true"]')) return false;
    // «Завантажити ще» (load more) is a button, not a loading line.
    const loading = /^(Завантаж(?!ити ще)|Loading)/;
    return ![...document.querySelectorAll('body *')].some(
      // An island still waiting to be scrolled into view (client:visible) shows its server text until then.
      (el) => el.childElementCount === 0 && !el.closest('astro-island[ssr]') && loading.test(el.textContent?.trim() ?? '') && el.checkVisibility(),
    );
  });
}

/** Opens a page and waits for its islands. */
export async function open(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
}

/** Every page a person can open, with ids taken from the demo data. */
export async function everyPage(page: Page): Promise<string[]> {
  const tournaments = (await (await page.request.get('/api/tournaments')).json()) as { _id: string; game: string }[];
  const news = (await (await page.request.get('/api/news')).json()) as { _id: string }[];
  const first = tournaments[0];
  // A rated player's and team's profile (issue 23): the first rated game's leaders.
  const [rated] = (await (await page.request.get('/api/stats/games')).json()) as { _id: string }[];
  const player = ((await (await page.request.get(`/api/stats/leaderboard/game/${rated?._id}`)).json()) as { userId: { _id: string } | null }[])[0];
  const team = ((await (await page.request.get(`/api/stats/leaderboard/teams/game/${rated?._id}`)).json()) as { teamId: { _id: string } | null }[])[0];
  // A season's table (issue 59): the demo's league.
  const [season] = (await (await page.request.get('/api/seasons')).json()) as { _id: string }[];
  return [
    '/',
    '/tournaments',
    '/games',
    `/games/${first?.game}`,
    `/tournaments/${first?._id}`,
    `/tournament/${first?._id}/bracket`,
    '/news',
    `/news/${news[0]?._id}`,
    '/leaderboards',
    `/players/${player?.userId?._id}`,
    `/teams/${team?.teamId?._id}`,
    `/seasons/${season?._id}`,
    '/login',
    '/register',
    '/confirm',
    '/team',
    '/cabinet',
    '/admin',
    '/admin-tournaments',
  ];
}

/**
 * Signs in through the login form, as a person would. Only auth.spec.ts tests the form; every
 * other test signs in with `signIn` or a fixture.
 */
export async function logIn(page: Page, loginOrEmail: string, password: string) {
  await open(page, '/login');
  await page.getByLabel('Нікнейм або email').fill(loginOrEmail);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Увійти', exact: true }).click();
  await expect(page).toHaveURL('/');
}

const tokens = new WeakMap<Page, string>();
let signIns = 0;

/**
 * Signs `page` in without the form: a token from the API, stored under `token` in localStorage
 * (where lib/stores/session.ts reads it) before the first page's scripts run. It is stored once per
 * tab, so a test that signs out stays signed out when it opens the next page. Returns the token.
 */
export async function signIn(page: Page, loginOrEmail: string, password = DEMO_PASSWORD): Promise<string> {
  const token = await tokenOf(page.request, loginOrEmail, password);
  await useToken(page, token);
  return token;
}

/** Signs `page` in with a token already in hand, as `signIn` does (the same once-per-tab rule). */
export async function useToken(page: Page, token: string): Promise<void> {
  // Numbered, so a later signIn on the same tab wins once and an earlier one never comes back.
  signIns += 1;
  await page.addInitScript(
    ({ value, n }) => {
      if (Number(sessionStorage.getItem('e2e-sign-in') ?? 0) >= n) return;
      sessionStorage.setItem('e2e-sign-in', String(n));
      localStorage.setItem('token', value);
    },
    { value: token, n: signIns },
  );
  tokens.set(page, token);
}

/** The token `signIn` (or a fixture) signed this page in with. */
export function tokenOfPage(page: Page): string {
  const token = tokens.get(page);
  if (!token) throw new Error('this page was not signed in with signIn');
  return token;
}

interface Fixtures {
  /** The page, signed in as the E2E admin; it opens no page itself. */
  admin: Page;
  /** The page, signed in as the demo player DEMO_PLAYER. */
  player: Page;
  /** The page, signed in as the demo captain DEMO_CAPTAIN. */
  captain: Page;
  /**
   * Makes a new solo tournament of its own with these demo players approved in this order and,
   * unless `draw: false`, its bracket drawn (see soloTournamentWithBracket).
   */
  tournament: (players: string[], options?: { draw?: boolean }) => ReturnType<typeof soloTournamentWithBracket>;
}

// admin, player and captain are the same `page` signed in: a test takes one of them, and signs a
// second person in on a page of its own context with `signIn`.
export const test = base.extend<Fixtures>({
  admin: async ({ page }, use) => {
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await use(page);
  },
  player: async ({ page }, use) => {
    await signIn(page, DEMO_PLAYER);
    await use(page);
  },
  captain: async ({ page }, use) => {
    await signIn(page, DEMO_CAPTAIN);
    await use(page);
  },
  tournament: async ({ request }, use) => {
    await use((players, options) => soloTournamentWithBracket(request, players, options));
  },
});

export { expect };
