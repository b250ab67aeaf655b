import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NewsItem } from '../../src/lib/api/news.ts';
import { news } from '../../src/server/db/schema/index.ts';
import { useTestApi } from '../support/builders.ts';

const api = useTestApi();
let admin: { token: string };
let player: { token: string };
let otherPlayer: { token: string };

beforeAll(async () => {
  admin = await api.signedIn('admin');
  player = await api.signedIn('user');
  otherPlayer = await api.signedIn('user');
});

/** Publishes a news item as the admin and returns it. */
async function publish(body: Record<string, unknown> = {}): Promise<NewsItem> {
  const res = await api.call<NewsItem>('POST', '/api/news', {
    token: admin.token,
    body: { title: `Новина ${randomUUID().slice(0, 8)}`, content: 'Текст новини.', ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe('reading news', () => {
  it('lists current and archived news for guests, newest first, each with its archived flag', async () => {
    const older = await publish({ title: 'Старіша' });
    const archived = await publish({ title: 'Архівна', archived: true });
    const newer = await publish({ title: 'Новіша' });
    const res = await api.call<NewsItem[]>('GET', '/api/news');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const ids = res.body.map((n) => n._id);
    expect(ids.indexOf(newer._id)).toBeLessThan(ids.indexOf(archived._id));
    expect(ids.indexOf(archived._id)).toBeLessThan(ids.indexOf(older._id));
    const item = res.body.find((n) => n._id === archived._id);
    expect(item).toEqual({
      _id: archived._id,
      title: 'Архівна',
      content: 'Текст новини.',
      imageUrl: null,
      link: null,
      archived: true,
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('filters by ?archived=true|false and refuses other values', async () => {
    const current = await api.call<NewsItem[]>('GET', '/api/news?archived=false');
    const archive = await api.call<NewsItem[]>('GET', '/api/news?archived=true');
    expect(current.body.length).toBeGreaterThan(0);
    expect(archive.body.length).toBeGreaterThan(0);
    expect(current.body.every((n) => !n.archived)).toBe(true);
    expect(archive.body.every((n) => n.archived)).toBe(true);
    expect((await api.call('GET', '/api/news?archived=maybe')).status).toBe(400);
  });

  it('comes in pages of at most 100, newest first, with a Link to the next page', async () => {
    for (let i = 0; i < 4; i++) await publish();
    const all = (await api.call<NewsItem[]>('GET', '/api/news?archived=false')).body;
    const first = await api.call<NewsItem[]>('GET', '/api/news?archived=false&limit=2');
    expect(first.body).toEqual(all.slice(0, 2));
    expect(first.headers.get('link')).toBe('</api/news?archived=false&limit=2&offset=2>; rel="next"');
    const last = await api.call<NewsItem[]>('GET', `/api/news?archived=false&limit=2&offset=${all.length - 2}`);
    expect(last.body).toEqual(all.slice(-2));
    expect(last.headers.get('link')).toBeNull();

    await api.db.insert(news).values(Array.from({ length: 101 }, (_, i) => ({ title: `Стара ${i}`, content: 'Текст.', date: new Date(Date.UTC(2001, 0, 1, i)) })));
    const capped = await api.call<NewsItem[]>('GET', '/api/news');
    expect(capped.body).toHaveLength(100);
    expect(capped.headers.get('link')).toBe('</api/news?offset=100>; rel="next"');
    const rest = await api.call<NewsItem[]>('GET', '/api/news?offset=100');
    expect(rest.body.at(-1)?.title).toBe('Стара 0');
    expect(new Set([...capped.body, ...rest.body].map((n) => n._id)).size).toBe(capped.body.length + rest.body.length);

    for (const query of ['limit=0', 'limit=101', 'limit=1.5', 'limit=lots', 'limit=', 'offset=-1', 'offset=lots']) {
      const res = await api.call('GET', `/api/news?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(/[А-ЯІЇЄҐа-яіїєґ]/);
    }
  });

  it('shows one news item by id; a bad id is 400 and an unknown one 404', async () => {
    const item = await publish();
    const res = await api.call<NewsItem>('GET', `/api/news/${item._id}`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe(item.title);
    const bad = await api.call('GET', '/api/news/not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Некоректний ідентифікатор');
    const missing = await api.call('GET', `/api/news/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Новину не знайдено');
  });
});

describe('publishing news', () => {
  it('lets an admin publish with image and link; text is trimmed, empty addresses mean none', async () => {
    const res = await api.call<NewsItem>('POST', '/api/news', {
      token: admin.token,
      body: { title: '  Відкрито реєстрацію  ', content: '\n Перший абзац.\n\nДругий. \n', imageUrl: '/news/1.jpg', link: 'https://example.com/a?b=1' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Відкрито реєстрацію',
      content: 'Перший абзац.\n\nДругий.',
      imageUrl: '/news/1.jpg',
      link: 'https://example.com/a?b=1',
      archived: false,
    });
    const empty = await publish({ imageUrl: '', link: null });
    expect(empty).toMatchObject({ imageUrl: null, link: null });
  });

  it('refuses guests with 401 and players with 403, before looking at the body', async () => {
    const body = { title: 'Моя новина', content: 'Текст' };
    const guest = await api.call('POST', '/api/news', { body });
    expect(guest.status).toBe(401);
    expect(guest.body.message).toBe('Потрібно увійти');
    const user = await api.call('POST', '/api/news', { token: player.token, body });
    expect(user.status).toBe(403);
    expect(user.body.message).toBe('Доступ лише для адміністратора');
    expect((await api.call('POST', '/api/news', { token: player.token, body: {} })).status).toBe(403);
    expect((await api.call('POST', '/api/news', { body: {} })).status).toBe(401);
    const list = await api.call<NewsItem[]>('GET', '/api/news');
    expect(list.body.some((n) => n.title === 'Моя новина')).toBe(false);
  });

  it('requires title and content', async () => {
    const noTitle = await api.call('POST', '/api/news', { token: admin.token, body: { content: 'Текст' } });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.message).toBe('Поле «Назва» обовʼязкове');
    const blankContent = await api.call('POST', '/api/news', { token: admin.token, body: { title: 'Назва', content: '   \n ' } });
    expect(blankContent.status).toBe(400);
    expect(blankContent.body.message).toBe('Поле «Текст» обовʼязкове');
  });

  it('caps lengths: title 200, content 20 000, addresses 2048', async () => {
    const hugeTitle = await api.call('POST', '/api/news', { token: admin.token, body: { title: 'Я'.repeat(201), content: 'Текст' } });
    expect(hugeTitle.status).toBe(400);
    expect(hugeTitle.body.message).toBe('Поле «Назва» задовге (не більше 200 символів)');
    const hugeContent = await api.call('POST', '/api/news', { token: admin.token, body: { title: 'Назва', content: 'a'.repeat(20_001) } });
    expect(hugeContent.status).toBe(400);
    expect(hugeContent.body.message).toBe('Поле «Текст» задовге (не більше 20000 символів)');
    const longUrl = await api.call('POST', '/api/news', {
      token: admin.token,
      body: { title: 'Назва', content: 'Текст', link: `https://example.com/${'a'.repeat(2040)}` },
    });
    expect(longUrl.status).toBe(400);
    await publish({ title: 'Я'.repeat(200), content: 'a'.repeat(20_000) });
  });

  it.each([
    ['javascript:alert(1)'],
    ['JavaScript:alert(document.cookie)'],
    [' javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['//evil.example/x'],
    ['/\\evil.example'],
    ['ftp://example.com/file'],
    ['vbscript:msgbox(1)'],
    ['news/1.jpg'],
    ['https://exa mple.com'],
  ])('refuses the unsafe address %j as link and as image', async (url) => {
    for (const field of ['link', 'imageUrl']) {
      const res = await api.call('POST', '/api/news', { token: admin.token, body: { title: 'Назва', content: 'Текст', [field]: url } });
      expect(res.status, field).toBe(400);
      expect(res.body.message).toMatch(/^Поле «(Посилання|Зображення)» має містити адресу http\(s\)/);
    }
  });

  it('refuses wrong types and malformed JSON without changing anything', async () => {
    const wrongType = await api.call('POST', '/api/news', { token: admin.token, body: { title: 'Назва', content: 'Текст', archived: 'yes' } });
    expect(wrongType.status).toBe(400);
    const malformed = await api.call('POST', '/api/news', { token: admin.token, raw: '{"title":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('Тіло запиту має бути коректним JSON');
  });
});

describe('editing and deleting news', () => {
  it('lets an admin edit fields and move a news item to the archive and back; its date stays', async () => {
    const item = await publish({ link: 'https://example.com' });
    const edited = await api.call<NewsItem>('PUT', `/api/news/${item._id}`, {
      token: admin.token,
      body: { title: 'Нова назва', content: 'Новий текст', link: '' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ _id: item._id, title: 'Нова назва', content: 'Новий текст', link: null, archived: false, date: item.date });

    const archived = await api.call<NewsItem>('PUT', `/api/news/${item._id}`, { token: admin.token, body: { archived: true } });
    expect(archived.body).toMatchObject({ title: 'Нова назва', archived: true });
    const archive = await api.call<NewsItem[]>('GET', '/api/news?archived=true');
    expect(archive.body.map((n) => n._id)).toContain(item._id);
    const current = await api.call<NewsItem[]>('GET', '/api/news?archived=false');
    expect(current.body.map((n) => n._id)).not.toContain(item._id);

    const restored = await api.call<NewsItem>('PUT', `/api/news/${item._id}`, { token: admin.token, body: { archived: false } });
    expect(restored.body.archived).toBe(false);
  });

  it('validates edits like new news and refuses unsafe links', async () => {
    const item = await publish();
    expect((await api.call('PUT', `/api/news/${item._id}`, { token: admin.token, body: { title: '' } })).status).toBe(400);
    expect((await api.call('PUT', `/api/news/${item._id}`, { token: admin.token, body: { link: 'javascript:alert(1)' } })).status).toBe(400);
    expect((await api.call('PUT', `/api/news/${item._id}`, { token: admin.token, body: { title: 'x'.repeat(201) } })).status).toBe(400);
    const unchanged = await api.call<NewsItem>('GET', `/api/news/${item._id}`);
    expect(unchanged.body).toEqual(item);
  });

  it('refuses edits and deletions from guests (401) and players (403)', async () => {
    const item = await publish();
    expect((await api.call('PUT', `/api/news/${item._id}`, { body: { archived: true } })).status).toBe(401);
    expect((await api.call('PUT', `/api/news/${item._id}`, { token: player.token, body: { archived: true } })).status).toBe(403);
    expect((await api.call('DELETE', `/api/news/${item._id}`)).status).toBe(401);
    expect((await api.call('DELETE', `/api/news/${item._id}`, { token: player.token })).status).toBe(403);
    expect((await api.call<NewsItem>('GET', `/api/news/${item._id}`)).body).toEqual(item);
  });

  it('answers 400 for bad ids and 404 for unknown ones', async () => {
    expect((await api.call('PUT', '/api/news/123', { token: admin.token, body: { archived: true } })).status).toBe(400);
    expect((await api.call('DELETE', '/api/news/123', { token: admin.token })).status).toBe(400);
    const missingPut = await api.call('PUT', `/api/news/${randomUUID()}`, { token: admin.token, body: { archived: true } });
    expect(missingPut.status).toBe(404);
    const missingDelete = await api.call('DELETE', `/api/news/${randomUUID()}`, { token: admin.token });
    expect(missingDelete.status).toBe(404);
    expect(missingDelete.body.message).toBe('Новину не знайдено');
  });

  it('deletes a news item, and with it every saved mark', async () => {
    const item = await publish();
    await api.call('POST', `/api/news/saved/${item._id}`, { token: player.token });
    const res = await api.call('DELETE', `/api/news/${item._id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Новину видалено');
    expect((await api.call('GET', `/api/news/${item._id}`)).status).toBe(404);
    const saved = await api.call<string[]>('GET', '/api/news/saved', { token: player.token });
    expect(saved.body).not.toContain(item._id);
  });
});

describe('saved news', () => {
  it('needs a signed-in user', async () => {
    const item = await publish();
    expect((await api.call('GET', '/api/news/saved')).status).toBe(401);
    expect((await api.call('GET', '/api/news/saved/items')).status).toBe(401);
    expect((await api.call('POST', `/api/news/saved/${item._id}`)).status).toBe(401);
    expect((await api.call('DELETE', `/api/news/saved/${item._id}`)).status).toBe(401);
    expect((await api.call('POST', '/api/news/saved/not-an-id')).status).toBe(401);
  });

  it('saves and removes idempotently, and keeps each user’s list to themselves', async () => {
    const first = await publish();
    const second = await publish({ archived: true });
    for (let i = 0; i < 2; i++) {
      expect((await api.call('POST', `/api/news/saved/${first._id}`, { token: player.token })).status).toBe(200);
    }
    expect((await api.call('POST', `/api/news/saved/${second._id}`, { token: player.token })).status).toBe(200);

    const mine = await api.call<string[]>('GET', '/api/news/saved', { token: player.token });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(mine.body.sort()).toEqual([first._id, second._id].sort());
    const theirs = await api.call<string[]>('GET', '/api/news/saved', { token: otherPlayer.token });
    expect(theirs.body).toEqual([]);
    // The Saved view reads the items themselves, current and archived, newest first.
    const items = await api.call<NewsItem[]>('GET', '/api/news/saved/items', { token: player.token });
    expect(items.headers.get('cache-control')).toBe('private, no-store');
    expect(items.body).toHaveLength(2);
    expect(items.body).toEqual(expect.arrayContaining([first, second]));
    expect(Date.parse(items.body[0]!.date)).toBeGreaterThanOrEqual(Date.parse(items.body[1]!.date));
    expect((await api.call<NewsItem[]>('GET', '/api/news/saved/items', { token: otherPlayer.token })).body).toEqual([]);

    // Another user removing it from their own list changes nothing in mine.
    expect((await api.call('DELETE', `/api/news/saved/${first._id}`, { token: otherPlayer.token })).status).toBe(200);
    expect((await api.call<string[]>('GET', '/api/news/saved', { token: player.token })).body).toContain(first._id);

    for (let i = 0; i < 2; i++) {
      expect((await api.call('DELETE', `/api/news/saved/${first._id}`, { token: player.token })).status).toBe(200);
    }
    expect((await api.call<string[]>('GET', '/api/news/saved', { token: player.token })).body).toEqual([second._id]);
  });

  it('answers 400 for a bad id and 404 for unknown news', async () => {
    expect((await api.call('POST', '/api/news/saved/xyz', { token: player.token })).status).toBe(400);
    expect((await api.call('DELETE', '/api/news/saved/xyz', { token: player.token })).status).toBe(400);
    const missing = await api.call('POST', `/api/news/saved/${randomUUID()}`, { token: player.token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Новину не знайдено');
    expect((await api.call('DELETE', `/api/news/saved/${randomUUID()}`, { token: player.token })).status).toBe(404);
  });
});
