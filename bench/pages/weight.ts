// Page weight (issue 11): loads every content page of the built site in a real headless Chromium, as a
// guest and as a signed-in demo player, and weighs what the browser fetched. Prints a table per route
// and exits 1 when a budget is missed. Run with `npm run bench:pages`; see bench/pages/README.md.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Response } from '@playwright/test';
import { CHROMIUM_PATH, contentRoutes, signInDemoPlayer, startServer, TOKEN_KEY, type BenchRoute } from './server.ts';
import { table } from '../table.ts';

/** Budgets in bytes, compressed (see `compressedSize`). */
const BUDGET = {
  /** All JavaScript of a guest page, the idle-loaded particle layer included. */
  guestJs: 100 * 1024,
  /** All JavaScript of a guest page that is read, not worked with (issue 24): a news item, a bracket, a profile. */
  readOnlyGuestJs: 30 * 1024,
  /** The HTML document plus its stylesheets, guest and signed in. */
  htmlCss: 60 * 1024,
};

type Mode = 'guest' | 'signed-in';

/** Pages that are read, not worked with (issue 24): their guest JavaScript has the smaller budget. */
const READ_ONLY = new Set(['bracket', 'news-item', 'player']);

interface Fetched {
  url: string;
  kind: 'html' | 'css' | 'js' | 'api' | 'image' | 'font' | 'other';
  /** Bytes as sent: the encoded body if the server compressed it, else what `gzip -6` makes of it. */
  compressed: number;
  /** What brotli (quality 5, a usual on-the-fly setting) makes of the body, for comparison. */
  brotli: number;
  raw: number;
  /** Whether the server itself compressed the response (`Content-Encoding`). */
  serverCompressed: boolean;
  body: string | null;
}

interface Measured {
  route: BenchRoute;
  mode: Mode;
  html: number;
  css: number;
  js: number;
  jsBrotli: number;
  /** Of `js`, the decorative particle layer: the ParticlesLayer chunk and what only it imports. */
  jsParticles: number;
  scriptRequests: number;
  inlineScripts: number;
  /** Scripts that are neither an island (or its imports) nor the island loader nor the theme line: the pages' own bundled scripts (the navigation's, since issue 24). */
  nonIsland: string[];
  /** tsParticles code requested before the page had loaded (must stay empty). */
  earlyParticles: string[];
  serverCompressed: boolean;
  signedIn: boolean;
  /** Each script: path, compressed size, whether it came after `load`. */
  scriptList: { path: string; compressed: number; afterLoad: boolean }[];
  problems: string[];
}

function compressedSize(body: Buffer, encoding: string | undefined, encodedLength: number) {
  const serverCompressed = Boolean(encoding && encoding !== 'identity');
  return {
    serverCompressed,
    compressed: serverCompressed ? encodedLength : gzipSync(body, { level: 6 }).length,
    brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }).length,
  };
}

function kindOf(response: Response): Fetched['kind'] {
  const type = response.request().resourceType();
  const url = new URL(response.url());
  if (type === 'document') return 'html';
  if (type === 'stylesheet') return 'css';
  if (type === 'script') return 'js';
  if (url.pathname.startsWith('/api/')) return 'api';
  if (type === 'image') return 'image';
  if (type === 'font') return 'font';
  return 'other';
}

