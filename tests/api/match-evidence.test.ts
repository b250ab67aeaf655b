import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { EvidenceList } from '../../src/lib/api/match-evidence.ts';
import { TEAM_SIZE } from '../../src/lib/domain/application-rules.ts';
import { images, matchEvidence } from '../../src/server/db/schema/index.ts';
import { addEvidence } from '../../src/server/services/match-room/evidence.ts';
import { roomPerson } from '../../src/server/services/match-room/people.ts';
import { subscribeTournament, type TournamentEvent } from '../../src/server/services/live/live.ts';
import { databaseLimiter } from '../../src/server/services/rate-limit.ts';
import { admin, coOrganiser, player, stage, team, tournament, tournamentStatus, useTestApi, type Player } from '../support/builders.ts';

/*
 * A match's screenshots (issue 58), through the API: any person of a side (not only the captain)
 * and the organisers add up to four pictures at once, re-encoded and kept readable; both sides and
 * the organisers list and read them; every refusal — too many, too large, not a picture, a
 * stranger, a guest, another match's picture, a full match, a finished tournament — changes nothing;
 * a burst of uploads never passes the match's limit, and nothing of it reaches a public answer.
 */

const api = useTestApi();

type Upload = [data: Buffer, name: string, type: string];

const png = (width: number, height: number, r = 30) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 120, b: 200 } } })
    .png()
    .toBuffer();
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg({ quality: 85 })
    .toBuffer();

function formOf(files: Upload[]): FormData {
  const form = new FormData();
  for (const [data, name, type] of files) form.append('files', new Blob([new Uint8Array(data)], { type }), name);
  return form;
}

const path = (matchId: string) => `/api/matches/${matchId}/evidence`;
const upload = (matchId: string, who: Player | null, files: Upload[]) =>
  api.call<{ message: string; evidence: EvidenceList['evidence'] }>('POST', path(matchId), { token: who?.token, body: formOf(files) });
const list = (matchId: string, who: Player | null) => api.call<EvidenceList>('GET', path(matchId), { token: who?.token });

async function picture(url: string, who: Player | null) {
  const response = await api.app.request(url, { headers: who ? { authorization: `Bearer ${who.token}` } : {} });
  return { status: response.status, headers: response.headers, data: Buffer.from(await response.arrayBuffer()) };
}

async function stored(matchId: string): Promise<number> {
  const [row] = await api.db.select({ n: count() }).from(matchEvidence).where(eq(matchEvidence.matchId, matchId));
  return row?.n ?? 0;
}
async function imageCount(): Promise<number> {
  const [row] = await api.db.select({ n: count() }).from(images);
  return row?.n ?? 0;
}

/** A team cup of two, each team with a captain and a player who is not; a co-organiser; its ready final. */
async function teamCup() {
  const [captainA, memberA, captainB, memberB] = await Promise.all([player(api), player(api), player(api), player(api)]);
  const teamA = await team(api, captainA, TEAM_SIZE.min, { members: [memberA.user.id] });
  const teamB = await team(api, captainB, TEAM_SIZE.min, { members: [memberB.user.id] });
  const cup = await tournament(api, { soloOnly: false, approved: [teamA, teamB] });
  const staff = await coOrganiser(api, cup.id);
  const built = await stage(api, cup.id, { format: 'single_elimination' });
  return { cup, matchId: built.matches[0]!._id, captainA, memberA, captainB, memberB, staff };
}

/** A solo final of two players, ready. */
async function soloFinal() {
  const [a, b] = await Promise.all([player(api), player(api)]);
  const cup = await tournament(api, { soloOnly: true, approved: [a, b] });
  const built = await stage(api, cup.id, { format: 'single_elimination' });
  return { cup, matchId: built.matches[0]!._id, a, b };
}

