import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { admission } from '../../src/server/admission.ts';

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

/** A server whose handler holds every answer until the test lets it go, behind `admission(limit)`. */
async function holdingServer(limit: number, maxWaitMs = 60_000) {
  const held = new Map<string, http.ServerResponse>();
  const started: string[] = [];
  let inside = 0;
  let most = 0;
  server = http.createServer(
    admission({ limit, maxWaitMs, shed: (_req, res) => res.writeHead(503).end('shed') }, (req, res) => {
      inside++;
      most = Math.max(most, inside);
      started.push(req.url!);
      res.prependOnceListener('close', () => inside--);
      held.set(req.url!, res);
    }),
  );
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const request = (path: string, signal?: AbortSignal) => fetch(`http://127.0.0.1:${port}${path}`, { signal }).then((r) => r.text());
  const release = (path: string) => held.get(path)!.end(path);
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await sleep(5);
  };
  return { request, release, started, until, most: () => most };
}

describe('admission', () => {
  it('lets in at most the limit at once and the rest in arrival order as answers finish', async () => {
    const s = await holdingServer(2);
    const answers = ['/1', '/2', '/3', '/4'].map((path) => s.request(path));
    await s.until(() => s.started.length === 2);
    await sleep(50);
    expect(s.started).toEqual(['/1', '/2']);
    s.release('/2');
    expect(await answers[1]).toBe('/2');
    await s.until(() => s.started.length === 3);
    expect(s.started[2]).toBe('/3');
    s.release('/1');
    s.release('/3');
    await s.until(() => s.started.length === 4);
    s.release('/4');
    expect(await Promise.all(answers)).toEqual(['/1', '/2', '/3', '/4']);
    expect(s.most()).toBe(2);
  });

  it('skips a waiting request whose caller hung up, and frees the place of one that hung up inside', async () => {
    const s = await holdingServer(1);
    const inside = new AbortController();
    const gone = new AbortController();
    const first = s.request('/inside', inside.signal).catch(() => 'aborted');
    await s.until(() => s.started.length === 1);
    const waiting = s.request('/gone', gone.signal).catch(() => 'aborted');
    const last = s.request('/last');
    await sleep(50);
    gone.abort();
    expect(await waiting).toBe('aborted');
    await sleep(50);
    // The caller inside hangs up without an answer: its place goes to the next one still there.
    inside.abort();
    expect(await first).toBe('aborted');
    await s.until(() => s.started.length === 2);
    expect(s.started).toEqual(['/inside', '/last']);
    s.release('/last');
    expect(await last).toBe('/last');
  });

  it('answers with `shed` a request that waited longer than allowed, and still lets in the later ones', async () => {
    const s = await holdingServer(1, 150);
    const first = s.request('/stuck');
    await s.until(() => s.started.length === 1);
    const waited = s.request('/waited');
    expect(await waited).toBe('shed');
    const later = s.request('/later');
    await sleep(20);
    s.release('/stuck');
    expect(await first).toBe('/stuck');
    await s.until(() => s.started.length === 2);
    s.release('/later');
    expect(await later).toBe('/later');
    expect(s.started).toEqual(['/stuck', '/later']);
  });
});
