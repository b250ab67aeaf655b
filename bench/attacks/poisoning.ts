// Cache poisoning of the answers held for guests (src/server/serving/response-cache.ts): guest
// pages and public API reads. For every address and variant: two clean guest requests (the
// baseline), one poisoning request (a foreign Host, X-Forwarded-Host, X-Forwarded-Proto: https,
// X-Original-URL, an unkeyed query parameter, a language cookie, another Accept-Encoding, a token…),
// then a clean guest request for the same address, which must not get the poisoned variant.
// Loopback only, bounded in count (addresses × variants × 4 requests) and time (REQUEST_TIMEOUT_MS
// a request). Runnable on its own against a running server:
//
//   node bench/attacks/poisoning.ts http://127.0.0.1:4321 [--login nickname:password] [path…]
//
// A clean answer is poisoned when it carries the poisoning request's marker (a host name, a path),
// an encoding the clean request did not accept, or the status, Strict-Transport-Security,
// language (Content-Language or `<html lang=`) or title that the poisoning answer had and the
// baseline had not; or when its body's hash is the poisoning answer's while the baseline's was
// another and stable (checked twice, since a held answer may be rendered again between requests).
// The CLI prints a table and exits 1 when a clean request got a poisoned answer.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;
const REQUEST_TIMEOUT_MS = 15_000;
/** What the clean guest accepts: what it gets must be one of these (or none). */
const CLEAN_ENCODINGS = ['gzip'];

export const DEFAULT_PATHS = ['/', '/tournaments', '/news', '/leaderboards', '/api/tournaments', '/api/news', '/api/games'];

export interface Seen {
  status: number;
  hsts: boolean;
  /** Content-Language, else the page's `<html lang=`, else ''. */
  lang: string;
  title: string;
  encoding: string;
  hash: string;
  /** Whether the poisoning marker appears in the headers or the body. */
  marked: boolean;
}

export interface Variant {
  name: string;
  /** Headers of the poisoning request, over the clean one's (`null` removes one); a function of the address when they name another. */
  headers?: Record<string, string | null> | ((path: string) => Record<string, string | null>);
  /** The poisoning request's target, from the clean one's. */
  target?: (path: string) => string;
}

export interface PoisonResult {
  path: string;
  variant: string;
  baseline: Seen;
  poisoned: Seen;
  clean: Seen;
  /** Whether the poisoning request's answer differed from the baseline at all. */
  differed: boolean;
  /** Why the clean answer is judged poisoned; empty when it is not. */
  reasons: string[];
}

