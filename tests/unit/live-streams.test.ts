import { afterEach, describe, expect, it, vi } from 'vitest';
import { EnvError, parseEnv } from '../../src/server/env.ts';
import { publishTournament } from '../../src/server/services/live/live.ts';
import {
  attachStream,
  EVENT_STREAM_LIMITS,
  frame,
  HEARTBEAT_MS,
  openStreamCount,
  takeStreamPlace,
  type StreamSink,
} from '../../src/server/services/live/live-streams.ts';

/**
 * The open event streams of a process (issue 24): one serialisation of an event for all of a
 * tournament's streams, one heartbeat timer for every stream, the caps, and their setting.
 */
const decoder = new TextDecoder();

/** A stream that keeps what it was sent. */
function sink() {
  const writes: Uint8Array[] = [];
  let ended = false;
  const target: StreamSink = { write: (bytes) => writes.push(bytes), end: () => (ended = true) };
  return { target, writes, text: () => writes.map((w) => decoder.decode(w)).join(''), ended: () => ended };
}

const detachers: (() => void)[] = [];
afterEach(() => {
  for (const detach of detachers.splice(0)) detach();
  vi.useRealTimers();
});

describe('event frames', () => {
  it('are written as text/event-stream: event, one data line, a numbered id and, on ready, retry', () => {
    const first = decoder.decode(frame('ready', '{}', 3000));
    const second = decoder.decode(frame('match', '{"kind":"match"}'));
    expect(first).toMatch(/^event: ready\ndata: \{\}\nid: (\d+)\nretry: 3000\n\n$/);
    expect(second).toMatch(/^event: match\ndata: \{"kind":"match"\}\nid: (\d+)\n\n$/);
    expect(Number(/id: (\d+)/.exec(second)![1])).toBe(Number(/id: (\d+)/.exec(first)![1]) + 1);
  });
});

describe('attachStream', () => {
  it('serialises an event once and writes the same bytes to every stream of the tournament, and none to another’s', async () => {
    const viewers = [sink(), sink(), sink()];
    const elsewhere = sink();
    for (const viewer of viewers) detachers.push(attachStream({ tournamentId: 't-1' }, viewer.target));
    detachers.push(attachStream({ tournamentId: 't-2' }, elsewhere.target));
    for (const viewer of [...viewers, elsewhere]) expect(viewer.text()).toMatch(/^event: ready\n/);
    publishTournament({ tournamentId: 't-1', kind: 'match', matchId: 'm-1' });
    // Written right after the publisher's own work.
    expect(viewers[0]!.writes).toHaveLength(1);
    await new Promise((done) => setImmediate(done));
    const sent = viewers.map((v) => v.writes[1]);
    expect(sent[0]).toBeDefined();
    expect(sent.every((bytes) => bytes === sent[0])).toBe(true);
    expect(decoder.decode(sent[0])).toMatch(/^event: match\ndata: \{"tournamentId":"t-1","kind":"match","change":"[0-9a-f-]{36}","matchId":"m-1"\}\nid: \d+\n\n$/);
    expect(elsewhere.writes).toHaveLength(1);
  });

  it('stops writing to a stream once detached', async () => {
    const viewer = sink();
    const detach = attachStream({ tournamentId: 't-3' }, viewer.target);
    const count = openStreamCount();
    detach();
    detach();
    expect(openStreamCount()).toBe(count - 1);
    publishTournament({ tournamentId: 't-3', kind: 'stage' });
    await new Promise((done) => setImmediate(done));
    expect(viewer.writes).toHaveLength(1);
  });

  it('beats every stream’s heartbeat from one timer, a slice at a time, however many streams are open', () => {
    vi.useFakeTimers();
    const timers = vi.spyOn(globalThis, 'setInterval');
    const viewers = Array.from({ length: 50 }, () => sink());
    viewers.forEach((viewer, i) => detachers.push(attachStream(i % 2 ? { tournamentId: 't-4' } : { userId: 'u-4' }, viewer.target)));
    expect(timers).toHaveBeenCalledTimes(1);
    const beaten = () => viewers.filter((viewer) => viewer.text().includes(': ♥')).length;
    // A slice each second, so thousands of sockets are never written at once for it…
    vi.advanceTimersByTime(HEARTBEAT_MS / 25);
    expect(beaten()).toBe(2);
    // …and every stream once per HEARTBEAT_MS.
    vi.advanceTimersByTime(HEARTBEAT_MS - HEARTBEAT_MS / 25);
    for (const viewer of viewers) expect(viewer.text().match(/: ♥\n\n/g)).toHaveLength(1);
    timers.mockRestore();
  });
});

