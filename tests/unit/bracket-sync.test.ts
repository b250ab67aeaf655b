import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBracketSync } from '../../src/islands/bracket/sync.ts';
import { POLL_MS } from '../../src/lib/hooks/poll-while-visible.ts';
import { createApiClient } from '../../src/lib/api/client.ts';
import { announceOnPage } from '../../src/lib/live/events.ts';
import { createBracket, setResult, type Bracket } from '../../src/lib/domain/bracket.ts';

const ID = '11111111-1111-4111-8111-111111111111';
const participants = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ _id: id, name: id.toUpperCase(), image: null, type: 'user' as const }));

/**
 * A stand-in for the bracket API (GET with ETag and 304, PATCH with version and 409, POST),
 * behind a fake fetch: the sync is tested without a server or a browser.
 */
function fakeApi(initial: Bracket) {
  const server = { bracket: initial, version: 1 };
  const seen: { method: string; ifNoneMatch: string | null; body: unknown; cache: RequestCache }[] = [];
  let answerNext: ((request: Request) => Response | Promise<Response>) | null = null;
  const etag = () => `"bracket-${ID}-v${server.version}"`;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', etag: etag() } });
  const state = () => ({ tournament: ID, bracket: server.bracket, version: server.version, participants, soloOnly: true });

  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = request.method === 'GET' ? undefined : await request.clone().json();
    seen.push({ method: request.method, ifNoneMatch: request.headers.get('if-none-match'), body, cache: request.cache });
    if (answerNext) {
      const answer = answerNext;
      answerNext = null;
      return answer(request);
    }
    if (request.method === 'GET') {
      if (request.headers.get('if-none-match') === etag()) return new Response(null, { status: 304, headers: { etag: etag() } });
      return json(state());
    }
    if (request.method === 'PATCH') {
      const { bracket, version } = body as { bracket: Bracket; version?: number };
      if (version !== undefined && version !== server.version) return json({ ...state(), message: 'Сітку вже змінив інший адміністратор. Показано новішу версію.' }, 409);
      Object.assign(server, { bracket, version: server.version + 1 });
      return json({ ...state(), message: 'Сітку оновлено!' });
    }
    Object.assign(server, { bracket: createBracket(participants.map((p) => p._id)), version: server.version + 1 });
    return json({ ...state(), message: 'Сітку створено для 4 учасників!' }, 201);
  };

  return {
    api: createApiClient({ baseUrl: 'http://test.local/api', fetch }),
    server,
    seen,
    /** Another admin's save, straight into the "database". */
    otherAdminSaves(bracket: Bracket) {
      Object.assign(server, { bracket, version: server.version + 1 });
    },
    answerNextWith(answer: (request: Request) => Response | Promise<Response>) {
      answerNext = answer;
    },
  };
}

const fresh = createBracket(['p1', 'p2', 'p3', 'p4']);

