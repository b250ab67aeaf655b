import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { images, users } from '../../src/server/db/schema/index.ts';
import { useTestApi } from '../support/builders.ts';

const api = useTestApi();
const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();

/** A real PNG whose header claims width × height (with a valid checksum). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const file = Buffer.from(await png(4, 4));
  file.writeUInt32BE(width, 16);
  file.writeUInt32BE(height, 20);
  file.writeUInt32BE(crc32(file.subarray(12, 29)), 29);
  return file;
}

async function upload(token: string, body: Buffer | string, name = 'avatar.png', type = 'image/png') {
  const form = new FormData();
  form.set('avatar', new Blob([typeof body === 'string' ? body : new Uint8Array(body)], { type }), name);
  const response = await api.app.request('/api/cabinet/me', { method: 'PUT', body: form, headers: { authorization: `Bearer ${token}` } }, { clientAddress: '203.0.113.5' });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const imageCount = async () => (await api.db.select({ n: count() }).from(images))[0]?.n ?? 0;

describe('cabinet', () => {
  it('shows the signed-in user with team and captain flag, and refuses guests', async () => {
    const { token, user } = await api.signedIn();
    const me = await api.call('GET', '/api/cabinet/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ _id: user.id, username: user.username, myTeam: null, isCaptain: false, pendingEmail: null });
    expect(me.body.avatar).toBe(`/api/avatar/${user.id}`);
    expect((await api.call('GET', '/api/cabinet/me')).status).toBe(401);
  });

  it('changes the nickname, refusing one another player has (any case)', async () => {
    const other = await api.signedIn('user', 'TakenName');
    const { token } = await api.signedIn();
    const taken = await api.call('PUT', '/api/cabinet/me', { token, body: { username: 'takenname' } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Цей нікнейм уже зайнятий');
    const ok = await api.call<{ message: string; user: { username: string } }>('PUT', '/api/cabinet/me', { token, body: { username: 'Новий_Нік' } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.username).toBe('Новий_Нік');
    expect(ok.body.message).toBe('Профіль оновлено!');
    expect(other.user.username).toBe('TakenName');
  });

  it('keeps the old email until the new one is confirmed', async () => {
    const { token, user } = await api.signedIn();
    const res = await api.call<{ message: string; user: { email: string; pendingEmail: string } }>('PUT', '/api/cabinet/me', {
      token,
      body: { email: 'fresh@example.test' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: user.email, pendingEmail: 'fresh@example.test' });
    expect(res.body.message).toContain('fresh@example.test');
    const confirm = await api.call('GET', `/api/auth/confirm?token=${api.letterToken('fresh@example.test')}`);
    expect(confirm.status).toBe(200);
    const me = await api.call('GET', '/api/cabinet/me', { token });
    expect(me.body).toMatchObject({ email: 'fresh@example.test', pendingEmail: null });
  });

  it('answers an address another account has exactly as a free one, and tells that address instead of mailing a link', async () => {
    const other = await api.signedIn();
    const { token } = await api.signedIn();
    const free = await api.signedIn();
    const taken = await api.call<{ message: string; user: Record<string, unknown> }>('PUT', '/api/cabinet/me', { token, body: { email: other.user.email.toUpperCase() } });
    const open = await api.call<{ message: string; user: Record<string, unknown> }>('PUT', '/api/cabinet/me', { token: free.token, body: { email: 'nobody-has-this@example.test' } });
    expect(taken.status).toBe(open.status);
    expect(Object.keys(taken.body.user).sort()).toEqual(Object.keys(open.body.user).sort());
    expect(taken.body.message).toBe(open.body.message.replace('nobody-has-this@example.test', other.user.email.toUpperCase()));
    const letter = api.outbox.findLast((l) => l.to.toLowerCase() === other.user.email.toLowerCase());
    expect(letter?.subject).toBe('Хтось спробував використати вашу пошту на Кіберарені');
    expect(letter?.link).toBe('https://arena.test/login');
    // Nothing about the other account changed, and no token can move the address.
    expect((await api.call('GET', '/api/cabinet/me', { token: other.token })).body).toMatchObject({ email: other.user.email });
  });

  it('sends at most five address-change letters in 15 minutes, however fast they are asked for', async () => {
    const { token } = await api.signedIn();
    const before = api.outbox.length;
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => api.call('PUT', '/api/cabinet/me', { token, body: { email: `cannon${i}@example.test` } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.find((r) => r.status === 429);
    expect(refused?.body.message).toMatch(/^Забагато спроб\. Спробуйте знову через \d+ хвилин/);
    expect(refused?.headers.get('retry-after')).toBeTruthy();
    expect(api.outbox.length - before).toBe(5);
    // One inbox gets at most five, whoever asks.
    const victim = 'victim@example.test';
    for (let i = 0; i < 7; i++) {
      const sender = await api.signedIn();
      await api.call('PUT', '/api/cabinet/me', { token: sender.token, body: { email: victim } });
    }
    expect(api.outbox.filter((l) => l.to === victim)).toHaveLength(5);
  });

  it('refuses an empty change', async () => {
    const { token } = await api.signedIn();
    const nothing = await api.call('PUT', '/api/cabinet/me', { token, body: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe('Немає змін для збереження');
    expect((await api.call('PUT', '/api/cabinet/me', { token, body: { email: 'not-mail' } })).status).toBe(400);
  });
});

describe('avatar uploads', () => {
  it('stores a PNG re-encoded as a 256 px WebP and serves it with a cacheable, versioned URL', async () => {
    const { token, user } = await api.signedIn();
    const res = await upload(token, await png(300, 200));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Аватар збережено!');
    const avatar = (res.body.user as { avatar: string }).avatar;
    expect(avatar).toMatch(new RegExp(`^/api/avatar/${user.id}\\?v=[0-9a-f-]{36}$`));

    const served = await api.app.request(avatar);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);

    const etag = served.headers.get('etag') ?? '';
    const again = await api.app.request(avatar, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('replaces the previous picture instead of piling them up', async () => {
    const { token } = await api.signedIn();
    await upload(token, await png());
    const before = await imageCount();
    await upload(token, await png(80, 80));
    expect(await imageCount()).toBe(before);
  });

  it('refuses text renamed to .png, an oversized file and a huge pixel count, storing nothing', async () => {
    const { token, user } = await api.signedIn();
    const before = await imageCount();
    const text = await upload(token, 'definitely not a picture', 'evil.png');
    expect(text.status).toBe(415);
    expect(text.body.message).toBe('Файл має бути зображенням PNG, JPEG, WebP або GIF');
    const big = await upload(token, Buffer.alloc(5 * 1024 * 1024, 1));
    expect(big.status).toBe(413);
    const huge = await upload(token, await pngClaiming(20_000, 20_000));
    expect(huge.status).toBe(400);
    const svg = await upload(token, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'a.svg', 'image/svg+xml');
    expect(svg.status).toBe(415);
    expect(await imageCount()).toBe(before);
    const [row] = await api.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.avatarImageId).toBeNull();
  });

  it('serves a generated avatar when nothing was uploaded, and 404 for nobody', async () => {
    const { user } = await api.signedIn();
    const res = await api.app.request(`/api/avatar/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(await res.text()).toMatch(/^<svg/);
    expect((await api.call('GET', '/api/avatar/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api.call('GET', '/api/avatar/nope')).status).toBe(400);
  });
});

describe('password change', () => {
  it('needs the old password, then signs out the other sessions and keeps this one', async () => {
    const { token, user, password } = await api.signedIn();
    const second = await api.call<{ token: string }>('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password } });
    const wrong = await api.call('PUT', '/api/cabinet/me/password', { token, body: { oldPassword: 'not-it', newPassword: 'brand-new-pass' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('Помилка зміни паролю');
    const short = await api.call('PUT', '/api/cabinet/me/password', { token, body: { oldPassword: password, newPassword: 'short' } });
    expect(short.status).toBe(400);
    const missing = await api.call('PUT', '/api/cabinet/me/password', { token, body: { newPassword: 'brand-new-pass' } });
    expect(missing.body.message).toBe('Поле «Старий пароль» обовʼязкове');

    const ok = await api.call('PUT', '/api/cabinet/me/password', { token, body: { oldPassword: password, newPassword: 'brand-new-pass' } });
    expect(ok.status).toBe(200);
    expect((await api.call('GET', '/api/users/me', { token })).status).toBe(200);
    expect((await api.call('GET', '/api/users/me', { token: second.body.token })).status).toBe(401);
    const oldLogin = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip: '198.51.100.77' });
    expect(oldLogin.status).toBe(401);
    const newLogin = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password: 'brand-new-pass' }, ip: '198.51.100.77' });
    expect(newLogin.status).toBe(200);
  });
});
