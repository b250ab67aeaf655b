import { expect, test } from '@playwright/test';
import { everyPage } from './fixtures.ts';

/** The CSP as a map of directive → sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

test('every page is sent with a strict Content-Security-Policy and the other security headers', async ({ page }) => {
  for (const path of await everyPage(page)) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    const headers = response.headers();
    expect(response.status(), path).toBe(200);
    expect(headers['content-type'], path).toBe('text/html; charset=utf-8');
    const csp = directives(headers['content-security-policy'] ?? '');
    expect(csp.get('object-src'), path).toEqual(["'none'"]);
    expect(csp.get('base-uri'), path).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors'), path).toEqual(["'none'"]);
    expect(csp.get('default-src'), path).toEqual(["'self'"]);
    // Scripts: the site's own files and build-time hashes only; nothing inline by permission.
    const scripts = csp.get('script-src') ?? [];
    expect(scripts, path).toContain("'self'");
    expect(scripts.filter((s) => s !== "'self'" && !s.startsWith("'sha256-")), path).toEqual([]);
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options'], path).toBe('DENY');
    // Served over plain HTTP, HSTS would mean nothing, and it is not sent.
    expect(headers['strict-transport-security'], path).toBeUndefined();
  }
});

test('the embeds, and only they, may be framed by any site: frame-ancestors *, no X-Frame-Options, the site’s CSP otherwise (issue 23)', async ({ page }) => {
  const tournaments = (await (await page.request.get('/api/tournaments')).json()) as { _id: string; status: string }[];
  // A started tournament with a two-sided match: a free-for-all stage (another test's, made
  // meanwhile) has lobbies instead.
  let started: { _id: string } | undefined;
  let matchId = '';
  for (const tournament of tournaments.filter((t) => t.status === 'started')) {
    const { stages } = (await (await page.request.get(`/api/tournaments/${tournament._id}/stages`)).json()) as { stages: { matches: { _id: string }[] }[] };
    const match = stages.flatMap((stage) => stage.matches)[0];
    if (!match) continue;
    [started, matchId] = [tournament, match._id];
    break;
  }
  if (!started) throw new Error('no started tournament with a two-sided match');
  const pairs = [
    [`/embed/tournaments/${started._id}?lang=en&theme=light`, `/tournament/${started._id}/bracket`],
    [`/embed/matches/${matchId}`, `/matches/${matchId}`],
  ];
  for (const [embed, page_] of pairs) {
    const [framed, own] = await Promise.all([page.request.get(embed!), page.request.get(page_!)]);
    expect(framed.status(), embed).toBe(200);
    const csp = directives(framed.headers()['content-security-policy'] ?? '');
    expect(csp.get('frame-ancestors'), embed).toEqual(['*']);
    expect(framed.headers()['x-frame-options'], embed).toBeUndefined();
    // Every other directive is the site's (script and style hashes are each page's own).
    const rest = (policy: Map<string, string[]>) => [...policy].filter(([name]) => !['frame-ancestors', 'script-src', 'style-src'].includes(name));
    expect(rest(csp), embed).toEqual(rest(directives(own.headers()['content-security-policy'] ?? '')));
    expect(csp.get('script-src')?.filter((s) => s !== "'self'" && !s.startsWith("'sha256-")), embed).toEqual([]);
    // The site's own page of the same thing still refuses framing.
    expect(directives(own.headers()['content-security-policy'] ?? '').get('frame-ancestors'), page_).toEqual(["'none'"]);
    expect(own.headers()['x-frame-options'], page_).toBe('DENY');
  }
});

test('behind a TLS proxy pages and the API carry HSTS', async ({ page }) => {
  const https = { 'x-forwarded-proto': 'https' };
  // `limit=3` is asked by nobody else: the HTTPS reader's answer is the one held for it.
  for (const path of ['/', '/tournaments', '/api/tournaments?limit=3', '/api/health']) {
    const response = await page.request.get(path, { headers: https });
    expect(response.headers()['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
  }
  // A held answer carries HSTS to HTTPS readers alone, whoever's request made it.
  for (const path of ['/api/tournaments?limit=3', '/tournaments']) {
    const plain = await page.request.get(path);
    expect(plain.headers()['strict-transport-security'], path).toBeUndefined();
  }
});

test('every inline script on a page is allowed by its hash, and the page runs with no CSP violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  for (const path of ['/', '/tournaments', '/news', '/leaderboards', '/login']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(violations).toEqual([]);
});
