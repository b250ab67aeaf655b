import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHARE_CARD_HEIGHT, SHARE_CARD_KINDS, SHARE_CARD_WIDTH, shareCardPath, type ShareCardKind } from '../../src/lib/domain/share-card.ts';
import { SHARE_CARD_DRAWING_LIMIT } from '../../src/server/api/routes/share-cards.ts';
import { databaseLimiter } from '../../src/server/services/rate-limit.ts';
import { MAX_WAITING_DRAWINGS, shareCardStats } from '../../src/server/services/content/share-cards.ts';
import { admin, invitedTeam, player, recordedMatch, stage, statsGame, statsOn, tournament, unique, useTestApi, type Player } from '../support/builders.ts';

// Share cards (issue 23): GET /api/og/{kind}/{id}.png?lang= draws a PNG of 1200×630 from the data,
// in the asked language, and draws it again only when what it says changed.

const api = useTestApi();
const ids = {} as Record<ShareCardKind, string>;
let champion: Player;
let matchId: string;
let organiser: string;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The card's answer with its bytes (the test client reads bodies as text). */
async function card(path: string, headers: Record<string, string> = {}, clientAddress = '198.51.100.1') {
  const response = await api.app.request(path, { headers }, { clientAddress });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

beforeAll(async () => {
  organiser = (await admin(api)).token;
  champion = await player(api, unique('Козак_'));
  const rival = await player(api);
  const gameId = await statsGame(api, { name: unique('Кібергра ') });
  // A player with a rating (a recorded win) and a team.
  await invitedTeam(api, 1, champion);
  const rated = await tournament(api, { game: gameId, soloOnly: true, approved: [champion, rival] });
  await statsOn(api, rated.id);
  await recordedMatch(api, rated.id, { participant1Type: 'user', participant1Id: champion.user.id, participant2Type: 'user', participant2Id: rival.user.id, score1: 2, score2: 0 });
  ids.player = champion.user.id;
  // A tournament of two with a final to play.
  const cup = await tournament(api, { game: gameId, soloOnly: true, title: unique('Кубок Києва '), approved: [champion, rival] });
  ids.tournament = cup.id;
  matchId = (await stage(api, cup.id, { format: 'single_elimination' })).matches[0]!._id;
  ids.match = matchId;
  const news = await api.call<{ _id: string }>('POST', '/api/news', { token: organiser, body: { title: 'Стартує весняний сезон: Ґанок, Єнот, Їжак', content: 'Текст.' } });
  ids.news = news.body._id;
  // An organisation (issue 56) with a follower.
  const founded = await api.call<{ organisation: { _id: string } }>('POST', '/api/organisations', { token: champion.token, body: { name: unique('Ліга Дніпра ') } });
  ids.organisation = founded.body.organisation._id;
  await api.call('POST', `/api/organisations/${ids.organisation}/follow`, { token: rival.token });
});

describe('GET /api/og/{kind}/{id}.png', () => {
  for (const kind of SHARE_CARD_KINDS) {
    for (const locale of ['uk', 'en'] as const) {
      it(`draws a ${kind} card in ${locale}: a PNG of exactly ${SHARE_CARD_WIDTH}×${SHARE_CARD_HEIGHT}`, async () => {
        const { status, headers, bytes } = await card(shareCardPath(kind, ids[kind], locale));
        expect(status).toBe(200);
        expect(headers.get('content-type')).toBe('image/png');
        expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
        const meta = await sharp(bytes).metadata();
        expect(meta.format).toBe('png');
        expect([meta.width, meta.height]).toEqual([SHARE_CARD_WIDTH, SHARE_CARD_HEIGHT]);
        // Public: crawlers and shared caches may keep it a while; the ETag names what it says.
        expect(headers.get('cache-control')).toMatch(/\bpublic\b.*max-age=300/);
        expect(headers.get('etag')).toMatch(/^"og-[\w-]+"$/);
      });
    }
  }

  it('says it in the asked language: the Ukrainian and English cards differ', async () => {
    for (const kind of SHARE_CARD_KINDS) {
      const [uk, en] = await Promise.all([card(shareCardPath(kind, ids[kind], 'uk')), card(shareCardPath(kind, ids[kind], 'en'))]);
      expect(uk.headers.get('etag'), kind).not.toBe(en.headers.get('etag'));
      expect(Buffer.from(uk.bytes).equals(Buffer.from(en.bytes)), kind).toBe(false);
    }
  });

  it('is Ukrainian without a language, whatever the reader’s cookie says', async () => {
    const [bare, uk, cookie] = await Promise.all([
      card(`/api/og/tournament/${ids.tournament}.png`),
      card(shareCardPath('tournament', ids.tournament, 'uk')),
      card(`/api/og/tournament/${ids.tournament}.png`, { cookie: 'lang=en' }),
    ]);
    expect(bare.headers.get('etag')).toBe(uk.headers.get('etag'));
    expect(cookie.headers.get('etag')).toBe(uk.headers.get('etag'));
  });

  it('sends the same bytes and ETag while nothing changed, and 304 to a reader who has them', async () => {
    const path = shareCardPath('match', matchId, 'uk');
    const first = await card(path);
    const again = await card(path);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    const drawn = shareCardStats().drawn;
    const kept = await card(path, { 'if-none-match': first.headers.get('etag')! });
    expect(kept.status).toBe(304);
    expect(kept.bytes.byteLength).toBe(0);
    expect(kept.headers.get('etag')).toBe(first.headers.get('etag'));
    // A version in the address (for crawlers) changes nothing drawn.
    expect((await card(shareCardPath('match', matchId, 'uk', 7))).headers.get('etag')).toBe(first.headers.get('etag'));
    expect(shareCardStats().drawn).toBe(drawn);
  });

  it('draws a new card after the match result changes, and the old ETag no longer answers 304', async () => {
    const path = shareCardPath('match', matchId, 'uk');
    const before = await card(path);
    const saved = await api.call('PATCH', `/api/matches/${matchId}`, { token: organiser, body: { scoreA: 2, scoreB: 1, version: 0 } });
    expect(saved.status).toBe(200);
    const after = await card(path, { 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(Buffer.from(after.bytes).equals(Buffer.from(before.bytes))).toBe(false);
    expect((await sharp(after.bytes).metadata()).width).toBe(SHARE_CARD_WIDTH);
  });

  it('draws a new tournament card when its title changes', async () => {
    const path = shareCardPath('tournament', ids.tournament, 'en');
    const before = await card(path);
    const detail = await api.call<{ title: string; date: string; game: string }>('GET', `/api/tournaments/${ids.tournament}`);
    const renamed = await api.call('PUT', `/api/tournaments/${ids.tournament}`, {
      token: organiser,
      body: { title: `${detail.body.title} — фінал`, date: detail.body.date, game: detail.body.game },
    });
    expect(renamed.status).toBe(200);
    const after = await card(path);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('draws a card asked for by a parallel burst once, and hands every request the same picture', async () => {
    const news = await api.call<{ _id: string }>('POST', '/api/news', { token: organiser, body: { title: unique('Новина для всіх '), content: 'Текст.' } });
    const path = shareCardPath('news', news.body._id, 'uk');
    const drawn = shareCardStats().drawn;
    const answers = await Promise.all(Array.from({ length: 12 }, () => card(path)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => Buffer.from(a.bytes).toString('base64'))).size).toBe(1);
    expect(shareCardStats().drawn).toBe(drawn + 1);
    // Held: asked again, it is not drawn again.
    await card(path);
    expect(shareCardStats().drawn).toBe(drawn + 1);
  });

  it('answers 404 in Ukrainian for an id that names nothing, for every kind', async () => {
    const messages: Record<ShareCardKind, string> = {
      tournament: 'Турнір не знайдено',
      match: 'Матч не знайдено',
      news: 'Новину не знайдено',
      player: 'Гравця не знайдено',
      organisation: 'Організацію не знайдено',
    };
    for (const kind of SHARE_CARD_KINDS) {
      const res = await api.call<{ message: string }>('GET', shareCardPath(kind, randomUUID(), 'en'));
      expect(res.status, kind).toBe(404);
      expect(res.body.message, kind).toBe(messages[kind]);
    }
    // Another kind's id is not this kind's.
    expect((await api.call('GET', shareCardPath('tournament', ids.news, 'uk'))).status).toBe(404);
  });

  it('answers 400 with a message for a kind, a file or a language it does not know', async () => {
    const id = ids.tournament;
    for (const path of [
      `/api/og/game/${id}.png`,
      `/api/og/tournament/${id}.jpg`,
      `/api/og/tournament/${id}`,
      '/api/og/tournament/not-an-id.png',
      `/api/og/tournament/${id}.png?lang=de`,
      `/api/og/tournament/${id}.png?v=${'x'.repeat(65)}`,
    ]) {
      const res = await api.call<{ message: string }>('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toMatch(/\S/);
    }
  });

  it('lets other sites show the card (Cross-Origin-Resource-Policy: cross-origin), and only the cards', async () => {
    const png = await card(shareCardPath('tournament', ids.tournament, 'uk'));
    expect(png.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    // A missing card is still a card's address; the rest of the API stays same-site.
    expect((await api.call('GET', shareCardPath('news', randomUUID(), 'uk'))).headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect((await api.call('GET', `/api/tournaments/${ids.tournament}`)).headers.get('cross-origin-resource-policy')).toBe('same-site');
  });

  it('draws one card at a time and refuses a burst past its queue with 503 and Retry-After, holding nothing of the refused', async () => {
    const burst = 40; // Arriving far faster than a card is drawn (0.1 s and more), even on a fast machine.
    const news = await Promise.all(
      Array.from({ length: burst }, () => api.call<{ _id: string }>('POST', '/api/news', { token: organiser, body: { title: unique('Навала '), content: 'Текст.' } })),
    );
    const paths = news.map((item) => shareCardPath('news', item.body._id, 'uk'));
    const drawn = shareCardStats().drawn;
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, shareCardStats().drawing)), 1);
    // From distinct addresses: the queue refuses them, not the per-address limit.
    const answers = await Promise.all(paths.map((path, i) => card(path, {}, `198.51.100.${100 + i}`)));
    clearInterval(watch);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 503), statuses.join()).toBe(true);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(1 + MAX_WAITING_DRAWINGS);
    for (const answer of refused) {
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(Buffer.from(answer.bytes).toString())).toEqual({ message: 'Сервіс тимчасово недоступний. Спробуйте пізніше.' });
    }
    // Each card let in was drawn once; a refused one left nothing behind and is drawn when asked again.
    expect(shareCardStats()).toMatchObject({ drawn: drawn + burst - refused.length, drawing: 0, waiting: 0 });
    const again = await card(paths[statuses.indexOf(503)]!, {}, '198.51.100.99');
    expect(again.status).toBe(200);
    expect((await sharp(again.bytes).metadata()).width).toBe(SHARE_CARD_WIDTH);
    expect(shareCardStats().drawn).toBe(drawn + burst - refused.length + 1);
  }, 60_000);

  it('limits the drawings one address causes (429 with Retry-After); a held card, a 304 and another address are not refused', async () => {
    const limited = '198.51.100.7';
    const limits = databaseLimiter(api.db);
    // The address has already caused its drawings for this minute (counted as the route counts them).
    for (let i = 0; i < SHARE_CARD_DRAWING_LIMIT.max; i++) await limits.hit(`og:ip:${limited}`, SHARE_CARD_DRAWING_LIMIT);
    const news = await api.call<{ _id: string }>('POST', '/api/news', { token: organiser, body: { title: unique('Обмеження '), content: 'Текст.' } });
    const path = shareCardPath('news', news.body._id, 'uk');
    const drawn = shareCardStats().drawn;
    const refused = await card(path, {}, limited);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(Buffer.from(refused.bytes).toString()).message).toMatch(/^Забагато нових карток з вашої адреси\. Спробуйте знову через/);
    expect(shareCardStats().drawn).toBe(drawn);
    const other = await card(path, {}, '198.51.100.8');
    expect(other.status).toBe(200);
    // Held now: the limited address gets it, and a 304, since neither draws anything.
    expect((await card(path, {}, limited)).status).toBe(200);
    expect((await card(path, { 'if-none-match': other.headers.get('etag')! }, limited)).status).toBe(304);
    expect(shareCardStats().drawn).toBe(drawn + 1);
  });
});
