import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { t } from '../../../lib/i18n/index.ts';
import { onLiveSignal, subscribeTournament, subscribeUser, type TournamentEvent, type UserEvent } from '../../services/live.ts';
import { stagesVersion } from '../../services/stages.ts';
import { clientAddress, type AppContext, type Deps } from '../context.ts';
import { fail, failWith } from '../errors.ts';
import { errors, router, userRoute } from '../openapi.ts';

/** How long a browser waits before reconnecting a dropped stream (the `retry:` line). */
export const RETRY_MS = 3000;
/** A comment this often keeps proxies (which close a silent connection after 30–60 s) from dropping the stream. */
export const HEARTBEAT_MS = 25_000;

/** Streams open at once: per process, and per client address (`deps.eventStreams` overrides both). */
export const EVENT_STREAM_LIMITS = { max: 1000, perAddress: 16 };

/** Open streams of one app, by client address. */
interface Gate {
  open: number;
  byAddress: Map<string, number>;
}
const gates = new WeakMap<Deps, Gate>();

/** Takes a place for a stream, or refuses: 429 for an address over its share, 503 for a full process. */
function takePlace(c: AppContext): () => void {
  const deps = c.get('deps');
  const limits = deps.eventStreams ?? EVENT_STREAM_LIMITS;
  let gate = gates.get(deps);
  if (!gate) gates.set(deps, (gate = { open: 0, byAddress: new Map() }));
  const address = clientAddress(c);
  const mine = gate.byAddress.get(address) ?? 0;
  const retry = { 'Retry-After': String(RETRY_MS / 1000) };
  if (mine >= limits.perAddress) failWith(429, t('live.tooManyStreams'), retry);
  if (gate.open >= limits.max) failWith(503, t('live.busy'), retry);
  gate.open++;
  gate.byAddress.set(address, mine + 1);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    gate.open--;
    const left = (gate.byAddress.get(address) ?? 1) - 1;
    if (left > 0) gate.byAddress.set(address, left);
    else gate.byAddress.delete(address);
  };
}

/** The numbered `id:` of each event this process sends (no replay: a reconnecting page reads again). */
let sequence = 0;

/**
 * An SSE answer that relays what `subscribe` hears until the client leaves or the server shuts
 * down. It opens with `ready` (and the `retry:` line); `resync` tells the page to read again after
 * the link between instances was lost for a while. Events are written one after another.
 */
function relay<E extends { kind: string }>(c: AppContext, release: () => void, subscribe: (listener: (event: E) => void) => () => void) {
  // Never cached or transformed on the way (nginx buffering off too): each event must leave at once.
  const response = streamSSE(c, async (stream: SSEStreamingApi) => {
    let chain = Promise.resolve();
    const send = (event: string, data: unknown) => {
      chain = chain.then(() => stream.writeSSE({ event, data: JSON.stringify(data), id: String(++sequence) }));
    };
    const stops: (() => void)[] = [];
    try {
      await new Promise<void>((done) => {
        stops.push(done);
        stream.onAbort(done);
        c.req.raw.signal.addEventListener('abort', () => done(), { once: true });
        stops.push(onLiveSignal('shutdown', done));
        stops.push(onLiveSignal('resync', () => send('resync', {})));
        stops.push(subscribe((event) => send(event.kind, event)));
        const heartbeat = setInterval(() => {
          chain = chain.then(() => stream.write(': ♥\n\n').then(() => undefined));
        }, HEARTBEAT_MS);
        heartbeat.unref();
        stops.push(() => clearInterval(heartbeat));
        chain = chain.then(() => stream.writeSSE({ event: 'ready', data: '{}', id: String(++sequence), retry: RETRY_MS }));
      });
    } finally {
      for (const stop of stops) stop();
      release();
    }
  });
  // Never stored or transformed on the way (nginx: no buffering): each event must leave at once.
  response.headers.set('Cache-Control', 'no-store, no-transform');
  response.headers.set('X-Accel-Buffering', 'no');
  return response;
}

const tags = ['Наживо'];

const streamResponse = (description: string) => ({ description, content: { 'text/event-stream': { schema: z.string() } } });

/**
 * What changed in a tournament, as server-sent events (`match`, `report`, `checkIn`, `stage`,
 * `application`, `tournament`; data `{ tournamentId, kind, matchId?, version? }`). Public: events
 * carry ids only, the page reads what changed through the ordinary reads.
 */
export const tournamentEventRoutes = router().openapi(
  createRoute({
    method: 'get',
    path: '/{id}/events',
    tags,
    summary:
      'Зміни турніру наживо (text/event-stream): результат, звіт, реєстрація на місці, етап, заявка, статус. Лише ідентифікатори — нове читайте звичайними запитами. ' +
      'Коментар-пульс кожні 25 с; забагато потоків з адреси — 429, сервер зайнятий — 503',
    request: { params: z.object({ id: z.uuid() }) },
    responses: { 200: streamResponse('Потік подій'), ...errors(400, 404, 429, 503) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    if ((await stagesVersion(c.get('db'), id)) === null) fail(404, 'tournament.notFound');
    const release = takePlace(c);
    return relay<TournamentEvent>(c, release, (listener) => subscribeTournament(id, listener)) as never;
  },
);

/**
 * The caller's own changes (`notification`: the bell; `team`: their team), as server-sent events.
 * EventSource cannot send the bearer token, so pages read it with `fetch` (decision 015).
 */
export const userEventRoutes = router().openapi(
  userRoute({
    method: 'get',
    path: '/',
    tags,
    summary: 'Мої зміни наживо (text/event-stream): нове сповіщення (notification), зміни моєї команди (team). Читати через fetch з токеном',
    responses: { 200: streamResponse('Потік подій'), ...errors(401, 429, 503) },
  }),
  async (c) => {
    const { user } = c.var.auth;
    // The guarded context only adds `auth`, which the stream does not need.
    const context = c as unknown as AppContext;
    const release = takePlace(context);
    return relay<UserEvent>(context, release, (listener) => subscribeUser(user.id, listener)) as never;
  },
);