describe('takeStreamPlace', () => {
  const from = (address: string | null, more: { device?: string; account?: string } = {}) => ({ address, ...more });

  it('refuses an address past its share and a full process, and gives a place back once', () => {
    const owner = {};
    const limits = { max: 3, perAddress: 2 };
    const a1 = takeStreamPlace(owner, limits, from('a'));
    const a2 = takeStreamPlace(owner, limits, from('a'));
    expect(takeStreamPlace(owner, limits, from('a'))).toBe('address');
    const b1 = takeStreamPlace(owner, limits, from('b'));
    expect(takeStreamPlace(owner, limits, from('c'))).toBe('full');
    // Another app (its own dependencies) counts its own.
    expect(typeof takeStreamPlace({}, limits, from('c'))).toBe('function');
    if (typeof a1 !== 'function' || typeof a2 !== 'function' || typeof b1 !== 'function') throw new Error('places expected');
    a1();
    a1();
    expect(typeof takeStreamPlace(owner, limits, from('c'))).toBe('function');
    expect(takeStreamPlace(owner, limits, from('d'))).toBe('full');
  });

  it('refuses a device and an account past their shares, on any address, and names them before the address', () => {
    const owner = {};
    const limits = { max: 100, perAddress: 3, perDevice: 2, perAccount: 2 };
    expect(typeof takeStreamPlace(owner, limits, from('a', { device: 'd1' }))).toBe('function');
    expect(typeof takeStreamPlace(owner, limits, from('b', { device: 'd1' }))).toBe('function');
    expect(takeStreamPlace(owner, limits, from('c', { device: 'd1' }))).toBe('device');
    expect(typeof takeStreamPlace(owner, limits, from('a', { device: 'd2', account: 'u1' }))).toBe('function');
    expect(typeof takeStreamPlace(owner, limits, from('c', { device: 'd3', account: 'u1' }))).toBe('function');
    expect(takeStreamPlace(owner, limits, from('d', { device: 'd4', account: 'u1' }))).toBe('account');
    // `a` holds two: a third stream takes its last place; past it, a device over its share hears of its device, any other of the address.
    expect(typeof takeStreamPlace(owner, limits, from('a', { device: 'd5' }))).toBe('function');
    expect(takeStreamPlace(owner, limits, from('a', { device: 'd1' }))).toBe('device');
    expect(takeStreamPlace(owner, limits, from('a', { device: 'd6' }))).toBe('address');
  });

  it('counts no address inside a venue network (null), only its devices and the process', () => {
    const owner = {};
    const limits = { max: 6, perAddress: 1, perDevice: 1 };
    for (let i = 0; i < 6; i++) expect(typeof takeStreamPlace(owner, limits, from(null, { device: `v${i}` })), `device ${i}`).toBe('function');
    expect(takeStreamPlace(owner, limits, from(null, { device: 'v7' }))).toBe('full');
    expect(takeStreamPlace(owner, limits, from(null, { device: 'v0' }))).toBe('device');
  });
});

describe('EVENT_STREAMS_MAX and EVENT_STREAMS_PER_ADDRESS', () => {
  it('default to 4000 streams per process and 256 per address (8 per device and per account), the route’s own defaults', () => {
    const env = parseEnv({});
    expect(env.EVENT_STREAMS_MAX).toBe(4000);
    expect(env.EVENT_STREAMS_PER_ADDRESS).toBe(256);
    expect(EVENT_STREAM_LIMITS).toEqual({ max: env.EVENT_STREAMS_MAX, perAddress: env.EVENT_STREAMS_PER_ADDRESS, perDevice: 8, perAccount: 8 });
  });

  it('take a number in range and refuse anything else', () => {
    expect(parseEnv({ EVENT_STREAMS_MAX: '20000', EVENT_STREAMS_PER_ADDRESS: '4' })).toMatchObject({ EVENT_STREAMS_MAX: 20_000, EVENT_STREAMS_PER_ADDRESS: 4 });
    expect(() => parseEnv({ EVENT_STREAMS_MAX: '0' })).toThrow(EnvError);
    expect(() => parseEnv({ EVENT_STREAMS_MAX: 'many' })).toThrow(/EVENT_STREAMS_MAX/);
  });
});
