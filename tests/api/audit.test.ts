import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminAuditEntry, AuditEntryView } from '../../src/lib/api/audit.ts';
import type { StageView } from '../../src/lib/api/stages.ts';
import { setResult, type Bracket } from '../../src/lib/domain/bracket.ts';
import { AUDIT_KINDS } from '../../src/lib/domain/organisers.ts';
import { applications, auditLog, users } from '../../src/server/db/schema/index.ts';
import { confirmDueReports } from '../../src/server/services/match-day/match-reports.ts';
import { closeCheckIn } from '../../src/server/services/match-day/registration.ts';
import { admin as adminOf, application, coOrganiser, game, player, stage, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * The audit log (issue 23): each change that decides a competition writes exactly its row — kind,
 * actor, before → after — in the change's transaction, and a refused change writes none; the
 * tournament's history shows guests what and when, its organisers who too; the admin filters the
 * whole log; no route and no query changes or deletes a row.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api);
});

type Row = typeof auditLog.$inferSelect;

const rowsOf = (tournamentId: string) => api.db.select().from(auditLog).where(eq(auditLog.tournamentId, tournamentId)).orderBy(asc(auditLog.createdAt), asc(auditLog.id));

/** The rows of the tournament's log that `action` wrote. */
async function written(tournamentId: string, action: () => Promise<unknown>): Promise<Row[]> {
  const before = (await rowsOf(tournamentId)).length;
  await action();
  return (await rowsOf(tournamentId)).slice(before);
}

/** What a test compares of a row: everything but its id and time. */
const seen = (row: Row) => ({
  kind: row.kind,
  actor: row.actorId === null ? null : { id: row.actorId, name: row.actorName },
  match: row.matchId,
  subject: row.subjectId,
  before: row.before,
  after: row.after,
});

const by = (who: Player) => ({ id: who.user.id, name: who.user.username });

