// The server's port taken by several sockets (serving/listen.ts): a busy server takes many new
// connections per turn of its loop, not one, and serves them as its own.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, sharesPorts } from '../../src/server/serving/listen.ts';

/** Connects `count` sockets to `port` from another thread and sets `signal[0]` once all are connected. */
const CONNECTOR = `
const { workerData } = require('node:worker_threads');
const net = require('node:net');
const { port, count, signal } = workerData;
let connected = 0;
const sockets = [];
for (let i = 0; i < count; i++) {
  const socket = net.connect(port, '127.0.0.1', () => {
    if (++connected === count) { Atomics.store(signal, 0, 1); Atomics.notify(signal, 0); }
  });
  socket.on('error', () => {});
  sockets.push(socket);
}
`;

describe.skipIf(!sharesPorts())('listening with several sockets', () => {
  const servers: http.Server[] = [];
  const workers: Worker[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });

  /**
   * How many of `count` connections, all made while this thread's loop was blocked, the server
   * takes in the next turn of its loop.
   */
  async function takenInOneTurn(listeners: number, count: number): Promise<number> {
    const server = http.createServer((_req, res) => res.end('ok'));
    servers.push(server);
    let taken = 0;
    server.on('connection', () => taken++);
    await listen(server, 0, '127.0.0.1', listeners);
    const signal = new Int32Array(new SharedArrayBuffer(4));
    workers.push(new Worker(CONNECTOR, { eval: true, workerData: { port: (server.address() as AddressInfo).port, count, signal } }));
    // The loop stays blocked until the kernel has every connection queued on the listening sockets.
    expect(Atomics.wait(signal, 0, 0, 10_000)).toBe('ok');
    // This turn's check phase, then the next turn's: what its poll phase accepted between them.
    return new Promise((done) =>
      setImmediate(() => {
        const before = taken;
        setImmediate(() => done(taken - before));
      }),
    );
  }

  it('takes one connection per turn with one socket (the case it fixes)', async () => {
    expect(await takenInOneTurn(1, 40)).toBe(1);
  });

  it('takes many connections per turn with the shared port', async () => {
    // 40 connections spread over 32 sockets: about 23 sockets hold one or more.
    expect(await takenInOneTurn(32, 40)).toBeGreaterThanOrEqual(8);
  });

  it('refuses a port already in use, as one socket would', async () => {
    const first = http.createServer();
    servers.push(first);
    await listen(first, 0, '127.0.0.1', 4);
    const second = http.createServer();
    await expect(listen(second, (first.address() as AddressInfo).port, '127.0.0.1', 4)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('answers on connections every socket took, as the HTTP server’s own, and closes them all with it', async () => {
    const server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => res.end(req.url));
    servers.push(server);
    await listen(server, 0, '127.0.0.1', 8);
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: false });
    const answers = await Promise.all(
      Array.from(
        { length: 64 },
        (_, i) =>
          new Promise<string>((done, failed) => {
            http
              .get({ port, host: '127.0.0.1', path: `/${i}`, agent }, (res) => {
                let body = '';
                res.on('data', (chunk: Buffer) => (body += chunk.toString()));
                res.on('end', () => done(body));
              })
              .on('error', failed);
          }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 64 }, (_, i) => `/${i}`));
    servers.splice(servers.indexOf(server), 1);
    await new Promise((done) => server.close(done));
    // No socket of the group still listens: a new connection is refused.
    await expect(
      new Promise((done, failed) => http.get({ port, host: '127.0.0.1', agent }, done).on('error', failed)),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
