import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { admission } from '../../src/server/serving/admission.ts';

let server: http.Server | undefined;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

/** Waits until `done()` holds, or fails the test saying what it waited for. */
async function until(what: string, done: () => boolean) {
  for (let i = 0; i < 400; i++) {
    if (done()) return;
    await sleep(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * A server behind `admission(limit)` whose handler holds each answer until the test releases it,
 * except `/big`, answered at once with 8 MB. `arrived` is the order requests reached the server,
 * `started` the order they were let in, `closed` the paths whose connection has closed.
 */
async function holdingServer(limit: number, maxWaitMs = 60_000) {
  const held = new Map<string, http.ServerResponse>();
  const arrived: string[] = [];
  const started: string[] = [];
  const closed = new Set<string>();
  let inside = 0;
  let most = 0;
  server = http.createServer();
  server.on('request', (req: http.IncomingMessage) => {
    arrived.push(req.url!);
    req.socket.once('close', () => closed.add(req.url!));
  });
  const line = admission({ limit, maxWaitMs, shed: (_req, res) => res.writeHead(503).end('shed') }, (req, res) => {
    inside++;
    most = Math.max(most, inside);
    started.push(req.url!);
    if (req.url === '/big') return void res.end(Buffer.alloc(8 * 1024 * 1024));
    held.set(req.url!, res);
  });
  // Paths under /first come as a held answer's render does (serve.ts): before the others.
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => line(req, res, req.url!.startsWith('/first')));
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  /** Sends a GET and waits until the server has it, so the order of arrival is the order of calls. */
  const request = async (path: string, signal?: AbortSignal): Promise<{ answer: Promise<string> }> => {
    const answer = fetch(`http://127.0.0.1:${port}${path}`, { signal }).then(
      (r) => r.text(),
      () => 'aborted',
    );
    await until(`${path} to arrive`, () => arrived.includes(path));
    return { answer };
  };
  /** Writes raw HTTP on a socket of its own that never reads what comes back. */
  const raw = async (text: string) => {
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.pause();
    await new Promise((done) => socket.once('connect', done));
    socket.write(text);
    return socket;
  };
  // Counted out before ending, since ending may let the next one in at once.
  const release = (path: string) => {
    inside--;
    held.get(path)!.end(path);
  };
  return { request, raw, release, arrived, started, closed, most: () => most };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: arena.test\r\n\r\n`;

describe('admission', () => {
  it('lets in at most the limit at once and the rest in arrival order as answers end', async () => {
    const s = await holdingServer(2);
    const answers: Promise<string>[] = [];
    for (const path of ['/1', '/2', '/3', '/4']) answers.push((await s.request(path)).answer);
    expect(s.started).toEqual(['/1', '/2']);
    s.release('/2');
    await until('/3 to start', () => s.started.length === 3);
    expect(s.started[2]).toBe('/3');
    s.release('/1');
    s.release('/3');
    await until('/4 to start', () => s.started.length === 4);
    s.release('/4');
    expect(await Promise.all(answers)).toEqual(['/1', '/2', '/3', '/4']);
    expect(s.most()).toBe(2);
  });

  it('skips a waiting request whose caller hung up, and frees the place of one that hung up inside', async () => {
    const s = await holdingServer(1);
    const inside = new AbortController();
    const gone = new AbortController();
    const { answer: first } = await s.request('/inside', inside.signal);
    const { answer: waiting } = await s.request('/gone', gone.signal);
    const { answer: last } = await s.request('/last');
    gone.abort();
    expect(await waiting).toBe('aborted');
    await until('the server to see /gone hang up', () => s.closed.has('/gone'));
    // The caller inside hangs up without an answer: its place goes to the next one still there.
    inside.abort();
    expect(await first).toBe('aborted');
    await until('/last to start', () => s.started.length === 2);
    expect(s.started).toEqual(['/inside', '/last']);
    s.release('/last');
    expect(await last).toBe('/last');
  });

  it('frees the places of pipelined requests whose connection closed before their answers got the socket', async () => {
    const s = await holdingServer(2);
    const socket = await s.raw(get('/p1') + get('/p2'));
    await until('both pipelined requests to start', () => s.started.length === 2);
    socket.destroy();
    const after = [(await s.request('/a1')).answer, (await s.request('/a2')).answer];
    await until('both later requests to start', () => s.started.length === 4);
    s.release('/a1');
    s.release('/a2');
    expect(await Promise.all(after)).toEqual(['/a1', '/a2']);
  });

  it('gives the place back once the answer is ended, even to a client that never reads it', async () => {
    const s = await holdingServer(1);
    await s.raw(get('/big'));
    await until('/big to start', () => s.started.includes('/big'));
    const { answer: next } = await s.request('/next');
    await until('/next to start', () => s.started.includes('/next'));
    s.release('/next');
    expect(await next).toBe('/next');
  });

  it('answers with `shed` a request that waited longer than allowed, and still lets in the later ones', async () => {
    const s = await holdingServer(1, 150);
    const { answer: first } = await s.request('/stuck');
    const { answer: waited } = await s.request('/waited');
    expect(await waited).toBe('shed');
    const { answer: later } = await s.request('/later');
    s.release('/stuck');
    expect(await first).toBe('/stuck');
    await until('/later to start', () => s.started.length === 2);
    s.release('/later');
    expect(await later).toBe('/later');
    expect(s.started).toEqual(['/stuck', '/later']);
  });

  it('lets a `first` request in before the requests waiting, taking turns with them while both wait, each in arrival order', async () => {
    const s = await holdingServer(1);
    const answers: Promise<string>[] = [];
    for (const path of ['/inside', '/1', '/2', '/first/a', '/3', '/first/b']) answers.push((await s.request(path)).answer);
    for (const path of ['/inside', '/first/a', '/1', '/first/b', '/2', '/3']) {
      await until(`${path} to start`, () => s.started.at(-1) === path);
      s.release(path);
    }
    expect(await Promise.all(answers)).toEqual(['/inside', '/1', '/2', '/first/a', '/3', '/first/b']);
    expect(s.started).toEqual(['/inside', '/first/a', '/1', '/first/b', '/2', '/3']);
  });

  it('sheds a `first` request that waited longer than allowed, as any other', async () => {
    const hurried = await holdingServer(1, 150);
    const { answer: stuck } = await hurried.request('/stuck');
    const { answer: shed } = await hurried.request('/first/late');
    expect(await shed).toBe('shed');
    hurried.release('/stuck');
    expect(await stuck).toBe('/stuck');
    expect(hurried.started).toEqual(['/stuck']);
  });
});

/** A collection that leaves only what is reachable, so heap figures compare. */
function collect(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

describe('admission with a full queue', () => {
  it('sheds at once what a full queue cannot hold, and a connection pipelining more than its share', async () => {
    const shed: string[] = [];
    const held = new Map<string, http.ServerResponse>();
    server = http.createServer(
      admission({ limit: 1, maxWaitMs: 60_000, maxWaiting: 3, maxWaitingPerConnection: 2, shed: (req, res) => (shed.push(req.url!), res.writeHead(503).end('shed')) }, (req, res) => {
        held.set(req.url!, res);
      }),
    );
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const answer = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text());
    const inside = answer('/inside');
    await until('/inside to start', () => held.has('/inside'));
    // One connection pipelines four: two may wait, the other two are shed at once.
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.resume();
    await new Promise((done) => socket.once('connect', done));
    socket.write(['/p1', '/p2', '/p3', '/p4'].map(get).join(''));
    await until('two pipelined requests to be shed', () => shed.length === 2);
    expect(shed).toEqual(['/p3', '/p4']);
    // The third place in the queue, and then it is full.
    const third = answer('/w1');
    await sleep(100);
    expect(await answer('/w2')).toBe('shed');
    for (const path of ['/inside', '/p1', '/p2', '/w1']) {
      await until(`${path} to start`, () => held.has(path));
      held.get(path)!.end(path);
    }
    expect([await inside, await third]).toEqual(['/inside', '/w1']);
  });

  it('keeps the heap flat while one connection pipelines 40 000 requests', async () => {
    const s = await holdingServer(1);
    const socket = await s.raw('');
    socket.resume();
    const before = collect();
    for (let i = 0; i < 40; i++) socket.write(get('/p').repeat(1000));
    await sleep(2000);
    // Without the bounds the queue held all of them: about 62 MB.
    expect(collect() - before).toBeLessThan(8 * 1024 * 1024);
    expect(s.started).toEqual(['/p']);
  });
});
