import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import onHeaders from 'on-headers';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A line's entrance: `first` requests (the render of a held answer that every other reader is
 * served meanwhile) go before the rest, taking turns with them while both wait.
 */
export type Line = (req: IncomingMessage, res: ServerResponse, first?: boolean) => void;

export interface AdmissionOptions {
  /** Requests handled at once. */
  limit: number;
  /** How long a request may wait for its turn; after that `shed` answers it instead. */
  maxWaitMs: number;
  /** Answers a request that waited too long, or found the queue full (a 503 with Retry-After). */
  shed: Handler;
  /** Requests that may wait at once; the next is shed at once (MAX_WAITING). */
  maxWaiting?: number;
  /** Requests of one connection that may wait at once: pipelining beyond this is shed at once (MAX_WAITING_PER_CONNECTION). */
  maxWaitingPerConnection?: number;
}

/**
 * A waiting request costs its IncomingMessage and ServerResponse, about 1.5 KB. One client
 * pipelining 40 000 GETs on one socket made the queue hold 62 MB, and nothing stopped it at that:
 * a shed request's answer, queued behind the ones before it, is what makes Node stop reading the
 * socket. Browsers never pipeline, and 200 connections of the load mix wait 200 at most.
 */
const MAX_WAITING = 1000;
const MAX_WAITING_PER_CONNECTION = 8;

/**
 * Lets at most `limit` requests into `handle` at once; the others wait their turn, in order, as
 * bare sockets. Two cores render only so many pages at a time anyway: past that, every request
 * let in holds its half-built page, its query results and its Request/Response objects while it
 * waits for the CPU, and the heap grows with the queue instead of the work. A request whose caller
 * hung up while waiting is dropped unhandled. When the turns stop coming (a database that hangs
 * holds every place for its query timeout), a request that waited `maxWaitMs` is shed rather than
 * left waiting for minutes.
 *
 * A place is given back as soon as the handler writes its answer's head (pages and reads are made
 * whole before that), not when the client has read it: a client that stops reading holds only its own socket. It is
 * also given back when the connection closes first, including for a pipelined request whose answer
 * never got the socket.
 */
export function admission(
  { limit, maxWaitMs, shed, maxWaiting = MAX_WAITING, maxWaitingPerConnection = MAX_WAITING_PER_CONNECTION }: AdmissionOptions,
  handle: Handler,
): Line {
  let inside = 0;
  type Waiting = { req: IncomingMessage; res: ServerResponse; since: number };
  // Two queues, each in arrival order: `first` requests are let in before `waiting`, but while both
  // wait they take turns. Under a final's load the renders of held answers came without pause (a
  // write, an expiry, every second), and a guest with no copy to be given waited seconds behind them.
  const urgent: Waiting[] = [];
  const waiting: Waiting[] = [];
  let urgentLast = false;
  const queued = () => urgent.length + waiting.length;
  /** How many of the queued requests each connection has. */
  const perConnection = new Map<Socket, number>();
  const left = (req: IncomingMessage) => {
    const count = (perConnection.get(req.socket) ?? 1) - 1;
    if (count > 0) perConnection.set(req.socket, count);
    else perConnection.delete(req.socket);
  };
  let sweeper: NodeJS.Timeout | undefined;

  const gone = (req: IncomingMessage, res: ServerResponse) => req.socket.destroyed || res.closed;
  const stopSweepingWhenEmpty = () => {
    if (queued() > 0 || !sweeper) return;
    clearInterval(sweeper);
    sweeper = undefined;
  };

  const admit = (req: IncomingMessage, res: ServerResponse) => {
    inside++;
    const { socket } = req;
    let held = true;
    const leave = () => {
      if (!held) return;
      held = false;
      inside--;
      res.off('close', leave);
      socket.off('close', leave);
      next();
    };
    res.once('close', leave);
    socket.once('close', leave);
    onHeaders(res, leave);
    handle(req, res);
  };

  const next = () => {
    while (inside < limit && queued() > 0) {
      urgentLast = urgent.length > 0 && (waiting.length === 0 || !urgentLast);
      const { req, res } = (urgentLast ? urgent : waiting).shift()!;
      left(req);
      if (!gone(req, res)) admit(req, res);
    }
    stopSweepingWhenEmpty();
  };

  const dropGone = () => {
    for (const queue of [urgent, waiting]) {
      for (let i = queue.length - 1; i >= 0; i--) {
        const { req, res } = queue[i]!;
        if (!gone(req, res)) continue;
        queue.splice(i, 1);
        left(req);
      }
    }
  };

  // Each queue is in arrival order, so whoever waited too long is at its head.
  const sweep = () => {
    const cutoff = Date.now() - maxWaitMs;
    for (const queue of [urgent, waiting]) {
      while (queue.length > 0 && queue[0]!.since <= cutoff) {
        const { req, res } = queue.shift()!;
        left(req);
        if (!gone(req, res)) shed(req, res);
      }
    }
    stopSweepingWhenEmpty();
  };

  return (req, res, first = false) => {
    if (inside < limit) return admit(req, res);
    // Callers that hung up while waiting would otherwise count until their turn came.
    if (queued() >= maxWaiting) dropGone();
    const mine = perConnection.get(req.socket) ?? 0;
    if (queued() >= maxWaiting || mine >= maxWaitingPerConnection) return shed(req, res);
    perConnection.set(req.socket, mine + 1);
    (first ? urgent : waiting).push({ req, res, since: Date.now() });
    sweeper ??= setInterval(sweep, Math.min(250, maxWaitMs)).unref();
  };
}