/** Calls the API and checks the status: the change the test is about went through, or was refused as expected. */
async function expectCall(status: number, method: string, path: string, token: string | undefined, body?: unknown) {
  const res = await api.call(method, path, { token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res;
}

const result = (scoreA: number | null, scoreB: number | null, winner: 'a' | 'b' | null, forfeit: 'a' | 'b' | null = null) => ({ scoreA, scoreB, winner, forfeit });

/** A solo tournament of `count` new players (or these) with a single-elimination stage. */
async function cup(players: number | Player[], format: StageView['format'] = 'single_elimination') {
  const list = typeof players === 'number' ? await Promise.all(Array.from({ length: players }, () => player(api))) : players;
  const built = await tournament(api, { game: gameId, soloOnly: true, approved: list });
  const made = await stage(api, built.id, { format });
  return { id: built.id, players: list, stage: made, name: (i: number) => list[i]!.user.username };
}

describe('applications decided', () => {
  it('records an organiser’s approval and rejection with the status before and after, and nothing for a refused one', async () => {
    const cupBuilt = await tournament(api, { game: gameId, soloOnly: true, settings: { maxParticipants: 2 } });
    const [first, second, third] = [await player(api), await player(api), await player(api)];
    const a = await application(api, cupBuilt.id, 'pending', first);
    const staff = await coOrganiser(api, cupBuilt.id);

    const approved = await written(cupBuilt.id, () => expectCall(200, 'PATCH', `/api/applications/${a.id}/status`, staff.token, { status: 'approved' }));
    expect(approved.map(seen)).toEqual([
      {
        kind: 'applicationDecided',
        actor: by(staff),
        match: null,
        subject: a.id,
        before: { status: 'pending', applicant: first.user.username },
        after: { status: 'approved', applicant: first.user.username },
      },
    ]);

    // Full: the third waits in line. Approving it is refused (no place) and writes nothing.
    await application(api, cupBuilt.id, 'pending', second);
    const waiting = await application(api, cupBuilt.id, 'pending', third);
    expect(await written(cupBuilt.id, () => expectCall(409, 'PATCH', `/api/applications/${waiting.id}/status`, admin.token, { status: 'approved' }))).toEqual([]);
    // A stranger to the tournament is refused before anything is read.
    const stranger = await player(api);
    expect(await written(cupBuilt.id, () => expectCall(403, 'PATCH', `/api/applications/${a.id}/status`, stranger.token, { status: 'rejected' }))).toEqual([]);

    // Rejecting the approved one frees its place: the waitlist moves up, the server's own move.
    const rejected = await written(cupBuilt.id, () => expectCall(200, 'PATCH', `/api/applications/${a.id}/status`, admin.token, { status: 'rejected' }));
    expect(rejected.map(seen)).toEqual([
      {
        kind: 'applicationDecided',
        actor: by(admin),
        match: null,
        subject: a.id,
        before: { status: 'approved', applicant: first.user.username },
        after: { status: 'rejected', applicant: first.user.username },
      },
      {
        kind: 'applicationDecided',
        actor: null,
        match: null,
        subject: waiting.id,
        before: { status: 'waitlisted', applicant: third.user.username },
        after: { status: 'pending', applicant: third.user.username, automatic: true },
      },
    ]);
    // The same verdict again changes no status: no row.
    expect(await written(cupBuilt.id, () => expectCall(200, 'PATCH', `/api/applications/${a.id}/status`, admin.token, { status: 'rejected' }))).toEqual([]);
  });

  it('records an invited player’s answer as their decision, and nothing for an invite that is not theirs', async () => {
    const built = await tournament(api, { game: gameId, soloOnly: true });
    const invited = await player(api);
    const sent = await expectCall(201, 'POST', '/api/applications/invite', admin.token, { tournament: built.id, user: invited.user.id });
    const id = (sent.body as { application: { _id: string } }).application._id;
    const stranger = await player(api);
    expect(await written(built.id, () => expectCall(403, 'PATCH', `/api/applications/${id}/accept-invite`, stranger.token))).toEqual([]);
    const rows = await written(built.id, () => expectCall(200, 'PATCH', `/api/applications/${id}/accept-invite`, invited.token));
    expect(rows.map(seen)).toEqual([
      {
        kind: 'applicationDecided',
        actor: by(invited),
        match: null,
        subject: id,
        before: { status: 'pending', applicant: invited.user.username },
        after: { status: 'approved', applicant: invited.user.username },
      },
    ]);
  });

  it('records an organiser’s deletion, and nothing when the lineup is fixed', async () => {
    const built = await tournament(api, { game: gameId, soloOnly: true, approved: 2 });
    const extra = await player(api);
    const pending = await application(api, built.id, 'pending', extra);
    const deleted = await written(built.id, () => expectCall(200, 'DELETE', `/api/applications/${pending.id}`, admin.token));
    expect(deleted.map(seen)).toEqual([
      {
        kind: 'applicationDecided',
        actor: by(admin),
        match: null,
        subject: pending.id,
        before: { status: 'pending', applicant: extra.user.username },
        after: { status: 'deleted', applicant: extra.user.username },
      },
    ]);
    // A player withdrawing their own application decides nothing for the organisers: no row.
    const own = await application(api, built.id, 'pending');
    expect(await written(built.id, () => expectCall(200, 'DELETE', `/api/applications/${own.id}`, own.applicant.token))).toEqual([]);
    // Drawn: an approved participant stays (409), and the log says nothing happened.
    await stage(api, built.id, { format: 'single_elimination' });
    const [approvedRow] = await api.db
      .select({ id: applications.id })
      .from(applications)
      .where(and(eq(applications.tournamentId, built.id), eq(applications.status, 'approved')))
      .limit(1);
    expect(await written(built.id, () => expectCall(409, 'DELETE', `/api/applications/${approvedRow!.id}`, admin.token))).toEqual([]);
  });
});

describe('check-in', () => {
  const hour = 3_600_000;
  const openCup = () =>
    tournament(api, {
      game: gameId,
      soloOnly: true,
      date: new Date(Date.now() + 2 * hour).toISOString(),
      settings: { checkInEnabled: true, checkInOpensAt: new Date(Date.now() - hour).toISOString(), checkInClosesAt: new Date(Date.now() + hour).toISOString() },
    });

  it('records an organiser checking someone in or out, not a participant checking themselves in, and nothing refused', async () => {
    const built = await openCup();
    const [me, other] = [await player(api), await player(api)];
    const mine = await application(api, built.id, 'approved', me);
    const theirs = await application(api, built.id, 'approved', other);

    expect(await written(built.id, () => expectCall(200, 'POST', `/api/tournaments/${built.id}/check-in`, me.token, {}))).toEqual([]);
    const checkedIn = await written(built.id, () => expectCall(200, 'POST', `/api/tournaments/${built.id}/check-in`, admin.token, { applicationId: theirs.id }));
    expect(checkedIn.map(seen)).toEqual([
      {
        kind: 'checkInOverride',
        actor: by(admin),
        match: null,
        subject: theirs.id,
        before: { checkedIn: false, participant: other.user.username },
        after: { checkedIn: true, participant: other.user.username },
      },
    ]);
    const checkedOut = await written(built.id, () => expectCall(200, 'DELETE', `/api/tournaments/${built.id}/check-in`, admin.token, { applicationId: mine.id }));
    expect(checkedOut.map(seen)).toEqual([
      {
        kind: 'checkInOverride',
        actor: by(admin),
        match: null,
        subject: mine.id,
        before: { checkedIn: true, participant: me.user.username },
        after: { checkedIn: false, participant: me.user.username },
      },
    ]);
    // Not this tournament's application: 404, no row.
    const elsewhere = await application(api, (await openCup()).id, 'approved');
    expect(await written(built.id, () => expectCall(404, 'POST', `/api/tournaments/${built.id}/check-in`, admin.token, { applicationId: elsewhere.id }))).toEqual([]);
  });

  it('records the close’s drops and promotions as the server’s own decisions', async () => {
    const built = await openCup();
    const [stayed, missed] = [await player(api), await player(api)];
    const kept = await application(api, built.id, 'approved', stayed);
    const dropped = await application(api, built.id, 'approved', missed);
    await expectCall(200, 'POST', `/api/tournaments/${built.id}/check-in`, stayed.token, {});
    const rows = await written(built.id, () => closeCheckIn(api.db, built.id, new Date(Date.now() + 2 * hour)));
    expect(rows.map(seen)).toEqual([
      {
        kind: 'applicationDecided',
        actor: null,
        match: null,
        subject: dropped.id,
        before: { status: 'approved', applicant: missed.user.username },
        after: { status: 'noShow', applicant: missed.user.username, automatic: true },
      },
    ]);
    expect(rows.some((r) => r.subjectId === kept.id)).toBe(false);
  });
});

describe('stages', () => {
  it('records a stage created, with its format and participants, and nothing for a refused one', async () => {
    const built = await tournament(api, { game: gameId, soloOnly: true, approved: 3 });
    let made: StageView | undefined;
    const rows = await written(built.id, async () => {
      made = (await expectCall(201, 'POST', `/api/tournaments/${built.id}/stages`, admin.token, { format: 'round_robin', name: 'Групи' })).body.stage as StageView;
    });
    expect(rows.map(seen)).toEqual([
      {
        kind: 'stageCreated',
        actor: by(admin),
        match: null,
        subject: made!._id,
        before: null,
        after: { name: 'Групи', number: 1, format: 'round_robin', participants: 3 },
      },
    ]);
    const lonely = await tournament(api, { game: gameId, soloOnly: true, approved: 1 });
    expect(await written(lonely.id, () => expectCall(422, 'POST', `/api/tournaments/${lonely.id}/stages`, admin.token, { format: 'round_robin' }))).toEqual([]);
  });

  it('records a stage withdrawn by a redraw or a cleared bracket, with how many results went with it', async () => {
    const built = await tournament(api, { game: gameId, soloOnly: true, approved: 4 });
    const drawn = await expectCall(201, 'POST', `/api/tournaments/${built.id}/bracket`, admin.token, { seeding: 'order' });
    const bracket = drawn.body.bracket as Bracket;
    await expectCall(200, 'PATCH', `/api/tournaments/${built.id}/bracket`, admin.token, { bracket: setResult(bracket, 0, 0, bracket[0]!.matches[0]!.a!) });
    // Over a played result without `replace`: refused, nothing written.
    expect(await written(built.id, () => expectCall(409, 'POST', `/api/tournaments/${built.id}/bracket`, admin.token, {}))).toEqual([]);

    const redrawn = await written(built.id, () => expectCall(201, 'POST', `/api/tournaments/${built.id}/bracket`, admin.token, { replace: true }));
    expect(redrawn.map((r) => [r.kind, r.before, r.after])).toEqual([
      ['stageReset', { name: '', number: 1, format: 'single_elimination', participants: 4, results: 1 }, null],
      ['stageCreated', null, { name: '', number: 1, format: 'single_elimination', participants: 4 }],
    ]);
    expect(redrawn.every((r) => r.actorId === admin.user.id)).toBe(true);

    const cleared = await written(built.id, () => expectCall(200, 'PATCH', `/api/tournaments/${built.id}/bracket`, admin.token, { bracket: [] }));
    expect(cleared.map((r) => [r.kind, r.before])).toEqual([['stageReset', { name: '', number: 1, format: 'single_elimination', participants: 4, results: 0 }]]);
  });
});

describe('results', () => {
  it('records a result entered, and nothing for a stale version, a bad score or a stranger', async () => {
    const c = await cup(2);
    const final = c.stage.matches[0]!;
    const path = `/api/matches/${final._id}`;
    expect(await written(c.id, () => expectCall(409, 'PATCH', path, admin.token, { scoreA: 2, scoreB: 1, version: final.version + 5 }))).toEqual([]);
    expect(await written(c.id, () => expectCall(422, 'PATCH', path, admin.token, { scoreA: 1, scoreB: 1, version: final.version }))).toEqual([]);
    expect(await written(c.id, () => expectCall(403, 'PATCH', path, c.players[0]!.token, { scoreA: 2, scoreB: 1, version: final.version }))).toEqual([]);
    const rows = await written(c.id, () => expectCall(200, 'PATCH', path, admin.token, { scoreA: 2, scoreB: 1, version: final.version }));
    expect(rows.map(seen)).toEqual([
      {
        kind: 'resultEntered',
        actor: by(admin),
        match: final._id,
        subject: null,
        before: { a: c.name(0), b: c.name(1), result: null },
        after: { a: c.name(0), b: c.name(1), result: result(2, 1, 'a') },
      },
    ]);
    // A preview changes nothing, so writes nothing.
    expect(await written(c.id, () => expectCall(200, 'PATCH', path, admin.token, { scoreA: 0, scoreB: 2, version: final.version + 1, preview: true }))).toEqual([]);
  });

  it('records a correction, and a reset row for each match it withdrew, naming the corrected match', async () => {
    const c = await cup(4);
    const [semi1, semi2, final] = [c.stage.matches[0]!, c.stage.matches[1]!, c.stage.matches[2]!];
    await expectCall(200, 'PATCH', `/api/matches/${semi1._id}`, admin.token, { scoreA: 2, scoreB: 0, version: semi1.version });
    await expectCall(200, 'PATCH', `/api/matches/${semi2._id}`, admin.token, { scoreA: 2, scoreB: 0, version: semi2.version });
    const ready = (await api.call<{ match: { version: number } }>('GET', `/api/matches/${final._id}`)).body.match;
    await expectCall(200, 'PATCH', `/api/matches/${final._id}`, admin.token, { scoreA: 1, scoreB: 0, version: ready.version });
    const semiNow = (await api.call<{ match: { version: number; a: string; b: string } }>('GET', `/api/matches/${semi1._id}`)).body.match;
    const names = new Map(c.players.map((p) => [p.user.id, p.user.username]));

    const rows = await written(c.id, () => expectCall(200, 'PATCH', `/api/matches/${semi1._id}`, admin.token, { scoreA: 0, scoreB: 2, version: semiNow.version }));
    expect(rows.map(seen)).toEqual([
      {
        kind: 'resultCorrected',
        actor: by(admin),
        match: semi1._id,
        subject: null,
        before: { a: names.get(semiNow.a), b: names.get(semiNow.b), result: result(2, 0, 'a') },
        after: { a: names.get(semiNow.a), b: names.get(semiNow.b), result: result(0, 2, 'b') },
      },
      {
        kind: 'resultReset',
        actor: by(admin),
        match: final._id,
        subject: semi1._id,
        before: { a: names.get(semiNow.a), b: expect.any(String), result: result(1, 0, 'a') },
        after: { a: names.get(semiNow.b), b: expect.any(String), result: null },
      },
    ]);
  });

  it('records a result withdrawn, and nothing for a match without one', async () => {
    const c = await cup(2);
    const final = c.stage.matches[0]!;
    const path = `/api/matches/${final._id}`;
    expect(await written(c.id, () => expectCall(409, 'PATCH', path, admin.token, { reset: true, version: final.version }))).toEqual([]);
    await expectCall(200, 'PATCH', path, admin.token, { scoreA: 3, scoreB: 1, version: final.version });
    const rows = await written(c.id, () => expectCall(200, 'PATCH', path, admin.token, { reset: true, version: final.version + 1 }));
    expect(rows.map(seen)).toEqual([
      {
        kind: 'resultReset',
        actor: by(admin),
        match: final._id,
        subject: null,
        before: { a: c.name(0), b: c.name(1), result: result(3, 1, 'a') },
        after: { a: c.name(0), b: c.name(1), result: null },
      },
    ]);
  });

  it('records a forfeit as one', async () => {
    const c = await cup(2);
    const final = c.stage.matches[0]!;
    const rows = await written(c.id, () => expectCall(200, 'PATCH', `/api/matches/${final._id}`, admin.token, { forfeit: 'a', version: final.version }));
    expect(rows.map(seen)).toEqual([
      {
        kind: 'forfeit',
        actor: by(admin),
        match: final._id,
        subject: null,
        before: { a: c.name(0), b: c.name(1), result: null },
        after: { a: c.name(0), b: c.name(1), result: result(0, 0, 'b', 'a') },
      },
    ]);
  });

  it('records a disqualification once, with the forfeits it made, and nothing when already disqualified', async () => {
    const c = await cup(3, 'round_robin');
    const out = c.players[0]!;
    const rows = await written(c.id, () => expectCall(200, 'POST', `/api/tournaments/${c.id}/disqualify`, admin.token, { participant: out.user.id }));
    expect(rows.map(seen)).toEqual([
      { kind: 'disqualified', actor: by(admin), match: null, subject: out.user.id, before: null, after: { participant: out.user.username, forfeits: 2 } },
    ]);
    expect(await written(c.id, () => expectCall(409, 'POST', `/api/tournaments/${c.id}/disqualify`, admin.token, { participant: out.user.id }))).toEqual([]);
  });

  it('records the organiser’s result on a disputed match as the dispute resolved', async () => {
    const c = await cup(2);
    const final = c.stage.matches[0]!;
    const [a, b] = c.players as [Player, Player];
    const staff = await coOrganiser(api, c.id);
    await expectCall(200, 'POST', `/api/matches/${final._id}/report`, a.token, { scoreA: 2, scoreB: 0 });
    // Reports and disputes are the players' words, not decisions: no rows.
    const disputed = await written(c.id, () => expectCall(200, 'POST', `/api/matches/${final._id}/dispute`, b.token, { reason: 'Було 0:2' }));
    expect(disputed).toEqual([]);
    const version = (await api.call<{ match: { version: number } }>('GET', `/api/matches/${final._id}`)).body.match.version;
    const rows = await written(c.id, () => expectCall(200, 'PATCH', `/api/matches/${final._id}`, staff.token, { scoreA: 0, scoreB: 2, version }));
    expect(rows.map(seen)).toEqual([
      {
        kind: 'disputeResolved',
        actor: by(staff),
        match: final._id,
        subject: null,
        before: { a: c.name(0), b: c.name(1), result: null },
        after: { a: c.name(0), b: c.name(1), result: result(0, 2, 'b') },
      },
    ]);
  });

  it('records a players’ confirmed report as a result entered by the confirming player, and the automatic confirmation by nobody', async () => {
    const c = await cup(2);
    const final = c.stage.matches[0]!;
    const [a, b] = c.players as [Player, Player];
    await expectCall(200, 'POST', `/api/matches/${final._id}/report`, a.token, { scoreA: 2, scoreB: 1 });
    // Confirming one's own report is refused: nothing written.
    expect(await written(c.id, () => expectCall(409, 'POST', `/api/matches/${final._id}/confirm`, a.token, {}))).toEqual([]);
    const rows = await written(c.id, () => expectCall(200, 'POST', `/api/matches/${final._id}/confirm`, b.token, {}));
    expect(rows.map(seen)).toEqual([
      {
        kind: 'resultEntered',
        actor: by(b),
        match: final._id,
        subject: null,
        before: { a: c.name(0), b: c.name(1), result: null },
        after: { a: c.name(0), b: c.name(1), result: result(2, 1, 'a') },
      },
    ]);

    const later = await cup(2);
    const next = later.stage.matches[0]!;
    await expectCall(200, 'POST', `/api/matches/${next._id}/report`, later.players[1]!.token, { scoreA: 0, scoreB: 1 });
    const auto = await written(later.id, () => confirmDueReports(api.db, new Date(Date.now() + 7 * 24 * 3_600_000), next._id));
    expect(auto.map(seen)).toEqual([
      {
        kind: 'resultEntered',
        actor: null,
        match: next._id,
        subject: null,
        before: { a: later.name(0), b: later.name(1), result: null },
        after: { a: later.name(0), b: later.name(1), result: result(0, 1, 'b') },
      },
    ]);
  });

  it('records each result a SPEC bracket save changed, and nothing for a refused or stale save', async () => {
    const built = await tournament(api, { game: gameId, soloOnly: true, approved: 4 });
    const drawn = await expectCall(201, 'POST', `/api/tournaments/${built.id}/bracket`, admin.token, {});
    const bracket = drawn.body.bracket as Bracket;
    const version = drawn.body.version as number;
    const both = setResult(setResult(bracket, 0, 0, bracket[0]!.matches[0]!.b!), 0, 1, bracket[0]!.matches[1]!.a!);
    expect(await written(built.id, () => expectCall(409, 'PATCH', `/api/tournaments/${built.id}/bracket`, admin.token, { bracket: both, version: version - 1 }))).toEqual([]);
    const wrong = structuredClone(both);
    wrong[0]!.matches[0]!.winner = bracket[0]!.matches[1]!.a!;
    expect(await written(built.id, () => expectCall(422, 'PATCH', `/api/tournaments/${built.id}/bracket`, admin.token, { bracket: wrong, version }))).toEqual([]);
    const rows = await written(built.id, () => expectCall(200, 'PATCH', `/api/tournaments/${built.id}/bracket`, admin.token, { bracket: both, version }));
    expect(rows.map((r) => [r.kind, r.actorId, (r.after as { result: unknown }).result])).toEqual([
      ['resultEntered', admin.user.id, result(null, null, 'b')],
      ['resultEntered', admin.user.id, result(null, null, 'a')],
    ]);
    expect(new Set(rows.map((r) => r.matchId)).size).toBe(2);
  });
});

describe('the winner', () => {
  it('records the winner chosen (and the finish it made), and nothing for a refused choice', async () => {
    const built = await tournament(api, { game: gameId, soloOnly: true, approved: 2, status: 'started' });
    const outsider = await player(api);
    expect(
      await written(built.id, () => expectCall(422, 'PATCH', `/api/tournaments/${built.id}/winner`, admin.token, { winnerType: 'user', winnerId: outsider.user.id, finish: true })),
    ).toEqual([]);
    const champion = built.approved[0]!;
    const rows = await written(built.id, () =>
      expectCall(200, 'PATCH', `/api/tournaments/${built.id}/winner`, admin.token, { winnerType: 'user', winnerId: champion, finish: true }),
    );
    const [{ name } = { name: '' }] = await api.db.select({ name: users.username }).from(users).where(eq(users.id, champion));
    expect(rows.map(seen)).toEqual([
      { kind: 'winnerSet', actor: by(admin), match: null, subject: champion, before: { winner: null }, after: { winner: name, finished: true } },
    ]);
    // Chosen once: a second choice is refused and writes nothing.
    expect(await written(built.id, () => expectCall(409, 'PATCH', `/api/tournaments/${built.id}/winner`, admin.token, { winnerType: 'user', winnerId: champion }))).toEqual([]);
  });
});

describe('the history of a tournament', () => {
  let cupId: string;
  let staff: Player;
  let otherStaff: Player;

  beforeAll(async () => {
    const c = await cup(4);
    cupId = c.id;
    staff = await coOrganiser(api, c.id);
    otherStaff = await coOrganiser(api, (await tournament(api, { game: gameId, soloOnly: true })).id);
    for (const m of c.stage.matches.slice(0, 2)) await expectCall(200, 'PATCH', `/api/matches/${m._id}`, staff.token, { scoreA: 1, scoreB: 0, version: m.version });
  });

  const history = (token?: string, query = '') => api.call<AuditEntryView[]>('GET', `/api/tournaments/${cupId}/history${query}`, { token });

  it('shows guests, players and other tournaments’ staff what and when, newest first, without who', async () => {
    for (const token of [undefined, (await player(api)).token, otherStaff.token]) {
      const res = await history(token);
      expect(res.status).toBe(200);
      expect(res.body.map((e) => e.kind)).toEqual([
        'resultEntered',
        'resultEntered',
        'staffAdded',
        'stageCreated',
        'applicationDecided',
        'applicationDecided',
        'applicationDecided',
        'applicationDecided',
      ]);
      expect(res.body.every((e) => !('actor' in e))).toBe(true);
      // Who made the changes is nowhere in it (the organisers' names are public, on the staff list).
      expect(JSON.stringify(res.body)).not.toContain(admin.user.username);
      expect(res.body[2]!.after).toEqual({ username: staff.user.username });
    }
    expect((await history()).headers.get('cache-control')).toMatch(/public/);
  });

  it('shows its organisers and the admins who, too (never stored by a shared cache)', async () => {
    for (const token of [staff.token, admin.token]) {
      const res = await history(token);
      expect(res.body[0]!.actor).toEqual({ _id: staff.user.id, username: staff.user.username });
      expect(res.body.at(-1)!.actor).toEqual({ _id: admin.user.id, username: admin.user.username });
      expect(res.headers.get('cache-control')).toMatch(/no-store/);
    }
  });

  it('names to guests only applicants approved before or after a decision; organisers and admins read every name', async () => {
    const built = await tournament(api, { game: gameId, soloOnly: true, settings: { maxParticipants: 2 } });
    const [kept, fell, turned, gone, waiter] = await Promise.all(Array.from({ length: 5 }, () => player(api)));
    const decide = (id: string, status: string) => expectCall(200, 'PATCH', `/api/applications/${id}/status`, admin.token, { status });
    await decide((await application(api, built.id, 'pending', kept!)).id, 'approved');
    const fallen = await application(api, built.id, 'pending', fell!);
    await decide(fallen.id, 'approved');
    const refused = await application(api, built.id, 'pending', turned!);
    await decide(refused.id, 'rejected');
    const deleted = await application(api, built.id, 'pending', gone!);
    await expectCall(200, 'DELETE', `/api/applications/${deleted.id}`, admin.token);
    // Full: the waiter waits; the approved one rejected frees a place and the waiter moves up to pending.
    const waiting = await application(api, built.id, 'pending', waiter!);
    await decide(fallen.id, 'rejected');
    const staffer = await coOrganiser(api, built.id);
    const read = (token?: string) => api.call<AuditEntryView[]>('GET', `/api/tournaments/${built.id}/history`, { token });

    for (const token of [undefined, (await player(api)).token, otherStaff.token]) {
      const { body } = await read(token);
      const text = JSON.stringify(body);
      // Approved at some point: named, on the page as on the participants' list.
      expect(text).toContain(kept!.user.username);
      expect(text).toContain(fell!.user.username);
      // Rejected, deleted, waitlisted: neither their name nor their application’s id.
      for (const hidden of [turned!, gone!, waiter!]) expect(text).not.toContain(hidden.user.username);
      for (const id of [refused.id, deleted.id, waiting.id]) expect(text).not.toContain(id);
      const decisions = body.filter((e) => e.kind === 'applicationDecided');
      expect(decisions.map((e) => [e.before, e.after])).toEqual([
        [{ status: 'waitlisted' }, { status: 'pending', automatic: true }],
        [
          { status: 'approved', applicant: fell!.user.username },
          { status: 'rejected', applicant: fell!.user.username },
        ],
        // Applied once the two places were taken: waitlisted.
        [{ status: 'waitlisted' }, { status: 'deleted' }],
        [{ status: 'waitlisted' }, { status: 'rejected' }],
        [
          { status: 'pending', applicant: fell!.user.username },
          { status: 'approved', applicant: fell!.user.username },
        ],
        [
          { status: 'pending', applicant: kept!.user.username },
          { status: 'approved', applicant: kept!.user.username },
        ],
      ]);
    }
    for (const token of [staffer.token, admin.token]) {
      const { body } = await read(token);
      const text = JSON.stringify(body);
      for (const named of [kept!, fell!, turned!, gone!, waiter!]) expect(text).toContain(named.user.username);
      expect(body.find((e) => e.subject === refused.id)?.after).toEqual({ status: 'rejected', applicant: turned!.user.username });
    }
    // The admin's whole log names everyone too.
    const log = await api.call<AdminAuditEntry[]>('GET', `/api/audit?tournament=${built.id}`, { token: admin.token });
    expect(JSON.stringify(log.body)).toContain(waiter!.user.username);
  });

  it('pages by the last entry’s id, with a Link to the next page, and refuses a bad cursor or limit', async () => {
    const all = (await history(admin.token)).body;
    const first = await history(undefined, '?limit=3');
    expect(first.body.map((e) => e._id)).toEqual(all.slice(0, 3).map((e) => e._id));
    const link = first.headers.get('link');
    expect(link).toContain(`before=${all[2]!._id}`);
    const next = await api.call<AuditEntryView[]>('GET', /<([^>]+)>/.exec(link!)![1]!);
    expect(next.body.map((e) => e._id)).toEqual(all.slice(3, 6).map((e) => e._id));
    const last = await history(undefined, `?limit=3&before=${all[5]!._id}`);
    expect(last.body.map((e) => e._id)).toEqual(all.slice(6).map((e) => e._id));
    expect(last.headers.get('link')).toBeNull();
    for (const query of ['?before=nope', '?limit=0', '?limit=101', '?limit=x']) {
      const res = await history(undefined, query);
      expect(res.status, query).toBe(400);
      expect(typeof (res.body as unknown as { message: string }).message).toBe('string');
    }
    expect((await history(undefined, '?before=nope')).body).toEqual({ message: 'Некоректний ідентифікатор' });
    expect((await api.call('GET', '/api/tournaments/00000000-0000-4000-8000-000000000000/history')).status).toBe(404);
  });
});

describe('the admin’s log', () => {
  let first: Awaited<ReturnType<typeof cup>>;
  let staff: Player;
  let start: string;

  beforeAll(async () => {
    start = new Date(Date.now() - 1000).toISOString();
    first = await cup(2);
    staff = await coOrganiser(api, first.id);
    const m = first.stage.matches[0]!;
    await expectCall(200, 'PATCH', `/api/matches/${m._id}`, staff.token, { scoreA: 2, scoreB: 0, version: m.version });
  });

  const log = (query: string, token = admin.token) => api.call<AdminAuditEntry[]>('GET', `/api/audit${query}`, { token });

  it('is the admin’s only', async () => {
    expect((await log('', '')).status).toBe(401);
    expect((await log('', staff.token)).status).toBe(403);
  });

  it('filters by tournament, kind, actor and time, with titles and actors', async () => {
    const ofCup = await log(`?tournament=${first.id}`);
    expect(ofCup.status).toBe(200);
    expect(ofCup.body.map((e) => e.kind)).toEqual(['resultEntered', 'staffAdded', 'stageCreated', 'applicationDecided', 'applicationDecided']);
    expect(ofCup.body.every((e) => e.tournament === first.id && typeof e.tournamentTitle === 'string' && e.tournamentTitle.length > 0)).toBe(true);

    const results = await log(`?tournament=${first.id}&kind=resultEntered`);
    expect(results.body).toHaveLength(1);
    expect(results.body[0]!.actor).toEqual({ _id: staff.user.id, username: staff.user.username });

    const bystaff = await log(`?actor=${staff.user.id}`);
    expect(bystaff.body.map((e) => [e.kind, e.tournament])).toEqual([['resultEntered', first.id]]);

    const since = await log(`?from=${encodeURIComponent(start)}&kind=stageCreated&tournament=${first.id}`);
    expect(since.body).toHaveLength(1);
    const before = await log(`?to=${encodeURIComponent(start)}&tournament=${first.id}`);
    expect(before.body).toEqual([]);
    expect(new Set(AUDIT_KINDS)).toContain(ofCup.body[0]!.kind);
  });

  it('pages the whole log newest first, and refuses bad filters with 400', async () => {
    const everything: string[] = [];
    let next: string | null = '/api/audit?limit=7';
    while (next) {
      const res: { body: AdminAuditEntry[]; headers: Headers } = await api.call<AdminAuditEntry[]>('GET', next, { token: admin.token });
      everything.push(...res.body.map((e) => e._id));
      next = /<([^>]+)>/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    }
    const total = await api.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    expect(everything).toHaveLength(total[0]!.n);
    expect(new Set(everything).size).toBe(everything.length);
    const times = (await log('?limit=100')).body.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    for (const query of ['?kind=everything', '?actor=1', '?tournament=x', '?from=yesterday', '?to=2030-13-01T00:00:00Z', '?limit=500']) {
      const res = await log(query);
      expect(res.status, query).toBe(400);
      expect(typeof (res.body as unknown as { message: string }).message).toBe('string');
    }
    expect((await log('?from=yesterday')).body).toEqual({ message: 'Час має бути у форматі ISO 8601, наприклад 2030-05-01T16:00:00Z' });
  });
});

describe('the log is kept as written', () => {
  it('has no route that changes it: only GETs under its addresses', async () => {
    const doc = await api.call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/api/openapi.json');
    const logPaths = Object.keys(doc.body.paths).filter((p) => p.startsWith('/api/audit') || p.startsWith('/api/tournaments/{id}/history'));
    expect(logPaths.sort()).toEqual(['/api/audit', '/api/tournaments/{id}/history']);
    for (const path of logPaths) expect(Object.keys(doc.body.paths[path]!)).toEqual(['get']);
    // And writing to them is no route at all.
    const [row] = await api.db.select().from(auditLog).limit(1);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect((await api.call(method, '/api/audit', { token: admin.token, body: {} })).status, method).toBeGreaterThanOrEqual(404);
      expect((await api.call(method, `/api/audit/${row!.id}`, { token: admin.token, body: {} })).status, method).toBeGreaterThanOrEqual(404);
    }
  });

  it('refuses an UPDATE or a DELETE in the database itself', async () => {
    const [row] = await api.db.select().from(auditLog).limit(1);
    const count = async () => (await api.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;
    const before = await count();
    await expect(api.db.update(auditLog).set({ actorName: 'someone else' }).where(eq(auditLog.id, row!.id))).rejects.toThrow();
    await expect(api.db.delete(auditLog).where(eq(auditLog.id, row!.id))).rejects.toThrow();
    await expect(api.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    expect(await count()).toBe(before);
    const [again] = await api.db.select().from(auditLog).where(eq(auditLog.id, row!.id));
    expect(again).toEqual(row);
  });
});
