/**
 * The open event streams of this process (decision 018): what they are sent, how many may be open,
 * and how one event reaches all of them. The one owner of the wire format (`text/event-stream`
 * frames); the Hono route (api/routes/live.ts) serves the streams.
 *
 * An event is serialised once and the same bytes are written to every stream of its topic in one
 * loop, never awaited per stream; one timer sends every stream its heartbeat (a slice of them each
 * second, so 10 000 sockets are never written at once for it).
 */
import { performance } from 'node:perf_hooks';
import { EVENT_STREAMS_DEFAULTS } from '../../env.ts';
import { onLiveSignal, subscribeTournament, subscribeUser, type TournamentEvent, type UserEvent } from './live.ts';

/** How long a browser waits before reconnecting a dropped stream (the `retry:` line). */
export const RETRY_MS = 3000;
/** A comment this often keeps proxies (which close a silent connection after 30–60 s) from dropping the stream. */
export const HEARTBEAT_MS = 25_000;
/** A reader that has not taken this much of its stream is not reading: it is let go. */
export const MAX_UNSENT_BYTES = 64 * 1024;
/** An event written to at least this many streams is logged with the time its writing took. */
const LOGGED_AUDIENCE = 1000;
/** The heartbeat timer ticks this many times per HEARTBEAT_MS, each tick beating the streams of one slot. */
const BEAT_SLOTS = 25;

/** Streams open at once per process, per client address, per device and per account, unless the app says otherwise (`Deps.eventStreams`). */
export const EVENT_STREAM_LIMITS: StreamLimits = EVENT_STREAMS_DEFAULTS;
export interface StreamLimits {
  max: number;
  perAddress: number;
  /** Streams of one browser (its device cookie); unset, EVENT_STREAMS_DEFAULTS'. */
  perDevice?: number;
  /** A signed-in reader's own streams, from wherever; unset, EVENT_STREAMS_DEFAULTS'. */
  perAccount?: number;
}

/** Who opens a stream, as the caps count it (decision 035). */
export interface StreamHolder {
  /** The client address's key; null inside a venue network (TRUSTED_VENUE_NETWORKS), which no per-address cap counts. */
  address: string | null;
  /** The browser's device id (its cookie), when it sent one or was just given one. */
  device?: string | null;
  /** The signed-in reader whose own stream this is. */
  account?: string | null;
}

/** Where a stream's bytes go: a Node response (api/node-streams.ts), or the Hono route's web stream (api/routes/live.ts). */
export interface StreamSink {
  /** Writes one or more whole frames; never awaited, so one slow reader holds up nobody. */
  write(bytes: Uint8Array): void;
  /** The server shuts down: end the answer. */
  end(): void;
}

/** What a stream listens to: a tournament's events, or one user's. */
export type Topic = { tournamentId: string } | { userId: string };

interface Place {
  open: number;
  /** Streams held per holder (`address:…`, `device:…`, `account:…`), only while one is open. */
  byHolder: Map<string, number>;
}

interface Channel {
  sinks: Set<StreamSink>;
  stop: () => void;
}

interface Streams {
  /** Places taken, per owner of the limits (an app's dependencies: tests run apps with their own caps). */
  places: WeakMap<object, Place>;
  channels: Map<string, Channel>;
  /** Every open stream, for `resync` and shutdown. */
  all: Set<StreamSink>;
  /** The streams by heartbeat slot: the timer beats one slot a tick, each in turn. */
  slots: Set<StreamSink>[];
  /** Which slot the next stream joins, and which one the next tick beats. */
  nextSlot: number;
  tick: number;
  /** The `id:` of the last frame sent (no replay: a reconnecting page reads again). */
  sequence: number;
  heartbeat: NodeJS.Timeout | undefined;
}

const streams: Streams = (() => {
  const state: Streams = {
    places: new WeakMap(),
    channels: new Map(),
    all: new Set(),
    slots: Array.from({ length: BEAT_SLOTS }, () => new Set()),
    nextSlot: 0,
    tick: 0,
    sequence: 0,
    heartbeat: undefined,
  };
  onLiveSignal('resync', () => writeAll(state.all, frame('resync', '{}')));
  onLiveSignal('shutdown', () => {
    for (const sink of [...state.all]) sink.end();
  });
  return state;
})();

const encoder = new TextEncoder();

/**
 * One event as sent (`event:`, `data:`, `id:` and, on `ready`, `retry:` lines), numbered in this
 * process; `data` is one line of JSON.
 */
export function frame(event: string, data: string, retry?: number): Uint8Array {
  const lines = [`event: ${event}`, `data: ${data}`, `id: ${++streams.sequence}`];
  if (retry !== undefined) lines.push(`retry: ${retry}`);
  return encoder.encode(`${lines.join('\n')}\n\n`);
}

/** The heartbeat: a comment, which readers skip. */
const HEARTBEAT = encoder.encode(': ♥\n\n');