async function loaded(initial: Bracket = fresh) {
  const fake = fakeApi(initial);
  const sync = createBracketSync(fake.api, ID);
  await sync.poll();
  return { fake, sync };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('polling the bracket', () => {
  it('loads it, then asks with the ETag and keeps its copy on a 304', async () => {
    const { fake, sync } = await loaded();
    expect(sync.$state.get()).toMatchObject({ status: 'ready', notice: null, data: { bracket: fresh, version: 1 } });
    await sync.poll();
    expect(fake.seen.map((r) => r.ifNoneMatch)).toEqual([null, `"bracket-${ID}-v1"`]);
    expect(sync.$state.get().data?.version).toBe(1);
  });

  it('replaces its copy with the server’s newer one and says another admin updated it', async () => {
    const { fake, sync } = await loaded();
    const theirs = setResult(fresh, 0, 0, 'p1');
    fake.otherAdminSaves(theirs);
    await sync.poll();
    expect(sync.$state.get()).toMatchObject({ data: { bracket: theirs, version: 2 }, notice: { tone: 'info', text: 'Сітку оновлено іншим адміністратором' } });
  });

  it('keeps what is shown when a poll fails (only logged)', async () => {
    const { fake, sync } = await loaded();
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.answerNextWith(() => new Response('down', { status: 503 }));
    await sync.poll();
    expect(sync.$state.get()).toMatchObject({ status: 'ready', data: { version: 1 }, notice: null });
    expect(log).toHaveBeenCalledOnce();
  });
});

describe('saving the bracket', () => {
  it('sends the version it was based on and shows the server’s answer, not announced as someone else’s', async () => {
    const { fake, sync } = await loaded();
    const mine = setResult(fresh, 0, 1, 'p4');
    expect(await sync.save(mine)).toBe(true);
    expect(fake.seen.at(-1)).toMatchObject({ method: 'PATCH', body: { bracket: mine, version: 1 } });
    expect(sync.$state.get()).toMatchObject({ busy: false, data: { bracket: mine, version: 2 }, notice: { tone: 'success', text: 'Сітку оновлено!' } });
    sync.dismiss();
    await sync.poll();
    expect(sync.$state.get().notice).toBeNull();
  });

  it('answered 409, shows the newer bracket with the server’s message, so no update is lost', async () => {
    const { fake, sync } = await loaded();
    const theirs = setResult(fresh, 0, 0, 'p2');
    fake.otherAdminSaves(theirs);
    expect(await sync.save(setResult(fresh, 0, 1, 'p3'))).toBe(false);
    expect(fake.server).toMatchObject({ bracket: theirs, version: 2 });
    expect(sync.$state.get()).toMatchObject({
      data: { bracket: theirs, version: 2 },
      notice: { tone: 'error', text: 'Сітку вже змінив інший адміністратор. Показано новішу версію.' },
    });
  });

  it('reverts to the last server copy when a save fails, with the server’s message or «Помилка збереження сітки»', async () => {
    const { fake, sync } = await loaded();
    fake.answerNextWith(() => new Response(JSON.stringify({ message: 'Раунд 1, матч 1: переможцем може бути лише один з учасників матчу' }), { status: 422, headers: { 'content-type': 'application/json' } }));
    expect(await sync.save(setResult(fresh, 0, 0, 'p1'))).toBe(false);
    expect(sync.$state.get()).toMatchObject({ data: { bracket: fresh, version: 1 }, notice: { tone: 'error', text: /^Раунд 1, матч 1/ } });

    fake.answerNextWith(() => Promise.reject(new TypeError('offline')));
    expect(await sync.save(setResult(fresh, 0, 0, 'p1'))).toBe(false);
    expect(sync.$state.get()).toMatchObject({ data: { bracket: fresh }, notice: { text: 'Помилка збереження сітки' } });
  });

  it('shows the edit at once while it is on its way', async () => {
    const { fake, sync } = await loaded();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const mine = setResult(fresh, 0, 0, 'p1');
    fake.answerNextWith(async () => {
      await held;
      return new Response(JSON.stringify({ message: 'Сітку оновлено!', tournament: ID, bracket: mine, version: 2, participants, soloOnly: true }), {
        headers: { 'content-type': 'application/json' },
      });
    });
    const saving = sync.save(mine);
    await vi.waitFor(() => expect(fake.seen).toHaveLength(2));
    expect(sync.$state.get()).toMatchObject({ busy: true, data: { bracket: mine } });
    release();
    await saving;
    expect(sync.$state.get().busy).toBe(false);
  });

  it('drops a poll that raced its own save, so that save is never taken for another admin’s', async () => {
    const { fake, sync } = await loaded();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const mine = setResult(fresh, 0, 0, 'p1');
    // The poll leaves first and is answered with the old bracket, but that answer lands after the save.
    fake.answerNextWith(async () => {
      await held;
      return new Response(JSON.stringify({ tournament: ID, bracket: fresh, version: 1, participants, soloOnly: true }), {
        headers: { 'content-type': 'application/json', etag: `"bracket-${ID}-v1"` },
      });
    });
    const polling = sync.poll();
    await sync.save(mine);
    sync.dismiss();
    release();
    await polling;
    expect(sync.$state.get()).toMatchObject({ data: { bracket: mine, version: 2 }, notice: null });
  });
});

describe('creating the bracket', () => {
  it('shows the new bracket with «Сітку створено для N учасників!»', async () => {
    const { fake, sync } = await loaded([]);
    expect(await sync.create('standard', false)).toBe('created');
    expect(fake.seen.at(-1)).toMatchObject({ method: 'POST', body: { seeding: 'standard', replace: false } });
    expect(sync.$state.get()).toMatchObject({ data: { version: 2, bracket: fresh }, notice: { tone: 'success', text: 'Сітку створено для 4 учасників!' } });
  });

  it('asks for confirmation when the server will not draw over results, and shows §5 messages', async () => {
    const { fake, sync } = await loaded();
    const refuse = (status: number, message: string) => () =>
      new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json' } });
    fake.answerNextWith(refuse(409, 'Сітка вже має результати. Підтвердіть, що створюєте її заново.'));
    expect(await sync.create('order', false)).toBe('needsReplace');
    fake.answerNextWith(refuse(422, 'Потрібно щонайменше 2 учасники для створення сітки'));
    expect(await sync.create('order', true)).toBe('failed');
    expect(sync.$state.get().notice).toEqual({ tone: 'error', text: 'Потрібно щонайменше 2 учасники для створення сітки' });
    fake.answerNextWith(() => Promise.reject(new TypeError('offline')));
    await sync.create('order', true);
    expect(sync.$state.get().notice?.text).toBe('Помилка створення сітки');
  });
});

describe('watching', () => {
  it('polls every 5000 ms while the tab is visible, stops while hidden and when closed', async () => {
    vi.useFakeTimers();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    vi.stubGlobal('document', doc);
    const fake = fakeApi(fresh);
    const sync = createBracketSync(fake.api, ID);
    const stop = sync.watch();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(POLL_MS * 2);
    expect(fake.seen).toHaveLength(3);

    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(fake.seen).toHaveLength(3);

    // Back on the tab: at once, then on the beat again.
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.seen).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(fake.seen).toHaveLength(5);

    stop();
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(fake.seen).toHaveLength(5);
    expect(fake.seen.slice(1).every((r) => r.ifNoneMatch === `"bracket-${ID}-v1"`)).toBe(true);
  });

  it('reads past the server’s held copy when a live event says the bracket changed, and not on the beat', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
    vi.stubGlobal('window', new EventTarget());
    const fake = fakeApi(fresh);
    const stop = createBracketSync(fake.api, ID).watch();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    announceOnPage({ kind: 'match', tournamentId: ID });
    await vi.advanceTimersByTimeAsync(0);
    stop();
    // The server may hand out an out-of-date copy while it renders a new one (serving/answer-cache.ts): `no-cache` asks past it.
    expect(fake.seen.map((r) => r.cache)).toEqual(['default', 'default', 'no-cache']);
  });
});