/** The poisoning variants; `marker` is unique to the run, `alternate` is another address of the same kind. */
export function poisoningVariants(marker: string, options: { token: string; port: number }): Variant[] {
  const evil = `evil-${marker}.example`;
  const alternate = (path: string) => (path.startsWith('/api/') ? (path === '/api/news' ? '/api/games' : '/api/news') : path === '/news' ? '/tournaments' : '/news');
  const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;
  const variants: Variant[] = [
    { name: 'Host: foreign', headers: { Host: evil } },
    { name: 'Host: localhost', headers: { Host: `localhost:${options.port}` } },
    { name: 'Host: upper-case foreign', headers: { Host: evil.toUpperCase() } },
    { name: 'X-Forwarded-Host', headers: { 'X-Forwarded-Host': evil } },
    { name: 'X-Host', headers: { 'X-Host': evil } },
    { name: 'Forwarded', headers: { Forwarded: `host=${evil};proto=https` } },
    { name: 'X-Forwarded-Proto: https', headers: { 'X-Forwarded-Proto': 'https' } },
    { name: 'X-Forwarded-Proto: https, http', headers: { 'X-Forwarded-Proto': 'https, http' } },
    { name: 'X-Forwarded-Scheme/Port', headers: { 'X-Forwarded-Scheme': 'https', 'X-Forwarded-Port': '443', 'X-Forwarded-Ssl': 'on' } },
    { name: 'X-Forwarded-Prefix', headers: { 'X-Forwarded-Prefix': `/${marker}` } },
    { name: 'unkeyed ?utm_x=', target: (path) => withQuery(path, `utm_x=%22%3E${marker}`) },
    { name: 'unkeyed ?utm_x= &lang=en', target: (path) => withQuery(path, `utm_x=${marker}&lang=en`) },
    { name: 'Cookie: lang=en', headers: { Cookie: 'lang=en' } },
    { name: 'Accept-Language: en', headers: { 'Accept-Language': 'en-GB,en;q=0.9' } },
    { name: 'Accept-Encoding: br', headers: { 'Accept-Encoding': 'br' } },
    { name: 'Accept-Encoding: identity', headers: { 'Accept-Encoding': 'identity' } },
    { name: 'Accept-Encoding: *', headers: { 'Accept-Encoding': '*' } },
    { name: 'Accept-Encoding: gzip;q=0, br', headers: { 'Accept-Encoding': 'gzip;q=0, br' } },
    { name: 'Accept-Encoding: none', headers: { 'Accept-Encoding': null } },
    { name: 'Authorization on a public read', headers: { Authorization: `Bearer ${options.token}` } },
    { name: 'X-HTTP-Method-Override', headers: { 'X-HTTP-Method-Override': 'POST', 'X-Method-Override': 'DELETE' } },
  ];
  // The rewriting headers name another address of the same kind; it is told apart by its title (pages) or body (API).
  for (const name of ['X-Original-URL', 'X-Rewrite-URL']) variants.push({ name, headers: (path) => ({ [name]: alternate(path) }) });
  return variants;
}

interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request on its own connection, its body decoded. */
function request(port: number, host: string, target: string, headers: Record<string, string>): Promise<Exchange> {
  return new Promise((done, failed) => {
    const req = http.request({ host, port, path: target, method: 'GET', headers, agent: false, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', failed);
      res.on('end', () => {
        let body = Buffer.concat(chunks);
        const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
        try {
          if (encoding === 'br') body = brotliDecompressSync(body);
          else if (encoding === 'gzip') body = gunzipSync(body);
          else if (encoding === 'deflate') body = inflateSync(body);
        } catch {
          // A body that does not decode is compared as it came.
        }
        done({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${target} within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', failed);
    req.end();
  });
}

function seen(answer: Exchange, marker: string): Seen {
  const text = answer.body.toString('utf8');
  const headerText = JSON.stringify(answer.headers);
  return {
    status: answer.status,
    hsts: answer.headers['strict-transport-security'] !== undefined,
    lang: String(answer.headers['content-language'] ?? /<html[^>]*\slang="([^"]*)"/i.exec(text)?.[1] ?? ''),
    title: /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim() ?? '',
    encoding: String(answer.headers['content-encoding'] ?? ''),
    hash: createHash('sha256').update(answer.body).digest('hex').slice(0, 16),
    marked: text.includes(marker) || headerText.includes(marker),
  };
}

export interface PoisoningOptions {
  port: number;
  host?: string;
  paths?: string[];
  /** A session token for the Authorization variant (a signed-in reader's answer must never reach a guest); a made-up one without it. */
  token?: string;
}

/** Every variant against every address, one after another. */
export async function runPoisoning(options: PoisoningOptions): Promise<PoisonResult[]> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw new Error(`only loopback addresses are attacked, not ${host}`);
  const marker = randomBytes(6).toString('hex');
  const hostHeader = `${host.includes(':') ? `[${host}]` : host}:${options.port}`;
  const clean: Record<string, string> = { Host: hostHeader, Accept: 'text/html,application/json;q=0.9,*/*;q=0.8', 'Accept-Encoding': CLEAN_ENCODINGS.join(', ') };
  const variants = poisoningVariants(marker, { token: options.token ?? `made-up-${marker}`, port: options.port });
  const ask = async (target: string, headers: Record<string, string>) => seen(await request(options.port, host, target, headers), marker);

  const once = async (path: string, variant: Variant): Promise<PoisonResult> => {
    const first = await ask(path, clean);
    const baseline = await ask(path, clean);
    const headers: Record<string, string> = { ...clean };
    const extra = typeof variant.headers === 'function' ? variant.headers(path) : (variant.headers ?? {});
    for (const [name, value] of Object.entries(extra)) {
      const existing = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
      if (existing) delete headers[existing];
      if (value !== null) headers[name] = value;
    }
    const poisoned = await ask(variant.target ? variant.target(path) : path, headers);
    const after = await ask(path, clean);
    const reasons: string[] = [];
    if (after.marked) reasons.push('carries the marker');
    if (after.encoding && !CLEAN_ENCODINGS.includes(after.encoding)) reasons.push(`encoded ${after.encoding}, not accepted`);
    for (const field of ['status', 'hsts', 'lang', 'title'] as const) {
      if (poisoned[field] !== baseline[field] && after[field] === poisoned[field]) reasons.push(`${field} ${String(baseline[field])} → ${String(after[field])}`);
    }
    if (first.hash === baseline.hash && poisoned.hash !== baseline.hash && after.hash === poisoned.hash) reasons.push('body is the poisoning answer’s');
    const differed = (['status', 'hsts', 'lang', 'title', 'hash', 'marked'] as const).some((field) => poisoned[field] !== baseline[field]);
    return { path, variant: variant.name, baseline, poisoned, clean: after, differed, reasons };
  };

  const results: PoisonResult[] = [];
  for (const path of options.paths ?? DEFAULT_PATHS) {
    for (const variant of variants) {
      let result = await once(path, variant);
      // The body's hash alone may match by a render in between: it counts only when it happens twice.
      if (result.reasons.length === 1 && result.reasons[0] === 'body is the poisoning answer’s') {
        const again = await once(path, variant);
        if (again.reasons.length === 0) result = { ...again, reasons: [] };
      }
      results.push(result);
    }
  }
  return results;
}

/** Signs in through the API and returns the session's token. */
export async function signIn(base: string, login: string, password: string): Promise<string> {
  const response = await fetch(new URL('/api/auth/login', base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ loginOrEmail: login, password }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = (await response.json()) as { token?: string; message?: string };
  if (!response.ok || !body.token) throw new Error(`signing in as ${login}: ${response.status} ${body.message ?? ''}`);
  return body.token;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const address = args[0] && !args[0].startsWith('--') ? args.shift()! : 'http://127.0.0.1:4321';
  let login: string | undefined;
  const paths: string[] = [];
  while (args.length) {
    const arg = args.shift()!;
    if (arg === '--login') login = args.shift();
    else paths.push(arg);
  }
  const url = new URL(address);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!LOOPBACK.test(host)) throw new Error(`only loopback addresses are attacked, not ${host}`);
  let token: string | undefined;
  if (login) {
    const colon = login.indexOf(':');
    token = await signIn(url.href, login.slice(0, colon), login.slice(colon + 1));
  }
  const results = await runPoisoning({ port: Number(url.port || 80), host, paths: paths.length ? paths : undefined, token });
  const show = (s: Seen) => `${s.status} ${s.lang || '-'} ${s.hsts ? 'hsts ' : ''}${s.encoding || 'plain'} ${s.hash.slice(0, 8)}${s.marked ? ' MARKED' : ''}`;
  console.table(
    results.map((r) => ({
      path: r.path,
      variant: r.variant,
      baseline: show(r.baseline),
      poisoning: show(r.poisoned),
      'clean after': show(r.clean),
      verdict: r.reasons.length ? `POISONED: ${r.reasons.join('; ')}` : r.differed ? 'ok (answer differed, not kept)' : 'ok',
    })),
  );
  const poisoned = results.filter((r) => r.reasons.length > 0);
  console.log(`${results.length} checks${token ? ' (Authorization with a real session)' : ''}, ${poisoned.length} poisoned`);
  process.exitCode = poisoned.length > 0 ? 1 : 0;
}