/** Every `./chunk.js` a module names: static imports, dynamic imports and Vite's preload lists. */
function importsOf(url: string, body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(/["'`](\.{1,2}\/[^"'`\s]+?\.m?js)["'`]/g)) found.add(new URL(match[1]!, url).href);
  for (const match of body.matchAll(/["'`](\/_astro\/[^"'`\s]+?\.m?js)["'`]/g)) found.add(new URL(match[1]!, url).href);
  return [...found];
}

/** The island loader Astro inlines, and the fixed pre-paint theme line from Base.astro. */
const isIslandLoader = (text: string) => /astro-island|\(self\.Astro\s*\|\|\s*\(self\.Astro\s*=/.test(text);
const isThemeLine = (text: string) => text.includes("getItem('theme')") && text.length < 300;

/**
 * Waits until no request but an event stream (`…/events`, open for as long as the page is) has been
 * in flight for `quietMs`: Playwright's `networkidle` never comes on a live tournament's pages.
 */
async function quietNetwork(page: Page, quietMs = 500, timeoutMs = 20_000): Promise<void> {
  const inFlight = new Set<object>();
  let lastChange = Date.now();
  const counts = (request: { url(): string }) => !/\/events(\?|$)/.test(new URL(request.url()).pathname);
  const start = (request: { url(): string }) => {
    if (!counts(request)) return;
    inFlight.add(request);
    lastChange = Date.now();
  };
  const end = (request: object) => {
    if (inFlight.delete(request)) lastChange = Date.now();
  };
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline && (inFlight.size > 0 || Date.now() - lastChange < quietMs)) await page.waitForTimeout(100);
  } finally {
    page.off('request', start);
    page.off('requestfinished', end);
    page.off('requestfailed', end);
  }
}

async function measure(browser: Browser, origin: string, route: BenchRoute, mode: Mode, token: string | null): Promise<Measured> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'uk-UA' });
  if (token) {
    await context.addInitScript(
      ({ key, value }) => {
        try {
          if (!localStorage.getItem(key)) localStorage.setItem(key, value);
        } catch {
          // Storage refused: the page is measured as a guest, and the check below says so.
        }
      },
      { key: TOKEN_KEY, value: token },
    );
  }
  const page: Page = await context.newPage();
  const pending: Promise<Fetched | null>[] = [];
  let signedIn = false;
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname === '/api/users/me' && response.status() === 200) signedIn = true;
    if (url.origin !== origin || response.status() >= 300) return;
    pending.push(
      (async () => {
        try {
          const body = await response.body();
          const sizes = await response.request().sizes();
          const kind = kindOf(response);
          const encoding = (await response.allHeaders())['content-encoding'];
          return {
            url: response.url(),
            kind,
            raw: body.length,
            ...compressedSize(body, encoding, sizes.responseBodySize),
            body: kind === 'js' || kind === 'html' ? body.toString('utf8') : null,
          };
        } catch {
          return null;
        }
      })(),
    );
  });

  const problems: string[] = [];
  const response = await page.goto(origin + route.path, { waitUntil: 'load' });
  if (!response || response.status() !== 200) problems.push(`HTTP ${response?.status() ?? 'немає відповіді'}`);
  // Then everything a reader would trigger by waiting and scrolling: idle islands (the particle
  // layer), then islands that hydrate when scrolled into view.
  await quietNetwork(page);
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2_000 })));
  await page.evaluate(async () => {
    for (let y = 0; y <= document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  await quietNetwork(page);

  const timing = await page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return {
      loadEnd: navigation.loadEventEnd,
      starts: Object.fromEntries(performance.getEntriesByType('resource').map((entry) => [entry.name, entry.startTime])),
      inline: [...document.querySelectorAll('script:not([src])')]
        .filter((script) => !script.getAttribute('type') || /module|javascript/.test(script.getAttribute('type') ?? ''))
        .map((script) => script.textContent ?? ''),
      entries: [...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((script) => script.src),
      islands: [...document.querySelectorAll('astro-island')].flatMap((island) =>
        ['component-url', 'renderer-url', 'before-hydration-url'].map((name) => island.getAttribute(name)).filter((url): url is string => Boolean(url)),
      ),
    };
  });
  await context.close();
  const fetched = (await Promise.all(pending)).filter((item): item is Fetched => item !== null);
  const scripts = fetched.filter((item) => item.kind === 'js');

  // Island code: the islands' own modules and renderers, and everything they import, now or later.
  const bodies = new Map(scripts.map((script) => [script.url, script.body ?? '']));
  const closure = (entries: string[], skip: (url: string) => boolean = () => false) => {
    const reached = new Set(entries.map((url) => new URL(url, origin).href));
    for (let queue = [...reached]; queue.length > 0; ) {
      const url = queue.pop()!;
      for (const imported of importsOf(url, bodies.get(url) ?? '')) {
        if (!reached.has(imported) && !skip(imported)) {
          reached.add(imported);
          queue.push(imported);
        }
      }
    }
    return reached;
  };
  const island = closure(timing.islands);
  // The particle layer: what only its chunk (ParticlesLayer, fetched by the home page's idle script) brings.
  const isParticles = (url: string) => url.includes('/ParticlesLayer.');
  const inlineImports = timing.inline.flatMap((text) => importsOf(`${origin}/`, text));
  const others = closure([...timing.islands, ...timing.entries, ...inlineImports], isParticles);
  const particles = [...closure(scripts.map((script) => script.url).filter(isParticles))].filter((url) => !others.has(url));
  const nonIsland = [
    ...scripts.filter((script) => !island.has(script.url)).map((script) => new URL(script.url).pathname),
    ...timing.inline.filter((text) => !isIslandLoader(text) && !isThemeLine(text)).map((text) => `inline: ${text.slice(0, 60)}…`),
  ];
  const earlyParticles = scripts
    .filter((script) => /tsParticles|tsparticles/.test(script.body ?? '') && (timing.starts[script.url] ?? 0) < timing.loadEnd)
    .map((script) => new URL(script.url).pathname);
  const sum = (items: Fetched[], key: 'compressed' | 'brotli' = 'compressed') => items.reduce((total, item) => total + item[key], 0);

  if (mode === 'signed-in' && !signedIn) problems.push('вхід не спрацював (GET /api/users/me не дав 200)');
  return {
    route,
    mode,
    html: sum(fetched.filter((item) => item.kind === 'html')),
    css: sum(fetched.filter((item) => item.kind === 'css')),
    js: sum(scripts),
    jsBrotli: sum(scripts, 'brotli'),
    jsParticles: sum(scripts.filter((script) => particles.includes(script.url))),
    scriptRequests: scripts.length,
    inlineScripts: timing.inline.length,
    nonIsland,
    earlyParticles,
    serverCompressed: fetched.some((item) => item.serverCompressed),
    signedIn,
    scriptList: scripts.map((script) => ({
      path: new URL(script.url).pathname,
      compressed: script.compressed,
      afterLoad: (timing.starts[script.url] ?? 0) >= timing.loadEnd,
    })),
    problems,
  };
}

function verdict(row: Measured): string[] {
  const misses = [...row.problems];
  const jsBudget = READ_ONLY.has(row.route.name) ? BUDGET.readOnlyGuestJs : BUDGET.guestJs;
  if (row.mode === 'guest' && row.js > jsBudget) misses.push(`JS ${kb(row.js)} > ${kb(jsBudget)}`);
  if (row.html + row.css > BUDGET.htmlCss) misses.push(`HTML+CSS ${kb(row.html + row.css)} > ${kb(BUDGET.htmlCss)}`);
  if (row.earlyParticles.length > 0) misses.push(`tsParticles до load: ${row.earlyParticles.join(', ')}`);
  return misses;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function printTable(rows: Measured[]): void {
  const header = ['route', 'mode', 'HTML', 'CSS', 'HTML+CSS', 'JS', 'JS (br)', 'of it particles', 'scripts', 'inline', 'page scripts', 'result'];
  const lines = rows.map((row) => {
    const misses = verdict(row);
    return [
      `${row.route.name} ${row.route.path.length > 24 ? `${row.route.path.slice(0, 21)}…` : row.route.path}`,
      row.mode,
      kb(row.html),
      kb(row.css),
      kb(row.html + row.css),
      kb(row.js),
      kb(row.jsBrotli),
      kb(row.jsParticles),
      String(row.scriptRequests),
      String(row.inlineScripts),
      String(row.nonIsland.length),
      misses.length > 0 ? 'FAIL' : 'ok',
    ];
  });
  console.log(table(header, lines));
}

const server = await startServer();
let failed = false;
try {
  const routes = await contentRoutes(server.origin);
  const token = await signInDemoPlayer(server.origin);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const rows: Measured[] = [];
  try {
    for (const route of routes) {
      for (const mode of ['guest', 'signed-in'] as const) {
        rows.push(await measure(browser, server.origin, route, mode, mode === 'guest' ? null : token));
      }
    }
  } finally {
    await browser.close();
  }

  const serverCompressed = rows.some((row) => row.serverCompressed);
  console.log(`\nВага сторінок ${server.origin} (${new Date().toISOString().slice(0, 10)})`);
  console.log(
    serverCompressed
      ? 'Розміри: тіла відповідей так, як їх стиснув сервер (Content-Encoding); нестиснені — gzip -6.'
      : 'Сервер не стискає відповіді: розміри — кожне тіло, стиснене gzip рівня 6; JS (br) — brotli якості 5.',
  );
  console.log(
    `Бюджети: JS гостя ≤ ${kb(BUDGET.guestJs)}, на сторінках для читання (${[...READ_ONLY].join(', ')}) ≤ ${kb(BUDGET.readOnlyGuestJs)}; HTML+CSS ≤ ${kb(BUDGET.htmlCss)}.\n`,
  );
  printTable(rows);
  if (process.env.BENCH_VERBOSE) {
    for (const row of rows) {
      console.log(`\n${row.route.path} (${row.mode}):`);
      for (const script of [...row.scriptList].sort((a, b) => b.compressed - a.compressed)) {
        console.log(`  ${kb(script.compressed).padStart(9)}  ${script.afterLoad ? 'after load' : 'by load   '}  ${script.path}`);
      }
    }
  }
  for (const row of rows) {
    const misses = verdict(row);
    if (misses.length > 0) {
      failed = true;
      console.log(`\n✗ ${row.route.path} (${row.mode}): ${misses.join('; ')}`);
    }
  }
  console.log(failed ? '\nБюджет перевищено.' : '\nУсі сторінки в межах бюджету.');
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