function writeAll(sinks: Iterable<StreamSink>, bytes: Uint8Array): void {
  for (const sink of sinks) {
    try {
      sink.write(bytes);
    } catch {
      // a stream that broke is closed by its own close handler
    }
  }
}

/**
 * Why a stream was refused: its device or its account holds its share, its address holds its share
 * (429), or the process is full (503).
 */
export type StreamRefusal = 'device' | 'account' | 'address' | 'full';

/**
 * Takes a place for a stream of `holder` under `limits` (counted per `owner`), or says why not: the
 * device's and the account's caps first (they say what to close), then the address's, then the
 * process's. The place is the caller's until it calls the function returned (once is enough; more
 * is harmless).
 */
export function takeStreamPlace(owner: object, limits: StreamLimits, holder: StreamHolder): (() => void) | StreamRefusal {
  let place = streams.places.get(owner);
  if (!place) streams.places.set(owner, (place = { open: 0, byHolder: new Map() }));
  const caps: [key: string, cap: number, refusal: StreamRefusal][] = [];
  if (holder.device) caps.push([`device:${holder.device}`, limits.perDevice ?? EVENT_STREAMS_DEFAULTS.perDevice, 'device']);
  if (holder.account) caps.push([`account:${holder.account}`, limits.perAccount ?? EVENT_STREAMS_DEFAULTS.perAccount, 'account']);
  if (holder.address !== null) caps.push([`address:${holder.address}`, limits.perAddress, 'address']);
  for (const [key, cap, refusal] of caps) if ((place.byHolder.get(key) ?? 0) >= cap) return refusal;
  if (place.open >= limits.max) return 'full';
  place.open++;
  for (const [key] of caps) place.byHolder.set(key, (place.byHolder.get(key) ?? 0) + 1);
  let held = true;
  const taken = place;
  return () => {
    if (!held) return;
    held = false;
    taken.open--;
    for (const [key] of caps) {
      const left = (taken.byHolder.get(key) ?? 1) - 1;
      if (left > 0) taken.byHolder.set(key, left);
      else taken.byHolder.delete(key);
    }
  };
}

const channelKey = (topic: Topic) => ('tournamentId' in topic ? `t:${topic.tournamentId}` : `u:${topic.userId}`);

/** One listener per topic; it serialises each event once for all the topic's streams. */
function channelOf(topic: Topic): Channel {
  const key = channelKey(topic);
  let channel = streams.channels.get(key);
  if (channel) return channel;
  const sinks = new Set<StreamSink>();
  // Written once the publisher's own work is done (the message to the other instances is on its way
  // by then, and the writer's answer is not held up by 10 000 writes); numbered now, in order.
  const send = (event: TournamentEvent | UserEvent) => {
    // Whether a result counted in the statistics is for the instances' held answers, not the pages.
    const { counted: _, ...told } = event as TournamentEvent;
    const bytes = frame(event.kind, JSON.stringify('tournamentId' in event ? told : event));
    setImmediate(() => {
      const started = performance.now();
      writeAll(sinks, bytes);
      // A large audience's delivery is worth a line in the log: how long its sockets took.
      if (sinks.size >= LOGGED_AUDIENCE) console.log(`[live] ${event.kind}: ${sinks.size} потоків за ${(performance.now() - started).toFixed(0)} мс`);
    });
  };
  const stop = 'tournamentId' in topic ? subscribeTournament(topic.tournamentId, send) : subscribeUser(topic.userId, send);
  channel = { sinks, stop };
  streams.channels.set(key, channel);
  return channel;
}

function beat(): void {
  writeAll(streams.slots[streams.tick++ % BEAT_SLOTS]!, HEARTBEAT);
}

/**
 * Starts sending `topic`'s events to `sink`, beginning with `ready` (and the `retry:` line).
 * Returns the function that stops (the reader left); it does not give the place back.
 */
export function attachStream(topic: Topic, sink: StreamSink): () => void {
  const channel = channelOf(topic);
  channel.sinks.add(sink);
  streams.all.add(sink);
  const slot = streams.slots[streams.nextSlot++ % BEAT_SLOTS]!;
  slot.add(sink);
  if (!streams.heartbeat) {
    streams.heartbeat = setInterval(beat, HEARTBEAT_MS / BEAT_SLOTS);
    streams.heartbeat.unref();
  }
  sink.write(frame('ready', '{}', RETRY_MS));
  let attached = true;
  return () => {
    if (!attached) return;
    attached = false;
    channel.sinks.delete(sink);
    streams.all.delete(sink);
    slot.delete(sink);
    if (channel.sinks.size === 0) {
      channel.stop();
      streams.channels.delete(channelKey(topic));
    }
    if (streams.all.size === 0 && streams.heartbeat) {
      clearInterval(streams.heartbeat);
      streams.heartbeat = undefined;
    }
  };
}

/** How many streams are open in this process (all owners). */
export const openStreamCount = (): number => streams.all.size;