describe("a match's screenshots", () => {
  it('tell the room on the tournament\'s stream by the match alone, naming no picture', async () => {
    const { cup, matchId, a } = await soloFinal();
    const heard: TournamentEvent[] = [];
    const stop = subscribeTournament(cup.id, (event) => void heard.push(event));
    try {
      expect((await upload(matchId, a, [[await png(320, 200), 'a.png', 'image/png']])).status).toBe(201);
      await expect.poll(() => heard.map((e) => [e.kind, e.matchId])).toEqual([['evidence', matchId]]);
      expect(JSON.stringify(heard)).not.toContain('/evidence/');
    } finally {
      stop();
    }
  });

  it("are added by a team's player, re-encoded to at most 1920 px, and read by both sides and the organisers", { timeout: 60_000 }, async () => {
    const { matchId, memberA, captainB, memberB, staff } = await teamCup();
    const screen = await png(2560, 1440);
    const photo = await jpeg(4032, 3024);
    const added = await upload(matchId, memberA, [
      [screen, 'screen.png', 'image/png'],
      [photo, 'photo.jpg', 'image/jpeg'],
    ]);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.message).toBe('Скриншоти додано: 2');
    expect(added.body.evidence.map((e) => [e.width, e.height, e.slot, e.uploader?.username])).toEqual([
      [1920, 1080, 'a', memberA.user.username],
      [1920, 1440, 'a', memberA.user.username],
    ]);

    // The other side's player, one more picture each from the other captain and from the organisers.
    const four = await upload(matchId, captainB, [
      [await png(800, 600, 1), '1.png', 'image/png'],
      [await png(800, 600, 2), '2.png', 'image/png'],
      [await png(800, 600, 3), '3.png', 'image/png'],
      [await png(800, 600, 4), '4.png', 'image/png'],
    ]);
    expect(four.status).toBe(201);
    expect(four.body.evidence.every((e) => e.slot === 'b' && e.width === 800 && e.height === 600)).toBe(true);
    const byStaff = await upload(matchId, staff, [[await png(640, 480), 'staff.png', 'image/png']]);
    expect(byStaff.status).toBe(201);
    expect(byStaff.body.evidence[0]!.slot).toBeNull();

    const readers = [memberA, captainB, memberB, staff, await admin(api)];
    for (const reader of readers) {
      const answer = await list(matchId, reader);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toMatch(/private/);
      expect(answer.body.max).toBe(12);
      expect(answer.body.evidence).toHaveLength(7);
    }
    const all = (await list(matchId, memberB)).body.evidence;
    expect(all[0]!.url).toBe(`/api/matches/${matchId}/evidence/${all[0]!._id}`);
    for (const reader of readers) {
      const got = await picture(all[0]!.url, reader);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('image/webp');
      expect(got.headers.get('cache-control')).toMatch(/^private\b/);
      const meta = await sharp(got.data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1920, 1080]);
      // Re-encoded: new bytes, smaller than the upload.
      expect(got.data.equals(screen)).toBe(false);
      expect(got.data.length).toBeLessThan(screen.length);
    }
    // A second read names the same picture: 304.
    const first = await picture(all[1]!.url, captainB);
    const again = await api.app.request(all[1]!.url, { headers: { authorization: `Bearer ${captainB.token}`, 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('refuses five pictures, a file over 5 MB, a text file named .png, a JSON body, and stores nothing of a refused upload', { timeout: 60_000 }, async () => {
    const { matchId, a } = await soloFinal();
    const small = await png(320, 240);
    const before = await imageCount();
    const refusals: [Upload[], number, string][] = [
      [Array.from({ length: 5 }, (_, i): Upload => [small, `${i}.png`, 'image/png']), 400, 'Не більше 4 знімків за раз'],
      [[[Buffer.alloc(6 * 1024 * 1024, 7), 'huge.png', 'image/png']], 413, 'Знімок 1: файл завеликий, не більше 5 МБ'],
      [[[Buffer.from('це не картинка, а текст'), 'fake.png', 'image/png']], 415, 'Знімок 1: файл має бути зображенням PNG, JPEG, WebP або GIF'],
      // One good picture and one bad: neither is kept.
      [
        [
          [small, 'ok.png', 'image/png'],
          [Buffer.from('GIF89a…'), 'bad.gif', 'image/gif'],
        ],
        415,
        'Знімок 2: файл має бути зображенням PNG, JPEG, WebP або GIF',
      ],
      [[[Buffer.alloc(0), 'empty.png', 'image/png']], 400, 'Знімок 1: файл порожній'],
      // A PNG over a 4K screen's pixels, refused from its header.
      [
        [[await png(4000, 2500), 'big.png', 'image/png']],
        400,
        'Знімок 1: зображення завелике — JPEG і WebP до 24 Мп, PNG і GIF до 8,3 Мп (16-бітні PNG — до 4,1 Мп)',
      ],
    ];
    for (const [files, status, message] of refusals) {
      const res = await upload(matchId, a, files);
      expect([res.status, res.body.message], message).toEqual([status, message]);
    }
    const json = await api.call('POST', path(matchId), { token: a.token, body: { files: [] } });
    expect(json.status).toBe(415);
    expect(json.body.message).toMatch(/[а-яі]/i);
    const noFiles = await api.call('POST', path(matchId), { token: a.token, body: new FormData() });
    expect(noFiles.status).toBe(400);
    const text = new FormData();
    text.set('files', 'не файл');
    expect((await api.call('POST', path(matchId), { token: a.token, body: text })).status).toBe(400);
    expect(await stored(matchId)).toBe(0);
    expect(await imageCount()).toBe(before);
  });

  it('answers a stranger 403, a guest 401 and an unknown match or another match’s picture 404, storing nothing', async () => {
    const { matchId, a, b } = await soloFinal();
    const other = await soloFinal();
    const stranger = await player(api);
    const pic = await png(320, 240);
    const mine = await upload(matchId, a, [[pic, 'a.png', 'image/png']]);
    expect(mine.status).toBe(201);
    const theirs = await upload(other.matchId, other.a, [[pic, 'b.png', 'image/png']]);
    const url = mine.body.evidence[0]!.url;

    const outsider = await upload(matchId, stranger, [[pic, 's.png', 'image/png']]);
    expect([outsider.status, outsider.body.message]).toEqual([403, 'Скриншоти матчу бачать і додають лише його сторони та організатори']);
    expect((await list(matchId, stranger)).status).toBe(403);
    expect((await picture(url, stranger)).status).toBe(403);
    // A side of another match is a stranger here.
    expect((await list(matchId, other.a)).status).toBe(403);

    const guest = await upload(matchId, null, [[pic, 'g.png', 'image/png']]);
    expect(guest.status).toBe(401);
    expect(guest.body.message).toMatch(/[а-яі]/i);
    expect((await list(matchId, null)).status).toBe(401);
    expect((await picture(url, null)).status).toBe(401);

    const nowhere = '00000000-0000-4000-8000-000000000000';
    expect((await upload(nowhere, a, [[pic, 'n.png', 'image/png']])).status).toBe(404);
    expect((await list(nowhere, a)).status).toBe(404);
    expect((await list('not-a-uuid', a)).status).toBe(400);
    // The other match's picture through this match's address.
    const crossed = await picture(`${path(matchId)}/${theirs.body.evidence[0]!._id}`, b);
    expect([crossed.status, JSON.parse(crossed.data.toString()).message]).toEqual([404, 'Скриншот не знайдено']);
    expect((await picture(`${path(matchId)}/${nowhere}`, b)).status).toBe(404);

    expect(await stored(matchId)).toBe(1);
  });

  it('lets the sides add evidence after the result, but not once the tournament is finished; the organisers always', async () => {
    const { cup, matchId, a, b } = await soloFinal();
    const pic = await png(320, 240);
    expect((await api.call('POST', `/api/matches/${matchId}/report`, { token: a.token, body: { scoreA: 2, scoreB: 0 } })).status).toBe(200);
    expect((await upload(matchId, b, [[pic, 'report.png', 'image/png']])).status).toBe(201);
    expect((await api.call('POST', `/api/matches/${matchId}/confirm`, { token: b.token, body: {} })).status).toBe(200);
    expect((await upload(matchId, a, [[pic, 'after.png', 'image/png']])).status).toBe(201);

    await tournamentStatus(api, { id: cup.id, title: cup.title, date: cup.date, game: cup.game }, 'finished');
    const late = await upload(matchId, a, [[pic, 'late.png', 'image/png']]);
    expect([late.status, late.body.message]).toEqual([409, 'Турнір завершено: скриншоти додають лише організатори']);
    expect((await list(matchId, a)).body.evidence).toHaveLength(2);
    expect((await upload(matchId, await admin(api), [[pic, 'admin.png', 'image/png']])).status).toBe(201);
    expect(await stored(matchId)).toBe(3);
  });

  it('holds at most 12 pictures a match, however many uploads arrive at once', { timeout: 60_000 }, async () => {
    const { matchId, captainA, memberA, captainB, memberB, staff } = await teamCup();
    const people = [captainA, memberA, captainB, memberB, staff, captainA, memberB];
    const pics = await Promise.all([1, 2, 3].map((i) => png(200 + i, 150, i * 40)));
    const burst = await Promise.all(
      people.map((who) =>
        upload(
          matchId,
          who,
          pics.map((p, i): Upload => [p, `${i}.png`, 'image/png']),
        ),
      ),
    );
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 201)).toHaveLength(4);
    expect(await stored(matchId)).toBe(12);
    const full = burst.find((r) => r.status === 409)!;
    expect(full.body.message).toMatch(/^У матчі вже \d+ з 12 скриншотів: більше додати не можна$/);
    const one = await upload(matchId, staff, [[pics[0]!, 'x.png', 'image/png']]);
    expect([one.status, one.body.message]).toEqual([409, 'У матчі вже 12 з 12 скриншотів: більше додати не можна']);
    // Past the process's turns, as uploads on several instances meet: the lock on the match's row holds the count.
    const other = await teamCup();
    const limits = databaseLimiter(api.db);
    const blobs = pics.map((p) => new Blob([new Uint8Array(p)], { type: 'image/png' }));
    const direct = await Promise.all(
      [other.captainA, other.memberA, other.captainB, other.memberB, other.staff, other.captainA].map(async (who) => {
        const room = await roomPerson(api.db, other.matchId, who.user);
        if (!room.ok) throw new Error(room.reason);
        return addEvidence({ db: api.db, limits }, other.matchId, room, who.user.id, blobs);
      }),
    );
    expect(direct.filter((done) => done.ok)).toHaveLength(4);
    expect(direct.filter((done) => !done.ok).every((done) => !done.ok && done.reason === 'full')).toBe(true);
    expect(await stored(other.matchId)).toBe(12);
  });

  it('never reaches a public answer about the match', async () => {
    const { cup, matchId, a } = await soloFinal();
    const added = await upload(matchId, a, [[await png(320, 240), 'a.png', 'image/png']]);
    expect(added.status).toBe(201);
    const id = added.body.evidence[0]!._id;
    // What the match page, the tournament's pages and their live regions read.
    const reads = ['', '/veto'].map((tail) => `/api/matches/${matchId}${tail}`);
    reads.push(...['', '/stages', '/bracket', '/standings', '/history'].map((tail) => `/api/tournaments/${cup.id}${tail}`));
    for (const address of reads) {
      for (const token of [undefined, a.token]) {
        const res = await api.call('GET', address, { token });
        if (address !== `/api/matches/${matchId}/veto`) expect(res.status, address).toBe(200);
        const text = JSON.stringify(res.body);
        expect(text, address).not.toContain('/evidence');
        expect(text, address).not.toContain(id);
      }
    }
  });
});
