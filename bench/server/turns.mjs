// A diagnostic for the server under a benchmark, not part of it (decision 032, F31): how long each kind
// of request spends inside the server, how many turns of its event loop it spans, and how many
// statements it sends to the embedded database's thread (`query`: answered by a message, a turn
// later; `transaction`: a transaction's, answered at once). Load it into the measured server only:
//   BENCH_SERVER_NODE_OPTIONS="--import ./bench/server/turns.mjs" npm run bench:load
// Every 5 s and at exit, bench/results/server/turns-<pid>.txt gets one line per kind of request
// (method and path, ids replaced), most frequent first. What a client measured beyond these times
// is the wait before the server read the request and after it wrote the answer.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { isMainThread, MessagePort, Worker } from 'node:worker_threads';

const RESULTS = join(process.cwd(), 'bench', 'results', 'server');

if (isMainThread && /serve\.m?[jt]s$/.test(process.argv[1] ?? '')) {
  let turn = 0;
  const tick = () => {
    turn++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const request = new AsyncLocalStorage();
  const kinds = new Map();
  const kindOf = (req) =>
    `${req.method} ${(req.url ?? '')
      .split('?')[0]
      .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id')
      .replace(/\/\d+(?=\/|$)/g, '/:n')}`;

  // Statements outside a transaction go to the thread's worker; a transaction's on a port of its own.
  const toWorker = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    const current = request.getStore();
    if (current && message?.op === 'query') current.query++;
    return toWorker.call(this, message, ...rest);
  };
  // A worker's postMessage goes through a port's too: a transaction's are the port's messages less those.
  const toPort = MessagePort.prototype.postMessage;
  MessagePort.prototype.postMessage = function (message, ...rest) {
    const current = request.getStore();
    if (current && typeof message?.op === 'string') current.port++;
    return toPort.call(this, message, ...rest);
  };

  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, res) {
    if (event !== 'request') return emit.apply(this, arguments);
    const current = { began: performance.now(), turn, query: 0, port: 0 };
    res.once('finish', () => {
      const kind = kindOf(req);
      let seen = kinds.get(kind);
      if (!seen) kinds.set(kind, (seen = { ms: [], turns: [], query: 0, transaction: 0, n: 0 }));
      seen.n++;
      seen.ms.push(performance.now() - current.began);
      seen.turns.push(turn - current.turn);
      seen.query += current.query;
      seen.transaction += current.port - current.query;
    });
    const args = arguments;
    return request.run(current, () => emit.apply(this, args));
  };

  const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))] ?? 0;
  const write = () => {
    const lines = [...kinds]
      .filter(([, seen]) => seen.n >= 20)
      .sort((a, b) => b[1].n - a[1].n)
      .map(
        ([kind, s]) =>
          `${String(s.n).padStart(7)}  in server p50 ${percentile(s.ms, 0.5).toFixed(0).padStart(4)} ms, p99 ${percentile(s.ms, 0.99).toFixed(0).padStart(5)} ms;` +
          ` turns p50 ${percentile(s.turns, 0.5)}, p99 ${percentile(s.turns, 0.99)}; statements a request: ${(s.query / s.n).toFixed(1)} by message, ${(s.transaction / s.n).toFixed(1)} in transactions  ${kind}`,
      );
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, `turns-${process.pid}.txt`), `${lines.join('\n')}\n`);
  };
  setInterval(write, 5000).unref();
  process.on('exit', write);
}
