import { afterEach, describe, expect, it, vi } from 'vitest';
import { POLL_MS } from '../../src/lib/hooks/poll-while-visible.ts';
import { sseParser, watchEvents, type LiveEvent } from '../../src/lib/live/events.ts';
import { watchUser } from '../../src/lib/live/user-events.ts';
import { $token } from '../../src/lib/stores/token.ts';

describe('sseParser', () => {
  it('reads events across chunk boundaries, skips heartbeats, and takes the retry', () => {
    const seen: [string, string][] = [];
    const parse = sseParser((name, data) => seen.push([name, data]));
    expect(parse('retry: 3000\nevent: ready\nid: 1\ndata: {}\n\n: ♥\n\nevent: ma')).toEqual({ retry: 3000 });
    expect(parse('tch\r\ndata: {"matchId":"m1"}\r\n\r\n')).toEqual({});
    expect(seen).toEqual([
      ['ready', '{}'],
      ['match', '{"matchId":"m1"}'],
    ]);
  });
});

/** A fetch whose answers the test scripts: each call takes the next answer. */
function scripted(answers: (() => Response)[]) {
  const calls: RequestInit[] = [];
  const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(init ?? {});
    const next = answers.shift();
    if (!next) return new Promise<Response>(() => {});
    return next();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

/** An event stream that sends `text`, then ends (or, `open`, stays open as a live one does). */
const stream = (text: string, open = false) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text));
        if (!open) controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );

describe('watchEvents', () => {
  afterEach(() => vi.useRealTimers());

  it('hands on events, reads again after a reconnection, and sends the token when asked', async () => {
    vi.useFakeTimers();
    const heard: LiveEvent[] = [];
    const { fetch, calls } = scripted([
      () => stream('retry: 100\nevent: ready\ndata: {}\n\nevent: match\ndata: {"tournamentId":"t","matchId":"m"}\n\n'),
      () => stream('event: ready\ndata: {}\n\n'),
    ]);
    const stop = watchEvents('/users/me/events', (e) => heard.push(e), { fetch, token: () => 'secret' });
    await vi.advanceTimersByTimeAsync(50);
    expect(heard).toEqual([{ kind: 'match', tournamentId: 't', matchId: 'm' }]);
    expect(calls[0]!.headers).toMatchObject({ authorization: 'Bearer secret' });
    // The first stream ended: it reconnects after the server's retry, and the page reads again.
    await vi.advanceTimersByTimeAsync(150);
    expect(heard.at(-1)).toEqual({ kind: 'resync' });
    stop();
  });

  it('falls back to the 5 s poll while the stream is refused, and stops polling once it opens', async () => {
    vi.useFakeTimers();
    const heard: string[] = [];
    const busy = () => new Response('{"message":"x"}', { status: 503 });
    const { fetch } = scripted([busy, busy, () => stream('event: ready\ndata: {}\n\n', true)]);
    const stop = watchEvents('/tournaments/t/events', (e) => heard.push(e.kind), { fetch });
    await vi.advanceTimersByTimeAsync(POLL_MS + 10);
    expect(heard).toEqual(['poll']);
    // Refused again at 3 s, it tries at 9 s: the stream is open, and the poll stopped.
    await vi.advanceTimersByTimeAsync(9000 - POLL_MS);
    expect(fetch).toHaveBeenCalledTimes(3);
    const polled = heard.length;
    await vi.advanceTimersByTimeAsync(3 * POLL_MS);
    expect(heard).toHaveLength(polled);
    stop();
  });

  it('polls without retrying when the tournament is unknown', async () => {
    vi.useFakeTimers();
    const heard: string[] = [];
    const { fetch } = scripted([() => new Response('{"message":"x"}', { status: 404 })]);
    const stop = watchEvents('/tournaments/t/events', (e) => heard.push(e.kind), { fetch });
    await vi.advanceTimersByTimeAsync(2 * POLL_MS + 10);
    expect(heard).toEqual(['poll', 'poll']);
    expect(fetch).toHaveBeenCalledTimes(1);
    stop();
  });
});

describe('watchUser', () => {
  afterEach(() => {
    vi.useRealTimers();
    $token.set('');
  });

  it('opens nothing for a guest', () => {
    const { fetch } = scripted([]);
    const stop = watchUser(() => {}, { fetch });
    expect(fetch).not.toHaveBeenCalled();
    stop();
  });

  it('shares one stream among a page’s listeners, keeps the fallback poll from those with a clock of their own, and closes with the last', async () => {
    vi.useFakeTimers();
    $token.set('secret');
    const busy = () => new Response('{"message":"x"}', { status: 503 });
    const { fetch, calls } = scripted([() => stream('event: ready\ndata: {}\n\nevent: team\ndata: {"userId":"u"}\n\n'), busy, busy, busy]);
    const bell: string[] = [];
    const teamTab: string[] = [];
    const stopBell = watchUser((e) => bell.push(e.kind), { fetch });
    const stopTeam = watchUser((e) => teamTab.push(e.kind), { fetch, pollMs: null });
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toHaveLength(1);
    expect(bell).toEqual(['team']);
    expect(teamTab).toEqual(['team']);
    // The stream ended and is refused: the bell hears the 5 s poll, the team tab (its own 6 s clock) does not.
    await vi.advanceTimersByTimeAsync(POLL_MS + 10);
    expect(bell).toContain('poll');
    expect(teamTab).toEqual(['team']);
    stopBell();
    stopTeam();
    const asked = calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(asked);
  });
  it('gives a match chat’s message (issue 58) only to a listener that asks for it, not to the bell or the team tab', async () => {
    vi.useFakeTimers();
    $token.set('secret');
    const { fetch } = scripted([
      () => stream('event: ready\ndata: {}\n\nevent: matchChat\ndata: {"userId":"u","matchId":"m"}\n\nevent: notification\ndata: {"userId":"u"}\n\n', true),
    ]);
    const bell: string[] = [];
    const room: LiveEvent[] = [];
    const stopBell = watchUser((e) => bell.push(e.kind), { fetch });
    const stopRoom = watchUser((e) => room.push(e), { fetch, kinds: ['matchChat'] });
    await vi.advanceTimersByTimeAsync(50);
    expect(bell).toEqual(['notification']);
    expect(room).toEqual([
      { kind: 'matchChat', userId: 'u', matchId: 'm' },
      { kind: 'notification', userId: 'u' },
    ]);
    stopBell();
    stopRoom();
  });
});
