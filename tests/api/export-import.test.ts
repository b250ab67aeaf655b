import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ParticipantImportAnswer } from '../../src/lib/api/participant-import.ts';
import { IMPORT_BYTES_MAX, IMPORT_ROWS_MAX } from '../../src/lib/domain/participant-import.ts';
import { applications, auditLog, notifications } from '../../src/server/db/schema/index.ts';
import { insertAccount } from '../../src/server/db/factories/index.ts';
import { onChanges, tournamentData, type DataTag } from '../../src/server/services/live/changes.ts';
import { subscribeTournament } from '../../src/server/services/live/live.ts';
import { admin as adminOf, application, coOrganiser, game, player, stage, team, tournament, unique, useTestApi, type Player } from '../support/builders.ts';

/*
 * Export and import as CSV (issue 60, decision 040): a tournament's organisers download its
 * participants, matches and places as files Excel set to Ukrainian opens as they are, and add
 * participants from a file, checked row by row before anything is written.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, `CSV ${unique('')}`);
});

const cup = (options: Parameters<typeof tournament>[1] = {}) => tournament(api, { game: gameId, soloOnly: true, ...options });

/** The raw answer of an export: its bytes, as the browser saves them. */
async function download(tournamentId: string, file: string, token: string | null = admin.token, headers: Record<string, string> = {}) {
  const response = await api.app.request(
    `/api/tournaments/${tournamentId}/export/${file}`,
    { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
    { clientAddress: '203.0.113.9' },
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes };
}

/** An export parsed back by the CSV library, as a spreadsheet reads it: a header and rows. */
async function table(tournamentId: string, file: string, headers: Record<string, string> = {}) {
  const got = await download(tournamentId, file, admin.token, headers);
  expect(got.status).toBe(200);
  // The byte order mark first: Excel reads the file as UTF-8 only with it.
  expect([...got.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(got.bytes);
  const records = parse(text, { bom: true, delimiter: ';' }) as string[][];
  return { header: records[0]!, rows: records.slice(1), text };
}

/** Sent by the admin unless `token` says who (null: a guest). */
const importCsv = (tournamentId: string, csv: string, dryRun: boolean, token: string | null = admin.token) =>
  api.call<ParticipantImportAnswer>('POST', `/api/tournaments/${tournamentId}/participants/import`, { token: token ?? undefined, body: { csv, dryRun } });

/** A file of one column of values, with a header, written by the CSV library. */
const column = (header: string, values: readonly string[], delimiter = ';') => stringify([[header], ...values.map((v) => [v])], { delimiter });

async function countOf(tournamentId: string) {
  const [apps] = await api.db.select({ n: count() }).from(applications).where(eq(applications.tournamentId, tournamentId));
  const [audit] = await api.db.select({ n: count() }).from(auditLog).where(eq(auditLog.tournamentId, tournamentId));
  const [notices] = await api.db
    .select({ n: count() })
    .from(notifications)
    .where(sql`${notifications.payload} ->> 'tournamentId' = ${tournamentId}`);
  return { applications: apps!.n, audit: audit!.n, notices: notices!.n };
}

/** A player with any name at all (the factory, not the sign-up form), applied to the tournament and approved. */
async function oddPlayer(tournamentId: string, username: string) {
  const user = await insertAccount(api.db, { username, password: 'correct-horse-9' });
  await api.db.insert(applications).values({ tournamentId, userId: user.id, status: 'approved' });
  return user;
}

describe('the exports', () => {
  it('give the participants as Excel set to Ukrainian opens them: BOM, «;», CRLF, Cyrillic, quoted names, formulas neutralised', async () => {
    const { id } = await cup({ title: 'Кубок; "Лева"' });
    const kozak = await player(api, `Козак_${unique('')}`);
    await application(api, id, 'approved', kozak);
    const odd = await oddPlayer(id, `Кібер;"Козак"\nЛьвів ${unique('')}`);
    const formulas = ['=HYPERLINK("http://evil.test","x")', '+SUM(1,2)', '-2+3', '@SUM(A1)', '\tTab', '\rCR'];
    for (const f of formulas) await oddPlayer(id, `${f}${unique('')}`);
    const pending = await player(api);
    await application(api, id, 'pending', pending);

    const got = await download(id, 'participants.csv');
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(got.headers.get('cache-control')).toBe('private, no-store');
    const disposition = got.headers.get('content-disposition')!;
    expect(disposition).toMatch(new RegExp(`^attachment; filename="tournament-${id.slice(0, 8)}-participants\\.csv"; filename\\*=UTF-8''`));
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe('Кубок; Лева — учасники.csv');

    const { header, rows, text } = await table(id, 'participants.csv');
    expect(text).toContain('\r\n');
    expect(header).toEqual(['Гравець', 'Статус', 'Посів', 'Заявка подана (Europe/Kyiv)', 'Відмітився (Europe/Kyiv)']);
    const byName = new Map(rows.map((r) => [r[0]!, r]));
    expect(byName.get(kozak.user.username)?.[1]).toBe('Схвалено');
    expect(byName.get(pending.user.username)?.[1]).toBe('На розгляді');
    // A name with the separator, quotes and a line break comes back whole.
    expect(byName.get(odd.username)?.[1]).toBe('Схвалено');
    expect(byName.get(kozak.user.username)?.[3]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    // Every cell that starts like a formula starts with an apostrophe instead.
    for (const f of formulas)
      expect(
        rows.some((r) => r[0]!.startsWith(`'${f}`)),
        f,
      ).toBe(true);
    expect(rows.filter((r) => /^[=+\-@\t\r]/.test(r[0]!))).toEqual([]);
  });

  it('give a team tournament’s teams with their captain and players, and the seed of the first stage', async () => {
    const { id, approved } = await tournament(api, { game: gameId, soloOnly: false, approved: 2 });
    await stage(api, id, { format: 'single_elimination' });
    const { header, rows } = await table(id, 'participants.csv');
    expect(header.slice(0, 5)).toEqual(['Команда', 'Капітан', 'Гравці', 'Статус', 'Посів']);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r[4]).sort()).toEqual(['1', '2']);
    for (const row of rows) {
      expect(row[2]!.split(', ')).toHaveLength(5);
      expect(row[2]).toContain(row[1]!);
    }
    expect(approved).toHaveLength(2);
  });

  it('give the matches with stage, round, sides, score, winner, status and times in the tournament’s zone, and the final places', async () => {
    const { id } = await cup({ approved: 4, settings: { timeZone: 'Europe/Warsaw' } });
    const made = await stage(api, id, { format: 'single_elimination' });
    await api.call('POST', `/api/tournaments/${id}/stages/${made._id}/schedule`, {
      token: admin.token,
      body: { start: '2030-05-01T19:00:00+02:00', roundMinutes: 60 },
    });
    for (const match of made.matches.filter((m) => m.round === 1)) {
      // Scheduled since it was made: its version moved on.
      const { version } = (await api.call<{ match: { version: number } }>('GET', `/api/matches/${match._id}`)).body.match;
      const saved = await api.call('PATCH', `/api/matches/${match._id}`, { token: admin.token, body: { scoreA: 2, scoreB: 1, version } });
      expect(saved.status).toBe(200);
    }
    const { header, rows } = await table(id, 'matches.csv');
    expect(header).toEqual([
      'Етап',
      'Раунд',
      'Матч',
      'Сторона A',
      'Сторона B',
      'Рахунок',
      'Переможець',
      'Статус',
      'Запланований час (Europe/Warsaw)',
      'Завершено (Europe/Warsaw)',
    ]);
    expect(rows).toHaveLength(3);
    const [m1, , final] = rows;
    expect(m1!.slice(2, 3)).toEqual(['M1']);
    expect(m1![5]).toBe('2:1');
    expect(m1![6]).toBe(m1![3]);
    expect(m1![7]).toBe('Завершено');
    expect(m1![8]).toBe('2030-05-01 19:00');
    expect(m1![9]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(final![1]).toBe('Фінал');
    expect(final![7]).toBe('Готовий');
    expect(final![8]).toBe('2030-05-01 20:00');

    const finalId = made.matches.find((m) => m.round === 2)!._id;
    const { version } = (await api.call<{ match: { version: number } }>('GET', `/api/matches/${finalId}`)).body.match;
    expect((await api.call('PATCH', `/api/matches/${finalId}`, { token: admin.token, body: { scoreA: 0, scoreB: 3, version } })).status).toBe(200);
    const places = await table(id, 'places.csv');
    expect(places.header).toEqual(['Місце', 'Учасник']);
    expect(places.rows[0]).toEqual(['1', final![4]]);
    expect(places.rows[1]).toEqual(['2', final![3]]);
    expect(places.rows.slice(2).map((r) => r[0])).toEqual(['3–4', '3–4']);
  });

  it('speak the reader’s language, and give an empty table where nothing was played', async () => {
    const { id } = await cup();
    const { header, rows } = await table(id, 'matches.csv', { cookie: 'lang=en' });
    expect(header.slice(0, 3)).toEqual(['Stage', 'Round', 'Match']);
    expect(rows).toEqual([]);
    expect((await table(id, 'places.csv')).rows).toEqual([]);
  });

  it('are for the tournament’s organisers only: 401 without a token, 403 for others before anything, 404 for no tournament, 400 for another file', async () => {
    const { id } = await cup();
    const staff = await coOrganiser(api, id);
    const elsewhere = await coOrganiser(api, (await cup()).id);
    expect((await download(id, 'places.csv', null)).status).toBe(401);
    expect((await download(id, 'places.csv', (await player(api)).token)).status).toBe(403);
    expect((await download(id, 'places.csv', elsewhere.token)).status).toBe(403);
    expect((await download(id, 'places.csv', staff.token)).status).toBe(200);
    // Someone else's tournament id: a stranger is refused as for any tournament, the admin told there is none.
    const nobody = '00000000-0000-4000-8000-000000000000';
    expect((await download(nobody, 'places.csv', staff.token)).status).toBe(403);
    const missing = await api.call('GET', `/api/tournaments/${nobody}/export/places.csv`, { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Турнір не знайдено' });
    const other = await api.call('GET', `/api/tournaments/${id}/export/secrets.csv`, { token: admin.token });
    expect(other.status).toBe(400);
    expect(other.body).toHaveProperty('message');
  });
});

describe('the import of participants', () => {
  it('shows each row of a solo tournament with its problem and writes nothing on a check', async () => {
    const { id } = await cup({ settings: { maxParticipants: 4 } });
    const [a, b, c, registered, late] = [await player(api), await player(api), await player(api), await player(api), await player(api)];
    await application(api, id, 'approved', registered);
    const before = await countOf(id);
    // A spreadsheet's second column: the row with no nickname still has a comment, so it is a row.
    const names = [a.user.username, b.user.email, 'nobody-here', a.user.email.toUpperCase(), registered.user.username, '', c.user.username, late.user.username];
    const csv = stringify([['Нікнейм', 'Коментар'], ...names.map((name, i) => [name, `рядок ${i + 2}`])], { delimiter: ';' });
    const res = await importCsv(id, csv, true);
    expect(res.status).toBe(200);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.added).toBe(0);
    expect(res.body.rows.map((r) => [r.line, r.status, r.name])).toEqual([
      [2, 'ok', a.user.username],
      [3, 'ok', b.user.username],
      [4, 'unknownPlayer', null],
      [5, 'duplicate', a.user.username],
      [6, 'alreadyRegistered', registered.user.username],
      [7, 'empty', null],
      [8, 'ok', c.user.username],
      [9, 'overCap', late.user.username],
    ]);
    expect(res.body.rows.map((r) => r.message)).toEqual([
      'Можна додати',
      'Можна додати',
      'Гравця не знайдено',
      'Повтор: той самий учасник, що в рядку 2',
      'Уже має заявку (Схвалено)',
      'Порожнє значення',
      'Можна додати',
      'Понад ліміт: вільних місць 3',
    ]);
    expect([res.body.ok, res.body.problems]).toEqual([3, 5]);
    expect(await countOf(id)).toEqual(before);
  });

  it('judges teams by name: unknown, already registered, too small', async () => {
    const { id } = await tournament(api, { game: gameId, soloOnly: false });
    const ready = await team(api, await player(api), 5, { name: `Кібер Козаки ${unique('')}` });
    const small = await team(api, await player(api), 3);
    const registered = await team(api, await player(api), 5);
    await application(api, id, 'approved', registered);
    const res = await importCsv(id, column('Команда', [ready.name.toUpperCase(), 'Немає такої', small.name, registered.name]), true);
    expect(res.body.rows.map((r) => [r.status, r.message])).toEqual([
      ['ok', 'Можна додати'],
      ['unknownTeam', 'Команду не знайдено'],
      ['teamSize', 'Гравців у команді: 3, а потрібно від 5 до 7'],
      ['alreadyRegistered', 'Уже має заявку (Схвалено)'],
    ]);
    expect(res.body.rows[0]!.name).toBe(ready.name);
  });

  it('takes emails only where the site vouches for the organiser: its own tournaments and verified organisations’', async () => {
    const owner = await player(api);
    const made = await api.call<{ organisation: { _id: string } }>('POST', '/api/organisations', { token: owner.token, body: { name: `Ліга ${unique('')}` } });
    const organisation = made.body.organisation._id;
    const created = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: owner.token,
      body: { title: `Кубок ліги ${unique('')}`, date: '2030-06-01', game: gameId, soloOnly: true, organisation },
    });
    const id = created.body.tournament._id;
    const someone = await player(api);
    const csv = column('Гравець', [someone.user.email, someone.user.username]);
    const before = await importCsv(id, csv, true, owner.token);
    expect(before.status).toBe(200);
    expect(before.body.rows.map((r) => [r.status, r.name])).toEqual([
      ['emailNotAllowed', null],
      ['ok', someone.user.username],
    ]);
    expect(before.body.rows[0]!.message).toMatch(/^За email додають лише/);
    expect((await api.call('PATCH', `/api/organisations/${organisation}`, { token: admin.token, body: { verified: true } })).status).toBe(200);
    const after = await importCsv(id, csv, true, owner.token);
    expect(after.body.rows.map((r) => [r.status, r.name])).toEqual([
      ['ok', someone.user.username],
      ['duplicate', someone.user.username],
    ]);
  });

  it('adds nothing when a row has a problem (422 with the rows), and every row in one go when none has', async () => {
    const { id } = await cup();
    const staff = await coOrganiser(api, id);
    const people = [await player(api), await player(api), await player(api)];
    const before = await countOf(id);
    const bad = await importCsv(id, column('Гравець', [...people.map((p) => p.user.username), 'nobody-here']), false, staff.token);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Нічого не додано: рядків із проблемами — 1. Виправте їх і спробуйте знову');
    expect(bad.body.rows).toHaveLength(4);
    expect(bad.body.added).toBe(0);
    expect(await countOf(id)).toEqual(before);

    const heard: string[] = [];
    const tags: DataTag[] = [];
    const stopEvents = subscribeTournament(id, (event) => heard.push(event.kind));
    const stopChanges = onChanges((changedTags) => tags.push(...changedTags));
    // Without a header row: one nickname a line.
    const good = await importCsv(id, people.map((p) => `${p.user.username}\r\n`).join(''), false, staff.token);
    stopEvents();
    stopChanges();
    expect(good.status).toBe(201);
    expect(good.body.message).toBe('Додано учасників: 3');
    expect(good.body.added).toBe(3);
    const rows = await api.db.select().from(applications).where(eq(applications.tournamentId, id));
    expect(rows.map((r) => [r.userId, r.status, r.teamId]).sort()).toEqual(people.map((p) => [p.user.id, 'approved', null]).sort());
    const audit = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tournamentId, id), eq(auditLog.kind, 'participantAdded')));
    expect(audit.map((r) => [r.actorId, (r.after as { participant: string }).participant]).sort()).toEqual(
      people.map((p) => [staff.user.id, p.user.username]).sort(),
    );
    expect((await countOf(id)).notices).toBe(before.notices + 3);
    expect(heard).toEqual(['application']);
    expect(tags).toContain(tournamentData(id));
    // The participants are on the tournament's public page.
    const page = await api.call<{ applications: { user: { _id: string }; status: string }[] }>('GET', `/api/tournaments/${id}`);
    expect(page.body.applications.filter((a) => a.status === 'approved')).toHaveLength(3);
    // Again: every row is registered now, nothing more is added.
    const again = await importCsv(id, people.map((p) => p.user.username).join('\n'), false, staff.token);
    expect(again.status).toBe(422);
    expect(again.body.rows.every((r) => r.status === 'alreadyRegistered')).toBe(true);
  });

  it('adds teams through their captains', async () => {
    const { id } = await tournament(api, { game: gameId, soloOnly: false });
    const first = await team(api, await player(api), 5);
    const second = await team(api, await player(api), 6);
    const res = await importCsv(
      id,
      stringify(
        [
          ['№', 'Назва команди', 'Коментар'],
          [1, first.name, 'з форми'],
          [2, second.name, ''],
        ],
        { delimiter: ',' },
      ),
      false,
    );
    expect(res.status).toBe(201);
    const rows = await api.db.select().from(applications).where(eq(applications.tournamentId, id));
    expect(rows.map((r) => [r.teamId, r.userId, r.status]).sort()).toEqual(
      [
        [first.id, first.members[0], 'approved'],
        [second.id, second.members[0], 'approved'],
      ].sort(),
    );
  });

  it('reads «;» and «,» files, quoted names, a header anywhere in the first line, and skips lines of empty cells', async () => {
    const { id } = await cup();
    const odd = await insertAccount(api.db, { username: `Кібер;"Козак", Львів ${unique('')}`, password: 'correct-horse-9' });
    const plain = await player(api);
    const semicolons = stringify(
      [
        ['№', 'Email', 'Нікнейм'],
        [1, plain.user.email, 'x'],
        ['', '', ''],
        [2, odd.email, 'y'],
      ],
      { delimiter: ';', record_delimiter: 'windows' },
    );
    const read = await importCsv(id, `\ufeff${semicolons}`, true);
    expect(read.body.rows.map((r) => [r.line, r.status, r.name])).toEqual([
      [2, 'ok', plain.user.username],
      [4, 'ok', odd.username],
    ]);
    // One column of names holding commas, no header: split by nothing.
    const single = await importCsv(id, `${stringify([[odd.username]], { delimiter: ';' })}${plain.user.username}\n`, true);
    expect(single.body.rows.map((r) => r.status)).toEqual(['ok', 'ok']);
  });

  it('refuses a file it cannot take, with a message and nothing written', async () => {
    const { id } = await cup();
    const before = await countOf(id);
    const cases: [string, number, RegExp][] = [
      ['', 422, /немає жодного рядка/],
      ['Гравець\n', 422, /немає жодного рядка/],
      [';;\n;;\n', 422, /немає жодного рядка/],
      ['"unclosed\nname', 422, /Не вдалося прочитати CSV \(рядок \d+\)/],
      [Array.from({ length: IMPORT_ROWS_MAX + 1 }, (_, i) => `p${i}`).join('\n'), 413, /до 1000 за раз \(у файлі 1001\)/],
      ['я'.repeat(IMPORT_BYTES_MAX / 2 + 1), 413, /до 200 КБ/],
    ];
    for (const [csv, status, message] of cases) {
      for (const dryRun of [true, false]) {
        const res = await importCsv(id, csv, dryRun);
        expect(res.status, csv.slice(0, 20)).toBe(status);
        expect((res.body as unknown as { message: string }).message).toMatch(message);
      }
    }
    const malformed = await api.call('POST', `/api/tournaments/${id}/participants/import`, { token: admin.token, body: { csv: 'a', dryRun: 'no', extra: 1 } });
    expect(malformed.status).toBe(400);
    expect(await countOf(id)).toEqual(before);
  });

  it('refuses a tournament that takes nobody new (409), and answers 404 to the admin for none', async () => {
    const { id } = await cup({ approved: 2 });
    await stage(api, id, { format: 'single_elimination' });
    const someone = await player(api);
    const drawn = await importCsv(id, someone.user.username, true);
    expect(drawn.status).toBe(409);
    expect((drawn.body as unknown as { message: string }).message).toMatch(/^Учасників більше не додати/);
    const missing = await importCsv('00000000-0000-4000-8000-000000000000', someone.user.username, true);
    expect(missing.status).toBe(404);
  });

  it('is for the tournament’s organisers only: 401 without a token, 403 for a player, another tournament’s staff or another organisation', async () => {
    const { id } = await cup();
    const elsewhere = await coOrganiser(api, (await cup()).id);
    const owner = await player(api);
    await api.call('POST', '/api/organisations', { token: owner.token, body: { name: `Чужа ${unique('')}` } });
    const csv = (await player(api)).user.username;
    expect((await importCsv(id, csv, true, null)).status).toBe(401);
    for (const token of [(await player(api)).token, elsewhere.token, owner.token]) {
      const res = await importCsv(id, csv, false, token);
      expect(res.status).toBe(403);
      expect(res.body).toHaveProperty('message');
    }
    // Refused before the body is read: a broken body from a stranger is 403, not 400.
    const broken = await api.call('POST', `/api/tournaments/${id}/participants/import`, { token: elsewhere.token, raw: '{"csv":' });
    expect(broken.status).toBe(403);
    expect((await countOf(id)).applications).toBe(0);
  });

  it('never passes the cap when imports run at once', async () => {
    const { id } = await cup({ settings: { maxParticipants: 5 } });
    await application(api, id, 'approved');
    const files: string[] = [];
    for (let i = 0; i < 6; i++) files.push([await player(api), await player(api)].map((p) => p.user.username).join('\n'));
    const answers = await Promise.all(files.map((csv) => importCsv(id, csv, false)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 422, 422, 422, 422]);
    for (const refused of answers.filter((a) => a.status === 422)) expect(refused.body.rows.map((r) => r.status)).toEqual(['overCap', 'overCap']);
    const [taken] = await api.db
      .select({ n: count() })
      .from(applications)
      .where(and(eq(applications.tournamentId, id), eq(applications.status, 'approved')));
    expect(taken!.n).toBe(5);
  });

  it('never passes the cap with players applying during an import', async () => {
    const { id } = await cup({ settings: { maxParticipants: 3 } });
    const importing = [await player(api), await player(api)];
    const applying = [await player(api), await player(api)];
    const answers = await Promise.all([
      importCsv(id, importing.map((p) => p.user.username).join('\n'), false),
      ...applying.map((p) => api.call('POST', '/api/applications', { token: p.token, body: { tournament: id } })),
    ]);
    expect(answers[0]!.status === 201 || answers[0]!.status === 422).toBe(true);
    const placed = await api.db
      .select({ n: count() })
      .from(applications)
      .where(and(eq(applications.tournamentId, id), sql`${applications.status} in ('pending', 'approved')`));
    expect(placed[0]!.n).toBeLessThanOrEqual(3);
  });
});
