import { z } from '@hono/zod-openapi';
import { t } from '../../../lib/i18n/index.ts';
import {
  attachStream,
  EVENT_STREAM_LIMITS,
  MAX_UNSENT_BYTES,
  RETRY_MS,
  takeStreamPlace,
  type StreamRefusal,
  type StreamSink,
  type Topic,
} from '../../services/live/live-streams.ts';
import { stagesVersion } from '../../services/competition/stages/store.ts';
import { limitedAddress, type AppContext } from '../context.ts';
import { deviceOf } from '../device.ts';
import { fail, failWith } from '../errors.ts';
import { holdForHead } from '../node-streams.ts';
import { errors, refuseHidden, router, streamRoute, userStreamRoute } from '../openapi.ts';

/**
 * The answer to a refused stream: 429 for a device, an account or an address over its share, 503
 * for a full process. Either way the page polls meanwhile and tries again (lib/live/events.ts).
 */
function refuseStream(refusal: StreamRefusal): never {
  const retry = { 'Retry-After': String(RETRY_MS / 1000) };
  if (refusal === 'address') failWith(429, t('live.tooManyStreams'), retry);
  if (refusal === 'device' || refusal === 'account') failWith(429, t('live.tooManyStreamsHere'), retry);
  failWith(503, t('live.busy'), retry);
}

/**
 * Takes a place for a stream under the app's caps (`deps.eventStreams`), or refuses it: counted per
 * device (its cookie, given with the answer when it had none), per account for the reader's own
 * stream, and per address outside venue networks (decision 035).
 */
function takePlace(c: AppContext, account?: string): () => void {
  const deps = c.get('deps');
  const holder = { address: limitedAddress(c), device: deviceOf(c), account: account ?? null };
  const place = takeStreamPlace(deps, deps.eventStreams ?? EVENT_STREAM_LIMITS, holder);
  if (typeof place === 'string') refuseStream(place);
  return place;
}

/** A stream's head: never stored or transformed on the way (nginx: no buffering), each event must leave at once. */
const STREAM_HEADERS = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store, no-transform', 'X-Accel-Buffering': 'no' };

/**
 * An SSE answer that relays the topic's events (services/live/live-streams.ts makes the frames)
 * until the client leaves, stops reading (MAX_UNSENT_BYTES), or the server shuts down. Served on
 * Node's own response (`outgoing`: the site's server and `npm run api`, api/on-node.ts), the
 * frames are written to it (api/node-streams.ts). Otherwise (`astro dev`, an app asked with
 * `fetch`) the body is one ReadableStream the frames are put into; Hono's `streamSSE` would cost a
 * TransformStream, a writer and a promise per frame more.
 */
function relay(c: AppContext, release: () => void, topic: Topic): Response {
  const outgoing = c.env?.outgoing;
  if (outgoing) {
    holdForHead(outgoing, topic, release);
    return c.body(null, 200, STREAM_HEADERS);
  }
  let detach = () => {};
  let open = true;
  const leave = () => {
    if (!open) return;
    open = false;
    detach();
    release();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const sink: StreamSink = {
          write: (bytes) => {
            if (!open) return;
            if ((controller.desiredSize ?? 0) < -MAX_UNSENT_BYTES) {
              leave();
              controller.error(new Error('the reader stopped reading'));
            } else controller.enqueue(bytes);
          },
          end: () => {
            if (!open) return;
            leave();
            controller.close();
          },
        };
        detach = attachStream(topic, sink);
      },
      cancel: leave,
    },
    // Nothing is read ahead: what is queued is exactly what the reader has not taken.
    new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
  );
  return c.body(body, 200, STREAM_HEADERS);
}

const tags = ['Наживо'];

const streamResponse = (description: string) => ({ description, content: { 'text/event-stream': { schema: z.string() } } });

/**
 * What changed in a tournament, as server-sent events (`match`, `report`, `checkIn`, `stage`,
 * `application`, `tournament`; data `{ tournamentId, kind, matchId?, version? }`). Public: events
 * carry ids only, the page reads what changed through the ordinary reads.
 */
export const tournamentEventRoutes = router().openapi(
  streamRoute({
    method: 'get',
    path: '/{id}/events',
    tags,
    summary:
      'Зміни турніру наживо (text/event-stream): результат, звіт, реєстрація на місці, етап, заявка, статус. Лише ідентифікатори — нове читайте звичайними запитами. ' +
      'Коментар-пульс кожні 25 с; забагато потоків з пристрою чи адреси — 429, сервер зайнятий — 503',
    request: { params: z.object({ id: z.uuid() }) },
    responses: { 200: streamResponse('Потік подій'), ...errors(400, 404, 429, 503) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    if ((await stagesVersion(c.get('db'), id)) === null) fail(404, 'tournament.notFound');
    await refuseHidden(c.get('db'), c.get('caller'), id);
    const release = takePlace(c);
    return relay(c, release, { tournamentId: id }) as never;
  },
);

/**
 * The caller's own changes (`notification`: the bell; `team`: their team; `matchChat`: a message in
 * the chat of a match whose room they are in, with its `matchId`), as server-sent events.
 * EventSource cannot send the bearer token, so pages read it with `fetch` (decision 015).
 */
export const userEventRoutes = router().openapi(
  userStreamRoute({
    method: 'get',
    path: '/',
    tags,
    summary:
      'Мої зміни наживо (text/event-stream): нове сповіщення (notification), зміни моєї команди (team), нове повідомлення в чаті мого матчу (matchChat з matchId). ' +
      'Читати через fetch з токеном',
    responses: { 200: streamResponse('Потік подій'), ...errors(401, 429, 503) },
  }),
  async (c) => {
    const { user } = c.var.auth;
    // The guarded context only adds `auth`, which the stream does not need.
    const context = c as unknown as AppContext;
    const release = takePlace(context, user.id);
    return relay(context, release, { userId: user.id }) as never;
  },
);
