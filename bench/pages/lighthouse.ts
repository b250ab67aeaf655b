// Lighthouse (issues 11 and 24): runs Lighthouse's default mobile audit against the built site for the
// main guest pages, several times each, reports the median of every metric, saves the median run's
// HTML report under bench/results/, prints a table and exits 1 on a miss.
// Run with `npm run bench:lighthouse`; see bench/pages/README.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_PATH, contentRoutes, startServer, type BenchRoute } from './server.ts';
import { table } from '../table.ts';

const ALL_PAGES = ['home', 'tournaments', 'tournament', 'bracket', 'news', 'news-item', 'leaderboards', 'player'];
/** `LIGHTHOUSE_PAGES=home,news` measures only those (a quick look at one page); all eight otherwise. */
const PAGES = process.env.LIGHTHOUSE_PAGES ? process.env.LIGHTHOUSE_PAGES.split(',').filter((name) => ALL_PAGES.includes(name)) : ALL_PAGES;
/** Runs per page (issue 24: five); every metric is the median of its runs, and so is judged. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const RESULTS_DIR = join('bench', 'results');
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Scores are 0–100 as Lighthouse shows them; times in ms. */
const TARGET = { performance: 95, accessibility: 95, bestPractices: 95, seo: 100, lcp: 2_000, tbt: 100, cls: 0.05 };

interface Row {
  route: BenchRoute;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  /** Failing audits of the other categories, so a miss says what to fix. */
  failing: string[];
  report: string;
}

type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;

function rowOf(route: BenchRoute, result: Result): Row {
  const { lhr } = result;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing = ['accessibility', 'best-practices', 'seo'].flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category}: ${ref.id}`),
  );
  return {
    route,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    speedIndex: value('speed-index'),
    failing,
    report: Array.isArray(result.report) ? (result.report[0] ?? '') : result.report,
  };
}

function misses(row: Row): string[] {
  const out: string[] = [];
  if (row.performance < TARGET.performance) out.push(`performance ${row.performance} < ${TARGET.performance}`);
  if (row.accessibility < TARGET.accessibility) out.push(`accessibility ${row.accessibility} < ${TARGET.accessibility}`);
  if (row.bestPractices < TARGET.bestPractices) out.push(`best practices ${row.bestPractices} < ${TARGET.bestPractices}`);
  if (row.seo < TARGET.seo) out.push(`SEO ${row.seo} < ${TARGET.seo}`);
  if (!(row.lcp <= TARGET.lcp)) out.push(`LCP ${ms(row.lcp)} > ${ms(TARGET.lcp)}`);
  if (!(row.tbt <= TARGET.tbt)) out.push(`TBT ${ms(row.tbt)} > ${ms(TARGET.tbt)}`);
  if (!(row.cls <= TARGET.cls)) out.push(`CLS ${row.cls.toFixed(3)} > ${TARGET.cls}`);
  return out;
}

const ms = (value: number) => `${Math.round(value)} ms`;

function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

/** Each metric's median over the runs; the failing audits and the report are those of `shown`. */
function medianRow(runs: Row[], shown: Row): Row {
  const of = (key: keyof Omit<Row, 'route' | 'failing' | 'report'>) => middle(runs.map((run) => run[key]));
  return {
    ...shown,
    performance: of('performance'),
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
    seo: of('seo'),
    fcp: of('fcp'),
    lcp: of('lcp'),
    tbt: of('tbt'),
    cls: of('cls'),
    speedIndex: of('speedIndex'),
  };
}

function printTable(rows: Row[]): void {
  const header = ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'result'];
  const lines = rows.map((row) => [
    row.route.name,
    String(row.performance),
    String(row.accessibility),
    String(row.bestPractices),
    String(row.seo),
    ms(row.fcp),
    ms(row.lcp),
    ms(row.tbt),
    row.cls.toFixed(3),
    ms(row.speedIndex),
    misses(row).length > 0 ? 'FAIL' : 'ok',
  ]);
  console.log(table(header, lines));
}

const server = await startServer();
let failed = false;
try {
  const routes = (await contentRoutes(server.origin)).filter((route) => PAGES.includes(route.name));
  mkdirSync(RESULTS_DIR, { recursive: true });
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  const rows: Row[] = [];
  const spread = new Map<string, number[]>();
  try {
    for (const route of routes) {
      const runs: Row[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        // Defaults: mobile emulation, simulated slow 4G and 4× CPU slowdown, all four categories.
        const result = await lighthouse(server.origin + route.path, { port: chrome.port, output: 'html', logLevel: 'error' });
        if (!result) throw new Error(`Lighthouse не повернув результату для ${route.path}`);
        runs.push(rowOf(route, result));
        process.stdout.write('.');
      }
      // The report kept is the run with the median performance score (Lighthouse's advice); the row is
      // the median of each metric on its own, so one slow run (a busy machine) moves nothing.
      const median = [...runs].sort((a, b) => a.performance - b.performance || b.lcp - a.lcp)[Math.floor(runs.length / 2)]!;
      writeFileSync(join(RESULTS_DIR, `lighthouse-${route.name}.html`), median.report);
      rows.push(medianRow(runs, median));
      spread.set(route.name, runs.map((run) => Math.round(run.tbt)));
    }
  } finally {
    chrome.kill();
  }

  const load = loadavg().map((value) => value.toFixed(2)).join(', ');
  console.log(
    `\n\nLighthouse ${server.origin} (${new Date().toISOString().slice(0, 10)}), медіана кожної метрики з ${RUNS} прогонів на сторінку, мобільна емуляція; load average ${load}`,
  );
  console.log(
    `Цілі: performance ≥ ${TARGET.performance}, accessibility ≥ ${TARGET.accessibility}, best practices ≥ ${TARGET.bestPractices}, SEO ${TARGET.seo}, ` +
      `LCP ≤ ${ms(TARGET.lcp)}, TBT ≤ ${ms(TARGET.tbt)}, CLS ≤ ${TARGET.cls}. Звіти: ${RESULTS_DIR}/lighthouse-<page>.html\n`,
  );
  printTable(rows);
  console.log(`\nTBT кожного прогону: ${[...spread].map(([name, values]) => `${name} ${values.join('/')}`).join('; ')}`);
  for (const row of rows) {
    const missed = misses(row);
    if (row.failing.length > 0) console.log(`\n${row.route.path}: аудити не пройдено — ${row.failing.join(', ')}`);
    if (missed.length > 0) {
      failed = true;
      console.log(`✗ ${row.route.path}: ${missed.join('; ')}`);
    }
  }
  console.log(failed ? '\nЦілі не досягнуто.' : '\nУсі сторінки досягли цілей.');
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
