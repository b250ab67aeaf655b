/**
 * Live pages in the browser (issue 22, decision 015): one reader for both event streams,
 * `GET /api/tournaments/{id}/events` and `GET /api/users/me/events` (the latter's sharing and token
 * in `user-events.ts`, so a page with only the tournament's stream, an embed, never reads a token). It reads the stream with
 * `fetch` (EventSource cannot send the bearer token the user stream needs), reconnects with a
 * growing pause, closes while the tab is hidden (a browser keeps only six connections per site),
 * and while no stream is open it falls back to SPEC's 5 s poll: the caller hears `poll` then.
 *
 * Every call of `onChange` means «read again»: an event (`match`, `notification`, …), `resync`
 * (the stream reconnected: events meanwhile may be lost) or `poll` (the fallback's tick).
 */
import { POLL_MS } from '../hooks/poll-while-visible.ts';

export interface LiveEvent {
  kind: string;
  tournamentId?: string;
  matchId?: string;
  version?: number;
  /** The event's own id, the same for every viewer: what a page reads after it is named by it (islands/live). */
  change?: string;
}

const apiBase = import.meta.env.PUBLIC_API_URL ?? '/api';

/** The pause before reconnecting grows from the server's `retry:` to this. */
const MAX_RETRY_MS = 30_000;

/** Splits an SSE text stream into events (`event:` and `data:` lines; comments and ids ignored). */
export function sseParser(onEvent: (name: string, data: string) => void): (chunk: string) => { retry?: number } {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, '\n');
    let retry: number | undefined;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') name = value;
        else if (field === 'data') data.push(value);
        else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
      }
      if (data.length > 0 || name !== 'message') onEvent(name, data.join('\n'));
    }
    return retry === undefined ? {} : { retry };
  };
}

export interface WatchOptions {
  /** Sends the bearer token (the user stream). */
  token?: () => string;
  /** Tests pass their own; the page's `fetch` otherwise. */
  fetch?: typeof fetch;
  /** The fallback poll's period while the stream is down (POLL_MS); null when the caller polls on its own. */
  pollMs?: number | null;
}

/**
 * Watches an event stream at `path` (under the API) and calls `onChange` for each event, on each
 * reconnection (`resync`) and, while the stream is down, every POLL_MS (`poll`). Returns the stop
 * function.
 */
export function watchEvents(path: string, onChange: (event: LiveEvent) => void, options: WatchOptions = {}): () => void {
  const get = options.fetch ?? ((input, init) => fetch(input, init));
  let stopped = false;
  let controller: AbortController | undefined;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  let poller: ReturnType<typeof setInterval> | undefined;
  let retryMs = 3000;
  let failures = 0;
  /** Whether the page already read once through a stream: later openings must read again. */
  let opened = false;

  const pollMs = options.pollMs === undefined ? POLL_MS : options.pollMs;
  const visible = () => typeof document === 'undefined' || document.visibilityState === 'visible';
  const fallback = (on: boolean) => {
    if (on && !poller && pollMs !== null && visible()) poller = setInterval(() => onChange({ kind: 'poll' }), pollMs);
    if (!on && poller) {
      clearInterval(poller);
      poller = undefined;
    }
  };

  const schedule = () => {
    if (stopped || reconnect || !visible()) return;
    fallback(true);
    const wait = Math.min(retryMs * 2 ** Math.min(failures, 4), MAX_RETRY_MS);
    failures++;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      void connect();
    }, wait);
  };

  async function connect(): Promise<void> {
    if (stopped || !visible()) return;
    controller?.abort();
    const mine = (controller = new AbortController());
    const token = options.token?.();
    try {
      const response = await get(`${apiBase}${path}`, {
        headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        cache: 'no-store',
        signal: mine.signal,
      });
      if (!response.ok || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
        await response.body?.cancel().catch(() => {});
        // Not found or not signed in: no reconnection will help; the poll carries on.
        if (response.status === 401 || response.status === 404) fallback(true);
        else schedule();
        return;
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parse = sseParser((name, data) => {
        if (name === 'ready') {
          failures = 0;
          fallback(false);
          if (opened) onChange({ kind: 'resync' });
          opened = true;
          return;
        }
        let event: LiveEvent = { kind: name };
        try {
          event = { ...(JSON.parse(data) as LiveEvent), kind: name };
        } catch {
          // An event without data still means «read again».
        }
        onChange(event);
      });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const { retry } = parse(value);
        if (retry) retryMs = retry;
      }
    } catch {
      if (mine.signal.aborted) return;
    }
    if (mine === controller && !mine.signal.aborted) schedule();
  }

  const onVisibility = () => {
    if (visible()) {
      failures = 0;
      // Hidden, it heard nothing: read what changed, then listen again.
      if (opened) onChange({ kind: 'resync' });
      void connect();
    } else {
      controller?.abort();
      clearTimeout(reconnect);
      reconnect = undefined;
      fallback(false);
    }
  };

  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibility);
  void connect();
  return () => {
    stopped = true;
    controller?.abort();
    clearTimeout(reconnect);
    fallback(false);
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibility);
  };
}

/** A tournament's changes (`GET /api/tournaments/{id}/events`); see `watchEvents`. */
export const watchTournament = (tournamentId: string, onChange: (event: LiveEvent) => void, options?: WatchOptions) =>
  watchEvents(`/tournaments/${tournamentId}/events`, onChange, options);

/** The window event through which a page's live script (islands/live) tells the page's other islands what changed. */
export const PAGE_EVENT = 'live:tournament';

/** Tells the page's islands of an event (`onPageEvent` hears it). */
export const announceOnPage = (event: LiveEvent): void => void window.dispatchEvent(new CustomEvent<LiveEvent>(PAGE_EVENT, { detail: event }));

/**
 * Hears the events of `tournamentId` the page's live script received, without a stream of its
 * own (a browser keeps few connections per site). Returns the stop function.
 */
export function onPageEvent(tournamentId: string, onChange: (event: LiveEvent) => void): () => void {
  if (typeof window === 'undefined') return () => {};
  const listener = (e: Event) => {
    const event = (e as CustomEvent<LiveEvent>).detail;
    // `resync` and `poll` name no tournament: they are about the page's own.
    if (event.tournamentId === tournamentId || event.tournamentId === undefined) onChange(event);
  };
  window.addEventListener(PAGE_EVENT, listener);
  return () => window.removeEventListener(PAGE_EVENT, listener);
}
