import { createECDH, randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../src/server/db/schema/index.ts';
import { createUser } from '../../src/server/services/accounts/accounts.ts';
import { notify } from '../../src/server/services/notices/notifications.ts';
import {
  admin,
  application,
  coOrganiser,
  game,
  invitedTeam,
  player,
  recordedMatch,
  stage,
  statsGame,
  statsOn,
  tournament,
  useTestApi,
  type Player,
} from '../support/builders.ts';
import { BOT_TOKEN, startTelegramService } from '../support/telegram-service.ts';
import { discordSignIn } from '../../src/server/sign-in/discord.ts';

/*
 * The authorization matrix (issue 10): every registered route, called by every kind of caller,
 * with the status each must get. A route without a row fails the last test.
 */

/**
 * `staff`: a co-organiser (issue 23) of the tournaments the organiser rows use, and of no other.
 * `orgOwner`, `orgAdmin`, `orgStaff`: the people of organisation A (issue 56), who organise its
 * tournaments and nothing of the site's or of another organisation's.
 */
const ACTORS = ['guest', 'unconfirmed', 'user', 'member', 'captain', 'otherCaptain', 'staff', 'orgOwner', 'orgAdmin', 'orgStaff', 'admin'] as const;
type Actor = (typeof ACTORS)[number];
type Expect = Record<Actor, number>;

interface Request {
  path: string;
  body?: unknown;
  /** Overrides the actor's token (null: none). */
  token?: string | null;
  ip?: string;
}

interface Row {
  route: string;
  request: (actor: Actor) => Request | Promise<Request>;
  expect: Expect;
}

/** Telegram's Bot API stand-in (issue 60): the bot is on, and @matrix_news is a channel where it may post. */
const telegram = await startTelegramService();
telegram.chat({ id: -1001000000777, username: 'matrix_news', botStatus: 'administrator' });
afterAll(() => telegram.close());
const api = useTestApi({
  telegram: { apiRoot: telegram.apiRoot, token: BOT_TOKEN },
  // Sign-in with Discord (issue 60): on, aimed at an address never reached (only its start, which asks no one, is called here).
  signInProviders: { discord: discordSignIn({ clientId: '123456789012345678', clientSecret: 'matrix-secret', root: 'http://127.0.0.1:9', redirectUri: 'https://arena.test/api/auth/discord/callback' }) },
});
const people = {} as Record<Exclude<Actor, 'guest' | 'unconfirmed'>, Player>;
const w = {} as Record<string, string>;
/** Letters and digits only, so it also fits a stat field's name. */
const unique = () => randomUUID().slice(0, 8);
const DISCORD_WEBHOOK = `https://discord.com/api/webhooks/112233445566778899/${'a'.repeat(68)}`;

/** Everyone the same status. */
const all = (status: number): Expect => Object.fromEntries(ACTORS.map((a) => [a, status])) as Expect;
/** Signed-in callers get `ok`; a guest (and the unconfirmed account, which cannot sign in) 401. */
const signed = (ok: number, overrides: Partial<Expect> = {}): Expect => ({ ...all(ok), guest: 401, unconfirmed: 401, ...overrides });
/** Admins get `ok`; other signed-in callers 403. */
const adminOnly = (ok: number): Expect => signed(403, { admin: ok });
/** The tournament's organisers (decision 016): its admin and its staff get `ok` (the staff `staffOk`); other signed-in callers 403. */
const organiser = (ok: number, staffOk = ok): Expect => signed(403, { admin: ok, staff: staffOk });
const isOrgActor = (a: Actor) => a === 'orgOwner' || a === 'orgAdmin' || a === 'orgStaff';
/** Organisation A's owner and admins get `ok`; its staff and everyone else signed in 403. */
const orgManagers = (ok: number): Expect => signed(403, { orgOwner: ok, orgAdmin: ok });
/** Only team A's captain gets `ok`. */
const captainOnly = (ok: number): Expect => signed(403, { captain: ok });

/** A browser's push subscription of each caller's own (issue 60): a valid P-256 key, an endpoint nobody else holds. */
const pushDevice = (actor: Actor) => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint: `https://push.example.test/matrix/${actor}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: 'AAAAAAAAAAAAAAAAAAAAAA' } };
};

const tokenOf = (actor: Actor): string | undefined => (actor === 'guest' || actor === 'unconfirmed' ? undefined : people[actor].token);

async function ok<T = Record<string, unknown>>(method: string, path: string, token: string | undefined, body?: unknown) {
  const res = await api.call<T>(method, path, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Organisation A's webhooks deleted, so a row may register more than the organisation's limit over its callers. */
async function clearWebhooks() {
  const { webhooks } = await ok<{ webhooks: { _id: string }[] }>('GET', `/api/organisations/${w.orgA}/webhooks`, people.orgOwner.token);
  for (const hook of webhooks) await ok('DELETE', `/api/organisations/${w.orgA}/webhooks/${hook._id}`, people.orgOwner.token);
}

async function login(person: Player): Promise<string> {
  const body = await ok<{ token: string }>('POST', '/api/auth/login', undefined, { loginOrEmail: person.user.username, password: person.password });
  return body.token;
}

/** A new solo or team tournament of the matrix's game, with no participants. */
const newTournament = async (soloOnly: boolean) => (await tournament(api, { game: w.game, soloOnly })).id;

beforeAll(async () => {
  people.admin = await admin(api);
  people.user = await player(api);
  people.member = await player(api);
  people.captain = await player(api);
  people.otherCaptain = await player(api);
  people.staff = await player(api);
  people.orgOwner = await player(api);
  people.orgAdmin = await player(api);
  people.orgStaff = await player(api);
  w.orgA = await organisationOf(people.orgOwner, { orgAdmin: 'admin', orgStaff: 'staff' });
  // Staff of a tournament of its own, for the check that staff elsewhere is refused before the body.
  w.elsewhereStaff = (await coOrganiser(api, await newTournament(true))).token;
  const unconfirmed = `unconfirmed_${unique()}`;
  await createUser(api.db, { username: unconfirmed, email: `${unconfirmed}@example.test`, password: 'correct-horse-9' });
  w.unconfirmed = unconfirmed;

  w.game = await statsGame(api, { name: `Матриця ${unique()}` });
  w.spareGame = await game(api, `Запасна ${unique()}`);
  w.orgTournament = (
    await ok<{ tournament: { _id: string } }>('POST', '/api/tournaments', people.orgOwner.token, {
      title: `Турнір організації ${unique()}`,
      date: '2030-06-01',
      game: w.game,
      organisation: w.orgA,
    })
  ).tournament._id;
  // Seasons (issue 59): one of organisation A's, to change and to join its tournament to.
  w.seasonA = await seasonOf(people.orgOwner);
  w.solo = await newTournament(true);
  w.team = await newTournament(false);
  w.spareTournament = await newTournament(true);
  w.winnerTournament = await newTournament(true);
  w.bracketTournament = await newTournament(true);

  // Team A: the captain, the member, three more and one to remove, all joined through invites.
  const teamA = await invitedTeam(api, 6, people.captain, [people.member]);
  w.teamA = teamA.team._id;
  w.removable = teamA.members.at(-1)!.user.id;
  w.teamB = (await invitedTeam(api, 1, people.otherCaptain)).team._id;
  // A pending invite from team B for the plain user (accepted in its row), and one from team C (rejected).
  await ok('POST', `/api/teams/${w.teamB}/invite`, people.otherCaptain.token, { query: people.user.user.username });
  const teamC = await invitedTeam(api, 1);
  w.teamC = teamC.team._id;
  await ok('POST', `/api/teams/${w.teamC}/invite`, teamC.captain.token, { query: people.user.user.username });
  // A pending invite of team A to withdraw.
  const invitee = await player(api);
  const invited = await ok<{ team: { invites: { inviteId: string; _id: string }[] } }>('POST', `/api/teams/${w.teamA}/invite`, people.captain.token, {
    query: invitee.user.username,
  });
  w.invite = invited.team.invites.find((i) => i._id === invitee.user.id)!.inviteId;

  await ok('POST', `/api/team/${w.teamA}/chat`, people.member.token, { message: 'Привіт, команда!' });

  const news = await ok<{ _id: string }>('POST', '/api/news', people.admin.token, { title: `Новина ${unique()}`, content: 'Текст.' });
  w.news = news._id;
  const doomed = await ok<{ _id: string }>('POST', '/api/news', people.admin.token, { title: `Видалити ${unique()}`, content: 'Текст.' });
  w.doomedNews = doomed._id;

  w.applicationStatus = (await application(api, w.solo)).id;
  w.applicationStatusAlias = (await application(api, w.solo)).id;
  w.applicationDoomed = (await application(api, w.solo)).id;
  // The staff decide applications of their own (the admin's are decided once).
  w.applicationStatusStaff = (await application(api, w.solo)).id;
  w.applicationStatusAliasStaff = (await application(api, w.solo)).id;
  w.applicationDoomedStaff = (await application(api, w.solo)).id;

  // Statistics on a tournament of the user and the member, with one recorded duel, so the leaderboards have rows.
  w.stats = (await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member] })).id;
  await statsOn(api, w.stats);
  await recordedMatch(api, w.stats, {
    participant1Type: 'user',
    participant1Id: people.user.user.id,
    participant2Type: 'user',
    participant2Id: people.member.user.id,
    score1: 2,
    score2: 1,
  });
  const field = await ok<{ field: { fieldName: string } }>('POST', `/api/game-management/${w.game}/add-stat-field`, people.admin.token, {
    fieldName: 'doomedField',
    displayName: 'Видалити',
  });
  w.doomedField = field.field.fieldName;
  const achievement = await ok<{ achievement: { _id: string } }>('POST', `/api/game-management/${w.game}/add-achievement`, people.admin.token, {
    name: 'Видалити',
    description: 'Опис',
    condition: 'wins >= 1',
  });
  w.doomedAchievement = achievement.achievement._id;

  // A competition: a Swiss stage of four (its first round ready) and a tournament to disqualify in.
  const swiss = await tournament(api, { game: w.game, soloOnly: true, approved: 4 });
  w.stages = swiss.id;
  const swissStage = await stage(api, swiss.id, { format: 'swiss' });
  w.swissStage = swissStage._id;
  w.stageMatch = swissStage.matches[0]!._id;
  w.stageMatchStaff = swissStage.matches[1]!._id;
  const dq = await tournament(api, { game: w.game, soloOnly: true, approved: 3 });
  w.dqTournament = dq.id;
  w.dqParticipant = dq.approved[0]!;
  w.dqParticipantStaff = dq.approved[1]!;
  await stage(api, dq.id, { format: 'round_robin' });
  w.stagesNew = (await tournament(api, { game: w.game, soloOnly: true, approved: 2 })).id;
  w.stagesNewStaff = (await tournament(api, { game: w.game, soloOnly: true, approved: 2 })).id;
  // Registration and check-in (issue 22): the user approved where check-in is open, and a pending application of the user's to withdraw.
  const hour = 3_600_000;
  const checkInCup = await tournament(api, {
    game: w.game,
    soloOnly: true,
    date: new Date(Date.now() + 2 * hour).toISOString(),
    settings: { checkInEnabled: true, checkInOpensAt: new Date(Date.now() - hour).toISOString(), checkInClosesAt: new Date(Date.now() + hour).toISOString() },
  });
  w.checkIn = checkInCup.id;
  w.checkInApplication = (await application(api, checkInCup.id, 'approved', people.user)).id;
  w.ownApplication = (await application(api, await newTournament(true), 'pending', people.user)).id;
  // Schedules and calendars (issue 22): a stage to time, and a calendar address of a player of its own (the user's may be revoked).
  const timed = await tournament(api, { game: w.game, soloOnly: true, approved: 2 });
  w.timed = timed.id;
  w.timedStage = (await stage(api, timed.id, { format: 'single_elimination' }))._id;
  const feedOwner = await player(api);
  w.calendarFile = (await ok<{ url: string }>('GET', '/api/users/me/calendar', feedOwner.token)).url.split('/').at(-1)!;
  // Players' reports (issue 22): three finals of the user (side a) and the member; in two the user has reported.
  for (const name of ['reportMatch', 'confirmMatch', 'disputeMatch']) {
    const duel = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member] });
    w[name] = (await stage(api, duel.id, { format: 'single_elimination' })).matches[0]!._id;
    if (name !== 'reportMatch') await ok('POST', `/api/matches/${w[name]}/report`, people.user.token, { scoreA: 1, scoreB: 0 });
  }
  // Calls for the organisers (issue 57): a final of the user and the member nobody called, and two called by the user for the organisers to answer.
  for (const name of ['callMatch', 'answerMatch', 'answerMatchStaff']) {
    const duel = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member] });
    w[`${name}Tournament`] = duel.id;
    w[name] = (await stage(api, duel.id, { format: 'single_elimination' })).matches[0]!._id;
    if (name !== 'callMatch') await ok('POST', `/api/matches/${w[name]}/call`, people.user.token, { reason: 'Допоможіть' });
  }
  // The map veto (issue 58): the matrix's game gets a pool; a final of the user (the higher seed: side a, who starts) and the member with a veto.
  await ok('PUT', `/api/games/${w.game}/maps`, people.admin.token, { maps: ['Ancient', 'Anubis', 'Dust II', 'Inferno', 'Mirage', 'Nuke', 'Overpass'], sides: ['CT', 'T'] });
  const vetoDuel = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member] });
  w.vetoMatch = (await stage(api, vetoDuel.id, { format: 'single_elimination', settings: { veto: {} } })).matches[0]!._id;
  // Evidence (issue 58): a final of the user (side a) and the member, one screenshot of the user's already in it; the staff organise it.
  const evidenceDuel = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member] });
  w.evidenceTournament = evidenceDuel.id;
  w.evidenceMatch = (await stage(api, evidenceDuel.id, { format: 'single_elimination' })).matches[0]!._id;
  const firstEvidence = await ok<{ evidence: { _id: string }[] }>('POST', `/api/matches/${w.evidenceMatch}/evidence`, people.user.token, await screenshotForm());
  w.evidence = firstEvidence.evidence[0]!._id;
  // The match chat (issue 58): a final of the user and the member; its tournament's staff is the staff actor.
  const chatDuel = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member] });
  w.chatTournament = chatDuel.id;
  w.chatMatch = (await stage(api, chatDuel.id, { format: 'single_elimination' })).matches[0]!._id;
  // A free-for-all lobby (issue 59) of the user, the member and two more; its tournament's staff is the staff actor.
  const lobbyCup = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member, await player(api), await player(api)] });
  w.lobbyTournament = lobbyCup.id;
  const lobby = (await stage(api, lobbyCup.id, { format: 'free_for_all', settings: { lobbySize: 4, games: 20 } })).lobbies[0]!;
  w.lobby = lobby._id;
  w.lobbyMembers = JSON.stringify(lobby.members);
  // The room's check-in and lobby details (issue 58): a final of the user and the member in a tournament that asks for a check-in to each match.
  const roomDuel = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member], settings: { matchCheckInMinutes: 10 } });
  w.roomTournament = roomDuel.id;
  w.roomMatch = (await stage(api, roomDuel.id, { format: 'single_elimination' })).matches[0]!._id;
  // Venue networks (issue 57): a tournament each for the admin and the staff to ask on, one each with a request to withdraw, one waiting for the admin.
  for (const name of ['venueAsk', 'venueAskStaff', 'venueWithdraw', 'venueWithdrawStaff', 'venueDecideCup']) w[name] = await newTournament(true);
  for (const name of ['venueWithdraw', 'venueWithdrawStaff', 'venueDecideCup']) {
    const asked = await ok<{ request: { _id: string } }>('POST', `/api/tournaments/${w[name]}/venue-network`, people.admin.token, { networks: ['192.0.2.0/24'], note: 'Зала' });
    w[`${name}Request`] = asked.request._id;
  }
  // The staff actor organises every tournament the organiser rows use; a co-organiser of the solo cup to remove last.
  // Staff of the tournaments of admin-only rows too (editing, statistics), which they may not do.
  for (const id of [
    w.solo,
    w.winnerTournament,
    w.bracketTournament,
    w.checkIn,
    w.stages,
    w.stagesNewStaff,
    w.dqTournament,
    w.timed,
    w.spareTournament,
    w.stats,
    w.answerMatchStaffTournament,
    w.evidenceTournament,
    w.chatTournament,
    w.lobbyTournament,
    w.roomTournament,
    w.venueAskStaff,
    w.venueWithdrawStaff,
  ]) {
    await coOrganiser(api, id!, people.staff);
  }
  w.removableStaff = (await coOrganiser(api, w.solo!)).user.id;
});

/** A multipart upload of one small screenshot (`files`), for the evidence rows. */
async function screenshotForm(): Promise<FormData> {
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'screen.png');
  return form;
}

/** A new organisation owned by `owner`, with `roles` of the matrix's people in it; its id. */
async function organisationOf(owner: Player, roles: Partial<Record<Actor, 'admin' | 'staff'>> = {}): Promise<string> {
  const made = await ok<{ organisation: { _id: string } }>('POST', '/api/organisations', owner.token, { name: `Організація ${unique()}` });
  for (const [actor, role] of Object.entries(roles)) {
    await ok('POST', `/api/organisations/${made.organisation._id}/members`, owner.token, { user: people[actor as 'orgAdmin'].user.id, role });
  }
  return made.organisation._id;
}

/** A new season of organisation A's, made by one of its managers; its id. */
async function seasonOf(by: Player): Promise<string> {
  const made = await ok<{ season: { _id: string } }>('POST', '/api/seasons', by.token, { name: `Сезон ${unique()}`, game: w.game, pointsByPlace: [3, 2, 1], organisation: w.orgA });
  return made.season._id;
}

/** A new member of organisation A, for the rows that change or remove one. */
async function orgMember(role: 'admin' | 'staff' = 'staff'): Promise<string> {
  const person = await player(api);
  await ok('POST', `/api/organisations/${w.orgA}/members`, people.orgOwner.token, { user: person.user.id, role });
  return person.user.id;
}

/** A fresh notification of the team member's, for the delete row (only its owner may delete it). */
async function memberNotification() {
  await notify(api.db, people.member.user.id, `Сповіщення ${unique()}`);
  const [row] = await api.db.select().from(notifications).where(eq(notifications.userId, people.member.user.id)).orderBy(desc(notifications.date)).limit(1);
  return row!.id;
}

/** A fresh solo tournament with an admin invite for the team member, for the invite-answer rows. */
async function memberTournamentInvite() {
  const tournament = await newTournament(true);
  const body = await ok<{ application: { _id: string } }>('POST', '/api/applications/invite', people.admin.token, { tournament, user: people.member.user.id });
  return body.application._id;
}

const ip = (actor: Actor) => `198.51.100.${ACTORS.indexOf(actor) + 10}`;

/* Rows run in this order, each actor in the order of ACTORS; destructive rows come last. */
const rows: Row[] = [
  { route: 'GET /api/health', request: () => ({ path: '/api/health' }), expect: all(200) },
  // Accounts
  {
    route: 'POST /api/auth/register',
    request: (a) => ({ path: '/api/auth/register', ip: ip(a), body: { username: `new_${unique()}`, email: `new_${unique()}@example.test`, password: 'correct-horse-9' } }),
    expect: all(201),
  },
  {
    route: 'POST /api/auth/login',
    request: (a) => ({ path: '/api/auth/login', ip: ip(a), body: { loginOrEmail: people.user.user.username, password: people.user.password } }),
    expect: all(200),
  },
  { route: 'GET /api/auth/confirm', request: () => ({ path: `/api/auth/confirm?token=${'x'.repeat(43)}` }), expect: all(400) },
  {
    route: 'POST /api/auth/resend-confirmation',
    request: (a) => ({ path: '/api/auth/resend-confirmation', ip: ip(a), body: { email: `nobody_${unique()}@example.test` } }),
    expect: all(200),
  },
  { route: 'GET /api/users/me', request: () => ({ path: '/api/users/me' }), expect: signed(200) },
  { route: 'GET /api/cabinet/me', request: () => ({ path: '/api/cabinet/me' }), expect: signed(200) },
  {
    route: 'PUT /api/cabinet/me',
    request: (a) => {
      const username = `renamed_${unique()}`;
      // Only signed-in callers succeed; later rows sign them in by this name.
      if (a !== 'guest' && a !== 'unconfirmed') people[a].user.username = username;
      return { path: '/api/cabinet/me', body: { username } };
    },
    expect: signed(200),
  },
  { route: 'GET /api/avatar/:userId', request: () => ({ path: `/api/avatar/${people.user.user.id}` }), expect: all(200) },
  // Share cards (issue 23): public pictures, drawn once and held; a token changes nothing.
  { route: 'GET /api/og/:kind/:file', request: () => ({ path: `/api/og/tournament/${w.solo}.png?lang=en` }), expect: all(200) },
  // Notifications: only one's own
  { route: 'GET /api/users/me/notifications', request: () => ({ path: '/api/users/me/notifications' }), expect: signed(200) },
  { route: 'GET /api/users/me/events', request: (a) => ({ path: '/api/users/me/events', ip: ip(a) }), expect: signed(200) },
  { route: 'POST /api/users/me/notifications/read', request: () => ({ path: '/api/users/me/notifications/read' }), expect: signed(200) },
  {
    route: 'DELETE /api/users/me/notifications/:id',
    request: async () => ({ path: `/api/users/me/notifications/${await memberNotification()}` }),
    expect: signed(404, { member: 200 }),
  },
  { route: 'GET /api/users/me/matches', request: () => ({ path: '/api/users/me/matches' }), expect: signed(200) },
  { route: 'GET /api/users/me/tournaments', request: () => ({ path: '/api/users/me/tournaments' }), expect: signed(200) },
  { route: 'GET /api/users/me/applications', request: () => ({ path: '/api/users/me/applications' }), expect: signed(200) },
  { route: 'GET /api/users/me/calendar', request: () => ({ path: '/api/users/me/calendar' }), expect: signed(200) },
  { route: 'POST /api/users/me/calendar/revoke', request: () => ({ path: '/api/users/me/calendar/revoke' }), expect: signed(200) },
  { route: 'GET /api/users/me/notice-settings', request: () => ({ path: '/api/users/me/notice-settings' }), expect: signed(200) },
  { route: 'PUT /api/users/me/notice-settings', request: () => ({ path: '/api/users/me/notice-settings', body: { email: ['matchReady'] } }), expect: signed(200) },
  { route: 'PUT /api/users/me/locale', request: () => ({ path: '/api/users/me/locale', body: { locale: 'uk' } }), expect: signed(200) },
  // Web push (issue 60): the key is anyone's; a device is its signed-in user's.
  { route: 'GET /api/push/key', request: () => ({ path: '/api/push/key' }), expect: all(200) },
  { route: 'POST /api/push/subscriptions', request: (actor) => ({ path: '/api/push/subscriptions', body: pushDevice(actor) }), expect: signed(201) },
  { route: 'DELETE /api/push/subscriptions', request: (actor) => ({ path: '/api/push/subscriptions', body: { endpoint: pushDevice(actor).endpoint } }), expect: signed(200) },
  // Telegram (issue 60): a caller's own link; nobody here has linked a chat, so nothing to unlink. The webhook takes only Telegram's secret, no one's token.
  { route: 'GET /api/telegram/link', request: () => ({ path: '/api/telegram/link' }), expect: signed(200) },
  { route: 'POST /api/telegram/link', request: () => ({ path: '/api/telegram/link' }), expect: signed(201) },
  { route: 'DELETE /api/telegram/link', request: () => ({ path: '/api/telegram/link' }), expect: signed(404) },
  { route: 'POST /api/telegram/webhook', request: () => ({ path: '/api/telegram/webhook', body: { update_id: 1 } }), expect: all(401) },
  // Sign-in with Discord and Steam (issue 60): anyone may start one and come back (a callback without its state is sent back to /login);
  // linking is a signed-in caller's own, and nobody here has linked anything to unlink.
  { route: 'GET /api/auth/providers', request: () => ({ path: '/api/auth/providers' }), expect: all(200) },
  { route: 'GET /api/auth/:provider/start', request: () => ({ path: '/api/auth/discord/start' }), expect: all(302) },
  { route: 'POST /api/auth/:provider/link', request: () => ({ path: '/api/auth/discord/link' }), expect: signed(200) },
  { route: 'GET /api/auth/:provider/callback', request: () => ({ path: '/api/auth/discord/callback?code=x' }), expect: all(302) },
  { route: 'POST /api/auth/oauth/session', request: () => ({ path: '/api/auth/oauth/session', body: { code: 'never-issued-code-0123456789' } }), expect: all(400) },
  { route: 'GET /api/users/me/links', request: () => ({ path: '/api/users/me/links' }), expect: signed(200) },
  { route: 'DELETE /api/users/me/links/:provider', request: () => ({ path: '/api/users/me/links/steam' }), expect: signed(404) },
  // Games and their statistics configuration
  { route: 'GET /api/games', request: () => ({ path: '/api/games' }), expect: all(200) },
  { route: 'POST /api/games', request: () => ({ path: '/api/games', body: { name: `Гра ${unique()}` } }), expect: adminOnly(201) },
  { route: 'PUT /api/games/:id', request: () => ({ path: `/api/games/${w.spareGame}`, body: { name: `Гра ${unique()}` } }), expect: adminOnly(200) },
  { route: 'GET /api/games/:id/maps', request: () => ({ path: `/api/games/${w.game}/maps` }), expect: all(200) },
  { route: 'PUT /api/games/:id/maps', request: () => ({ path: `/api/games/${w.spareGame}/maps`, body: { maps: ['Bind', 'Haven', 'Split'], sides: ['Attack', 'Defense'] } }), expect: adminOnly(200) },
  { route: 'GET /api/game-management/list', request: () => ({ path: '/api/game-management/list' }), expect: all(200) },
  { route: 'GET /api/game-management/:id/stats-config', request: () => ({ path: `/api/game-management/${w.game}/stats-config` }), expect: all(200) },
  { route: 'GET /api/game-management/config/:gameId', request: () => ({ path: `/api/game-management/config/${w.game}` }), expect: all(200) },
  { route: 'POST /api/game-management/setup', request: () => ({ path: '/api/game-management/setup', body: { name: `Гра ${unique()}` } }), expect: adminOnly(201) },
  { route: 'POST /api/game-management/setup-popular', request: () => ({ path: '/api/game-management/setup-popular' }), expect: adminOnly(200) },
  {
    route: 'POST /api/game-management/:id/add-stat-field',
    request: () => ({ path: `/api/game-management/${w.game}/add-stat-field`, body: { fieldName: `f${unique()}`, displayName: 'Поле' } }),
    expect: adminOnly(201),
  },
  {
    route: 'POST /api/game-management/:gameId/add-achievement',
    request: () => ({ path: `/api/game-management/${w.game}/add-achievement`, body: { name: `A ${unique()}`, description: 'Опис', condition: 'wins >= 1' } }),
    expect: adminOnly(201),
  },
  // Tournaments
  { route: 'GET /api/tournaments', request: () => ({ path: '/api/tournaments' }), expect: all(200) },
  { route: 'GET /api/tournaments/:id', request: () => ({ path: `/api/tournaments/${w.solo}` }), expect: all(200) },
  { route: 'GET /api/tournaments/:id/eligibility', request: () => ({ path: `/api/tournaments/${w.solo}/eligibility` }), expect: signed(200) },
  {
    route: 'POST /api/tournaments',
    // Organisation A's people publish for it; everyone else for the site.
    request: (a) => ({ path: '/api/tournaments', body: { title: `Турнір ${unique()}`, date: '2030-06-01', game: w.game, ...(isOrgActor(a) ? { organisation: w.orgA } : {}) } }),
    expect: signed(403, { admin: 201, orgOwner: 201, orgAdmin: 201 }),
  },
  {
    route: 'POST /api/tournaments/:id/clone',
    // Organisation A's people clone one of its tournaments; everyone else a site tournament.
    request: (a) => ({ path: `/api/tournaments/${isOrgActor(a) ? w.orgTournament : w.solo}/clone`, body: { date: '2031-06-01T16:00:00Z' } }),
    expect: signed(403, { admin: 201, orgOwner: 201, orgAdmin: 201 }),
  },
  {
    route: 'PUT /api/tournaments/:id',
    request: () => ({ path: `/api/tournaments/${w.spareTournament}`, body: { title: `Турнір ${unique()}`, date: '2030-06-01', game: w.game } }),
    expect: adminOnly(200),
  },
  {
    route: 'PATCH /api/tournaments/:id/winner',
    request: () => ({ path: `/api/tournaments/${w.winnerTournament}/winner`, body: { winnerType: 'user', winnerId: people.user.user.id } }),
    // The organisers pass the permission check; a pending tournament has no winner yet.
    expect: organiser(409),
  },
  { route: 'GET /api/tournaments/:id/bracket', request: () => ({ path: `/api/tournaments/${w.bracketTournament}/bracket` }), expect: all(200) },
  {
    route: 'POST /api/tournaments/:id/bracket',
    request: () => ({ path: `/api/tournaments/${w.bracketTournament}/bracket`, body: {} }),
    // The organisers pass the permission check; a tournament without participants cannot be drawn.
    expect: organiser(422),
  },
  {
    route: 'PATCH /api/tournaments/:id/bracket',
    request: () => ({ path: `/api/tournaments/${w.bracketTournament}/bracket`, body: { bracket: [] } }),
    expect: organiser(200),
  },
  { route: 'GET /api/tournaments/:id/stages', request: () => ({ path: `/api/tournaments/${w.stages}/stages` }), expect: all(200) },
  // Check-in (issue 22): the participant for themselves, the organisers for anyone (`applicationId`).
  {
    route: 'POST /api/tournaments/:id/check-in',
    request: () => ({ path: `/api/tournaments/${w.checkIn}/check-in`, body: { applicationId: w.checkInApplication } }),
    expect: signed(403, { user: 200, staff: 200, admin: 200 }),
  },
  {
    route: 'DELETE /api/tournaments/:id/check-in',
    request: () => ({ path: `/api/tournaments/${w.checkIn}/check-in`, body: { applicationId: w.checkInApplication } }),
    expect: signed(403, { user: 200, staff: 200, admin: 200 }),
  },
  // Extending check-in (issue 57): each organiser moves the close later than the one before.
  {
    route: 'PATCH /api/tournaments/:id/check-in',
    request: (a) => ({
      path: `/api/tournaments/${w.checkIn}/check-in`,
      body: { closesAt: new Date(Date.now() + 65 * 60_000 + ACTORS.indexOf(a) * 60_000).toISOString() },
    }),
    expect: organiser(200),
  },
  // The control room (issue 57): its organisers only.
  { route: 'GET /api/tournaments/:id/control', request: () => ({ path: `/api/tournaments/${w.stages}/control` }), expect: organiser(200) },
  {
    route: 'POST /api/tournaments/:id/stages',
    request: (a) => ({ path: `/api/tournaments/${a === 'staff' ? w.stagesNewStaff : w.stagesNew}/stages`, body: { format: 'double_elimination' } }),
    expect: organiser(201),
  },
  {
    route: 'POST /api/tournaments/:id/stages/:stageId/next-round',
    request: () => ({ path: `/api/tournaments/${w.stages}/stages/${w.swissStage}/next-round` }),
    // The organisers pass the permission check; the first round is not played yet.
    expect: organiser(409),
  },
  {
    route: 'POST /api/tournaments/:id/disqualify',
    request: (a) => ({ path: `/api/tournaments/${w.dqTournament}/disqualify`, body: { participant: a === 'staff' ? w.dqParticipantStaff : w.dqParticipant } }),
    expect: organiser(200),
  },
  { route: 'GET /api/tournaments/:id/staff', request: () => ({ path: `/api/tournaments/${w.solo}/staff` }), expect: all(200) },
  {
    route: 'POST /api/tournaments/:id/staff',
    request: async () => ({ path: `/api/tournaments/${w.spareTournament}/staff`, body: { user: (await player(api)).user.username } }),
    expect: adminOnly(201),
  },
  // Export and import as CSV (issue 60): the tournament's organisers only; the import here only checks its rows.
  { route: 'GET /api/tournaments/:id/export/:file', request: () => ({ path: `/api/tournaments/${w.solo}/export/participants.csv` }), expect: organiser(200) },
  {
    route: 'POST /api/tournaments/:id/participants/import',
    request: async () => ({ path: `/api/tournaments/${w.solo}/participants/import`, body: { csv: (await player(api)).user.username, dryRun: true } }),
    expect: organiser(200),
  },
  // Venue networks (issue 57, decision 035): the tournament's organisers ask and withdraw; the admin decides.
  { route: 'GET /api/tournaments/:id/venue-network', request: () => ({ path: `/api/tournaments/${w.solo}/venue-network` }), expect: organiser(200) },
  {
    route: 'POST /api/tournaments/:id/venue-network',
    request: (a) => ({ path: `/api/tournaments/${a === 'staff' ? w.venueAskStaff : w.venueAsk}/venue-network`, body: { networks: ['192.0.2.0/24'], note: 'Зала' } }),
    expect: organiser(201),
  },
  {
    route: 'DELETE /api/tournaments/:id/venue-network',
    request: (a) => ({ path: `/api/tournaments/${a === 'staff' ? w.venueWithdrawStaff : w.venueWithdraw}/venue-network` }),
    expect: organiser(200),
  },
  { route: 'GET /api/venue-networks', request: () => ({ path: '/api/venue-networks' }), expect: adminOnly(200) },
  {
    route: 'PATCH /api/venue-networks/:id',
    request: () => ({ path: `/api/venue-networks/${w.venueDecideCupRequest}`, body: { status: 'approved' } }),
    expect: adminOnly(200),
  },
  { route: 'GET /api/tournaments/:id/standings', request: () => ({ path: `/api/tournaments/${w.stages}/standings` }), expect: all(200) },
  // The audit log (issue 23): a tournament's history is public (its organisers also see who); the whole log is the admin's.
  { route: 'GET /api/tournaments/:id/history', request: () => ({ path: `/api/tournaments/${w.stages}/history` }), expect: all(200) },
  { route: 'GET /api/audit', request: () => ({ path: `/api/audit?tournament=${w.stages}` }), expect: adminOnly(200) },
  { route: 'GET /api/tournaments/:id/events', request: (a) => ({ path: `/api/tournaments/${w.stages}/events`, ip: ip(a) }), expect: all(200) },
  {
    route: 'POST /api/tournaments/:id/stages/:stageId/schedule',
    request: () => ({ path: `/api/tournaments/${w.timed}/stages/${w.timedStage}/schedule`, body: { start: '2030-05-01T19:00:00+03:00', roundMinutes: 60 } }),
    expect: organiser(200),
  },
  { route: 'GET /api/tournaments/:id/calendar.ics', request: () => ({ path: `/api/tournaments/${w.timed}/calendar.ics` }), expect: all(200) },
  // The secret address is the key: whoever holds it reads the feed, with or without a session.
  { route: 'GET /api/calendar/:file', request: () => ({ path: `/api/calendar/${w.calendarFile}` }), expect: all(200) },
  { route: 'GET /api/matches/:id', request: () => ({ path: `/api/matches/${w.stageMatch}` }), expect: all(200) },
  // A free-for-all lobby's page read (issue 59): public, as a match.
  { route: 'GET /api/lobbies/:id', request: () => ({ path: `/api/lobbies/${w.lobby}` }), expect: all(200) },
  {
    route: 'PATCH /api/matches/:id',
    request: (a) => ({ path: `/api/matches/${a === 'staff' ? w.stageMatchStaff : w.stageMatch}`, body: { scoreA: 2, scoreB: 1, version: 0 } }),
    expect: organiser(200),
  },
  // A match's comment with its text even when it is for the organisers only (issue 57): its organisers' read.
  {
    route: 'GET /api/matches/:id/comment',
    request: (a) => ({ path: `/api/matches/${a === 'staff' ? w.stageMatchStaff : w.stageMatch}/comment` }),
    expect: organiser(200),
  },
  // Only the match's sides: the user reports, the member's same score confirms it; the user cannot answer their own report.
  {
    route: 'POST /api/matches/:id/report',
    request: () => ({ path: `/api/matches/${w.reportMatch}/report`, body: { scoreA: 1, scoreB: 0 } }),
    expect: signed(403, { user: 200, member: 200 }),
  },
  {
    route: 'POST /api/matches/:id/confirm',
    request: () => ({ path: `/api/matches/${w.confirmMatch}/confirm`, body: {} }),
    expect: signed(403, { user: 409, member: 200 }),
  },
  {
    route: 'POST /api/matches/:id/dispute',
    request: () => ({ path: `/api/matches/${w.disputeMatch}/dispute`, body: { reason: 'Рахунок інший' } }),
    expect: signed(403, { user: 409, member: 200 }),
  },
  // A side calls the organisers once (the other side then hears it is done); an organiser answers a call.
  {
    route: 'POST /api/matches/:id/call',
    request: () => ({ path: `/api/matches/${w.callMatch}/call`, body: { reason: 'Суперник не прийшов' } }),
    expect: signed(403, { user: 200, member: 409 }),
  },
  // The veto (issue 58): anyone reads it; the starter (the user, side a) chooses a role, the member then is out of turn.
  { route: 'GET /api/matches/:id/veto', request: () => ({ path: `/api/matches/${w.vetoMatch}/veto` }), expect: all(200) },
  {
    route: 'POST /api/matches/:id/veto',
    request: () => ({ path: `/api/matches/${w.vetoMatch}/veto`, body: { action: 'roles', role: 'A' } }),
    expect: signed(403, { user: 200, member: 409 }),
  },
  // The match chat (issue 58): its two sides and the tournament's organisers (its staff, the admin); everyone else 403.
  {
    route: 'GET /api/matches/:id/chat',
    request: () => ({ path: `/api/matches/${w.chatMatch}/chat` }),
    expect: signed(403, { user: 200, member: 200, staff: 200, admin: 200 }),
  },
  {
    route: 'POST /api/matches/:id/chat',
    request: (a) => ({ path: `/api/matches/${w.chatMatch}/chat`, body: { message: `Повідомлення від ${a}` } }),
    expect: signed(403, { user: 201, member: 201, staff: 201, admin: 201 }),
  },
  // A free-for-all lobby's games (issue 59): its players propose, its organisers enter (each actor its own game); everyone else 403.
  {
    route: 'GET /api/matches/:id/games',
    request: () => ({ path: `/api/matches/${w.lobby}/games` }),
    expect: signed(403, { user: 200, member: 200, staff: 200, admin: 200 }),
  },
  {
    route: 'PUT /api/matches/:id/games/:n',
    request: (a) => {
      const members: string[] = JSON.parse(w.lobbyMembers!);
      return { path: `/api/matches/${w.lobby}/games/${ACTORS.indexOf(a) + 1}`, body: { lines: members.map((participant, i) => ({ participant, placement: i + 1, kills: 0 })) } };
    },
    expect: signed(403, { user: 200, member: 200, staff: 200, admin: 200 }),
  },
  // The room (issue 58): its people read it; each side checks itself in; its organisers put the lobby details.
  {
    route: 'GET /api/matches/:id/room',
    request: () => ({ path: `/api/matches/${w.roomMatch}/room` }),
    expect: signed(403, { user: 200, member: 200, staff: 200, admin: 200 }),
  },
  {
    route: 'POST /api/matches/:id/check-in',
    request: () => ({ path: `/api/matches/${w.roomMatch}/check-in` }),
    expect: signed(403, { user: 200, member: 200 }),
  },
  {
    route: 'PUT /api/matches/:id/lobby',
    request: (a) => ({ path: `/api/matches/${w.roomMatch}/lobby`, body: { text: `connect 10.0.0.1 (${a})` } }),
    expect: organiser(200),
  },
  // Evidence (issue 58): the match's two sides and its organisers add, list and read its screenshots; anyone else 403.
  {
    route: 'POST /api/matches/:id/evidence',
    request: async () => ({ path: `/api/matches/${w.evidenceMatch}/evidence`, body: await screenshotForm() }),
    expect: signed(403, { user: 201, member: 201, staff: 201, admin: 201 }),
  },
  {
    route: 'GET /api/matches/:id/evidence',
    request: () => ({ path: `/api/matches/${w.evidenceMatch}/evidence` }),
    expect: signed(403, { user: 200, member: 200, staff: 200, admin: 200 }),
  },
  {
    route: 'GET /api/matches/:id/evidence/:evidenceId',
    request: () => ({ path: `/api/matches/${w.evidenceMatch}/evidence/${w.evidence}` }),
    expect: signed(403, { user: 200, member: 200, staff: 200, admin: 200 }),
  },
  {
    route: 'DELETE /api/matches/:id/call',
    request: (a) => ({ path: `/api/matches/${a === 'staff' ? w.answerMatchStaff : w.answerMatch}/call` }),
    expect: organiser(200),
  },
  { route: 'GET /api/tournaments/:id/stats', request: () => ({ path: `/api/tournaments/${w.stats}/stats` }), expect: adminOnly(200) },
  { route: 'POST /api/tournaments/:id/enable-stats', request: () => ({ path: `/api/tournaments/${w.spareTournament}/enable-stats` }), expect: adminOnly(200) },
  {
    route: 'POST /api/tournaments/:id/record-match',
    request: () => ({
      path: `/api/tournaments/${w.stats}/record-match`,
      body: { participant1Type: 'user', participant1Id: people.user.user.id, participant2Type: 'user', participant2Id: people.member.user.id, score1: 0, score2: 3 },
    }),
    expect: adminOnly(201),
  },
  // Applications
  { route: 'POST /api/applications', request: () => ({ path: '/api/applications', body: { tournament: w.solo } }), expect: signed(201) },
  { route: 'GET /api/applications', request: () => ({ path: '/api/applications' }), expect: adminOnly(200) },
  {
    route: 'PATCH /api/applications/:id/status',
    request: (a) => ({ path: `/api/applications/${a === 'staff' ? w.applicationStatusStaff : w.applicationStatus}/status`, body: { status: 'approved' } }),
    expect: organiser(200),
  },
  {
    route: 'PATCH /api/applications/:id',
    request: (a) => ({ path: `/api/applications/${a === 'staff' ? w.applicationStatusAliasStaff : w.applicationStatusAlias}`, body: { status: 'rejected' } }),
    expect: organiser(200),
  },
  {
    route: 'POST /api/applications/invite',
    request: async () => ({ path: '/api/applications/invite', body: { tournament: w.solo, user: (await player(api)).user.id } }),
    expect: adminOnly(201),
  },
  {
    route: 'PATCH /api/applications/:applicationId/accept-invite',
    request: async () => ({ path: `/api/applications/${await memberTournamentInvite()}/accept-invite` }),
    expect: signed(403, { member: 200 }),
  },
  {
    route: 'PATCH /api/applications/:applicationId/reject-invite',
    request: async () => ({ path: `/api/applications/${await memberTournamentInvite()}/reject-invite` }),
    expect: signed(403, { member: 200 }),
  },
  // Teams: only the captain manages, only members read the chat
  { route: 'GET /api/teams/mine', request: () => ({ path: '/api/teams/mine' }), expect: signed(200) },
  { route: 'POST /api/teams', request: () => ({ path: '/api/teams', body: { name: `Команда ${unique()}` } }), expect: signed(201) },
  { route: 'PATCH /api/teams/:id/logo', request: () => ({ path: `/api/teams/${w.teamA}/logo`, body: { logoUrl: 'https://example.test/logo.png' } }), expect: captainOnly(200) },
  {
    route: 'POST /api/teams/:id/invite',
    request: async () => ({ path: `/api/teams/${w.teamA}/invite`, body: { query: (await player(api)).user.username } }),
    expect: captainOnly(201),
  },
  { route: 'GET /api/team/:teamId/chat', request: () => ({ path: `/api/team/${w.teamA}/chat` }), expect: signed(403, { member: 200, captain: 200 }) },
  { route: 'POST /api/team/:teamId/chat', request: () => ({ path: `/api/team/${w.teamA}/chat`, body: { message: 'Гей' } }), expect: signed(403, { member: 201, captain: 201 }) },
  { route: 'POST /api/teams/:teamId/accept-invite', request: () => ({ path: `/api/teams/${w.teamB}/accept-invite` }), expect: signed(404, { user: 200 }) },
  { route: 'POST /api/teams/:teamId/reject-invite', request: () => ({ path: `/api/teams/${w.teamC}/reject-invite` }), expect: signed(404, { user: 200 }) },
  // News
  { route: 'GET /api/news', request: () => ({ path: '/api/news' }), expect: all(200) },
  { route: 'GET /api/news/:id', request: () => ({ path: `/api/news/${w.news}` }), expect: all(200) },
  { route: 'GET /api/news/saved', request: () => ({ path: '/api/news/saved' }), expect: signed(200) },
  { route: 'GET /api/news/saved/items', request: () => ({ path: '/api/news/saved/items' }), expect: signed(200) },
  { route: 'POST /api/news/saved/:id', request: () => ({ path: `/api/news/saved/${w.news}` }), expect: signed(200) },
  { route: 'DELETE /api/news/saved/:id', request: () => ({ path: `/api/news/saved/${w.news}` }), expect: signed(200) },
  { route: 'POST /api/news', request: () => ({ path: '/api/news', body: { title: `Новина ${unique()}`, content: 'Текст.' } }), expect: adminOnly(201) },
  { route: 'PUT /api/news/:id', request: () => ({ path: `/api/news/${w.news}`, body: { title: `Новина ${unique()}` } }), expect: adminOnly(200) },
  // Statistics
  { route: 'GET /api/stats/games', request: () => ({ path: '/api/stats/games' }), expect: all(200) },
  { route: 'GET /api/stats/leaderboard/game/:gameId', request: () => ({ path: `/api/stats/leaderboard/game/${w.game}` }), expect: all(200) },
  { route: 'GET /api/stats/leaderboard/teams/game/:gameId', request: () => ({ path: `/api/stats/leaderboard/teams/game/${w.game}` }), expect: all(200) },
  { route: 'GET /api/stats/achievements/player/:userId', request: () => ({ path: `/api/stats/achievements/player/${people.user.user.id}` }), expect: all(200) },
  { route: 'GET /api/stats/matches/player/:userId', request: () => ({ path: `/api/stats/matches/player/${people.user.user.id}` }), expect: all(200) },
  { route: 'GET /api/stats/matches/team/:teamId', request: () => ({ path: `/api/stats/matches/team/${w.teamA}` }), expect: all(200) },
  { route: 'GET /api/stats/tournaments', request: () => ({ path: '/api/stats/tournaments' }), expect: adminOnly(200) },
  // Public profiles (issue 23): anyone reads them.
  { route: 'GET /api/players/:id', request: () => ({ path: `/api/players/${people.user.user.id}` }), expect: all(200) },
  { route: 'GET /api/teams/:id', request: () => ({ path: `/api/teams/${w.teamA}` }), expect: all(200) },
  // Destructive rows: refusals come before the object is looked at, so one object serves all actors.
  { route: 'DELETE /api/stats/player/:userId/game/:gameId', request: () => ({ path: `/api/stats/player/${people.member.user.id}/game/${w.game}` }), expect: adminOnly(200) },
  { route: 'DELETE /api/stats/team/:teamId/game/:gameId', request: () => ({ path: `/api/stats/team/${w.teamA}/game/${w.game}` }), expect: adminOnly(404) },
  { route: 'DELETE /api/teams/:id/invites/:inviteId', request: () => ({ path: `/api/teams/${w.teamA}/invites/${w.invite}` }), expect: captainOnly(200) },
  { route: 'DELETE /api/teams/:id/members/:memberId', request: () => ({ path: `/api/teams/${w.teamA}/members/${w.removable}` }), expect: captainOnly(200) },
  // The user withdraws their own application (issue 22); the organisers delete anyone's; others are refused.
  {
    route: 'DELETE /api/applications/:id',
    request: (a) => ({ path: `/api/applications/${a === 'user' ? w.ownApplication : a === 'staff' ? w.applicationDoomedStaff : w.applicationDoomed}` }),
    expect: signed(403, { user: 200, staff: 200, admin: 200 }),
  },
  // Staff (issue 23): only the admin names and removes them; anyone reads who they are.
  { route: 'DELETE /api/tournaments/:id/staff/:userId', request: () => ({ path: `/api/tournaments/${w.solo}/staff/${w.removableStaff}` }), expect: adminOnly(200) },
  { route: 'DELETE /api/news/:id', request: () => ({ path: `/api/news/${w.doomedNews}` }), expect: adminOnly(200) },
  {
    route: 'DELETE /api/game-management/:gameId/stat-fields/:fieldName',
    request: () => ({ path: `/api/game-management/${w.game}/stat-fields/${w.doomedField}` }),
    expect: adminOnly(200),
  },
  {
    route: 'DELETE /api/game-management/:gameId/achievements/:achievementId',
    request: () => ({ path: `/api/game-management/${w.game}/achievements/${w.doomedAchievement}` }),
    expect: adminOnly(200),
  },
  { route: 'DELETE /api/tournaments/:id', request: () => ({ path: `/api/tournaments/${w.spareTournament}` }), expect: adminOnly(200) },
  { route: 'DELETE /api/games/:id', request: () => ({ path: `/api/games/${w.spareGame}` }), expect: adminOnly(200) },
  {
    route: 'DELETE /api/users/:id/sessions',
    request: async () => ({ path: `/api/users/${(await player(api)).user.id}/sessions` }),
    expect: adminOnly(200),
  },
  // Organisations (issue 56): organisation A's owner and admins manage it; the platform's admin moderates.
  { route: 'GET /api/organisations', request: () => ({ path: '/api/organisations?q=Організація' }), expect: all(200) },
  { route: 'GET /api/organisations/suspended', request: () => ({ path: '/api/organisations/suspended' }), expect: adminOnly(200) },
  { route: 'GET /api/organisations/:idOrSlug', request: () => ({ path: `/api/organisations/${w.orgA}` }), expect: all(200) },
  {
    route: 'POST /api/organisations',
    // A plain player founds one as a fresh account of theirs, so the matrix's players still run no
    // organisation afterwards (publishing a tournament is refused to them before the body is read).
    request: async (a) => ({
      path: '/api/organisations',
      body: { name: `Клуб ${unique()}` },
      ...(['user', 'member', 'captain', 'otherCaptain', 'staff'].includes(a) ? { token: (await player(api)).token } : {}),
    }),
    expect: signed(201),
  },
  {
    route: 'PUT /api/organisations/:id',
    request: () => ({ path: `/api/organisations/${w.orgA}`, body: { name: `Організація А ${unique()}`, description: 'Опис' } }),
    expect: orgManagers(200),
  },
  { route: 'PATCH /api/organisations/:id', request: () => ({ path: `/api/organisations/${w.orgA}`, body: { verified: true } }), expect: adminOnly(200) },
  {
    route: 'DELETE /api/organisations/:id',
    // The owner deletes one of their own made for it; everyone else tries organisation A, which stays.
    request: async (a) => ({ path: `/api/organisations/${a === 'orgOwner' ? await organisationOf(people.orgOwner) : w.orgA}` }),
    expect: signed(403, { orgOwner: 200 }),
  },
  {
    route: 'POST /api/organisations/:id/members',
    request: async () => ({ path: `/api/organisations/${w.orgA}/members`, body: { user: (await player(api)).user.id, role: 'staff' } }),
    expect: orgManagers(201),
  },
  {
    route: 'PATCH /api/organisations/:id/members/:userId',
    request: async () => ({ path: `/api/organisations/${w.orgA}/members/${await orgMember()}`, body: { role: 'admin' } }),
    expect: orgManagers(200),
  },
  {
    route: 'DELETE /api/organisations/:id/members/:userId',
    request: async () => ({ path: `/api/organisations/${w.orgA}/members/${await orgMember()}` }),
    expect: orgManagers(200),
  },
  // Integrations (issue 60): organisation A's owner and admins connect its Discord and read the log.
  { route: 'GET /api/organisations/:id/integrations', request: () => ({ path: `/api/organisations/${w.orgA}/integrations` }), expect: orgManagers(200) },
  { route: 'PUT /api/organisations/:id/discord', request: () => ({ path: `/api/organisations/${w.orgA}/discord`, body: { url: DISCORD_WEBHOOK } }), expect: orgManagers(200) },
  {
    route: 'DELETE /api/organisations/:id/discord',
    // Connected again before each manager removes it, so each finds one.
    request: async (a) => {
      if (a === 'orgOwner' || a === 'orgAdmin') await ok('PUT', `/api/organisations/${w.orgA}/discord`, people.orgOwner.token, { url: DISCORD_WEBHOOK });
      return { path: `/api/organisations/${w.orgA}/discord` };
    },
    expect: orgManagers(200),
  },
  // Its Telegram channel (issue 60), checked with the bot's stand-in.
  { route: 'PUT /api/organisations/:id/telegram', request: () => ({ path: `/api/organisations/${w.orgA}/telegram`, body: { chat: '@matrix_news' } }), expect: orgManagers(200) },
  {
    route: 'DELETE /api/organisations/:id/telegram',
    request: async (a) => {
      if (a === 'orgOwner' || a === 'orgAdmin') await ok('PUT', `/api/organisations/${w.orgA}/telegram`, people.orgOwner.token, { chat: '@matrix_news' });
      return { path: `/api/organisations/${w.orgA}/telegram` };
    },
    expect: orgManagers(200),
  },
  // Outgoing webhooks (issue 60): organisation A's owner and admins register, list and delete them.
  { route: 'GET /api/organisations/:id/webhooks', request: () => ({ path: `/api/organisations/${w.orgA}/webhooks` }), expect: orgManagers(200) },
  {
    route: 'POST /api/organisations/:id/webhooks',
    request: async (a) => {
      await clearWebhooks();
      return { path: `/api/organisations/${w.orgA}/webhooks`, body: { url: `https://hooks.example.com/${a}/${unique()}`, events: ['tournament.created'] } };
    },
    expect: orgManagers(201),
  },
  {
    route: 'DELETE /api/organisations/:id/webhooks/:webhookId',
    // A webhook of its own for each manager to delete; the others are refused one.
    request: async () => {
      await clearWebhooks();
      const made = await ok<{ webhook: { _id: string } }>('POST', `/api/organisations/${w.orgA}/webhooks`, people.orgOwner.token, {
        url: `https://hooks.example.com/delete/${unique()}`,
        events: ['match.ready'],
      });
      return { path: `/api/organisations/${w.orgA}/webhooks/${made.webhook._id}` };
    },
    expect: orgManagers(200),
  },
  // API keys (issue 60, decision 045): organisation A's owner and admins make, list and revoke them.
  { route: 'GET /api/organisations/:id/api-keys', request: () => ({ path: `/api/organisations/${w.orgA}/api-keys` }), expect: orgManagers(200) },
  { route: 'POST /api/organisations/:id/api-keys', request: (a) => ({ path: `/api/organisations/${w.orgA}/api-keys`, body: { name: `Матриця ${a} ${unique()}`, scope: 'read' } }), expect: orgManagers(201) },
  {
    route: 'DELETE /api/organisations/:id/api-keys/:keyId',
    // A key of its own for each manager to revoke; the others are refused one.
    request: async (a) => {
      const made = await ok<{ key: { _id: string } }>('POST', `/api/organisations/${w.orgA}/api-keys`, people.orgOwner.token, { name: `Відкликати ${a} ${unique()}`, scope: 'run' });
      return { path: `/api/organisations/${w.orgA}/api-keys/${made.key._id}` };
    },
    expect: orgManagers(200),
  },
  { route: 'GET /api/users/me/organisations', request: () => ({ path: '/api/users/me/organisations' }), expect: signed(200) },
  { route: 'POST /api/organisations/:id/follow', request: () => ({ path: `/api/organisations/${w.orgA}/follow` }), expect: signed(200) },
  { route: 'DELETE /api/organisations/:id/follow', request: () => ({ path: `/api/organisations/${w.orgA}/follow` }), expect: signed(200) },
  // Seasons (issue 59): organisation A's owner and admins run its seasons, and the site's admin any.
  { route: 'GET /api/seasons', request: () => ({ path: `/api/seasons?organisation=${w.orgA}` }), expect: all(200) },
  { route: 'GET /api/seasons/:id', request: () => ({ path: `/api/seasons/${w.seasonA}` }), expect: all(200) },
  { route: 'GET /api/seasons/:id/standings', request: () => ({ path: `/api/seasons/${w.seasonA}/standings` }), expect: all(200) },
  {
    route: 'POST /api/seasons',
    request: () => ({ path: '/api/seasons', body: { name: `Сезон ${unique()}`, game: w.game, pointsByPlace: [3, 2, 1], organisation: w.orgA } }),
    expect: signed(403, { orgOwner: 201, orgAdmin: 201, admin: 201 }),
  },
  {
    route: 'PUT /api/seasons/:id',
    request: () => ({ path: `/api/seasons/${w.seasonA}`, body: { name: `Сезон А ${unique()}`, pointsByPlace: [5, 3, 1] } }),
    expect: signed(403, { orgOwner: 200, orgAdmin: 200, admin: 200 }),
  },
  {
    route: 'DELETE /api/seasons/:id',
    // Each manager deletes a season of its own making; everyone else tries season A, which stays.
    request: async (a) => ({ path: `/api/seasons/${['orgOwner', 'orgAdmin', 'admin'].includes(a) ? await seasonOf(people.orgOwner) : w.seasonA}` }),
    expect: signed(403, { orgOwner: 200, orgAdmin: 200, admin: 200 }),
  },
  {
    route: 'PUT /api/seasons/:id/tournaments/:tournamentId',
    // Joining again changes nothing, so each manager's call answers 200.
    request: () => ({ path: `/api/seasons/${w.seasonA}/tournaments/${w.orgTournament}` }),
    expect: signed(403, { orgOwner: 200, orgAdmin: 200, admin: 200 }),
  },
  {
    route: 'DELETE /api/seasons/:id/tournaments/:tournamentId',
    // In the season again before each call, so each manager has it to take out.
    request: async () => {
      await ok('PUT', `/api/seasons/${w.seasonA}/tournaments/${w.orgTournament}`, people.orgOwner.token);
      return { path: `/api/seasons/${w.seasonA}/tournaments/${w.orgTournament}` };
    },
    expect: signed(403, { orgOwner: 200, orgAdmin: 200, admin: 200 }),
  },
  // Each signed-in actor closes a second session of its own, so its main token keeps working.
  {
    route: 'POST /api/auth/logout',
    request: async (a) => ({ path: '/api/auth/logout', token: a === 'guest' || a === 'unconfirmed' ? null : await login(people[a]) }),
    expect: signed(200),
  },
  // Last: a password change signs the actor's other sessions out.
  {
    route: 'PUT /api/cabinet/me/password',
    request: (a) => ({ path: '/api/cabinet/me/password', body: { oldPassword: a === 'guest' || a === 'unconfirmed' ? 'x' : people[a].password, newPassword: 'another-horse-77' } }),
    expect: signed(200),
  },
];

/** Every signed-in caller but the admin is refused. */
const isAdminOnly = (row: Row) => (['user', 'member', 'captain', 'otherCaptain'] as const).every((a) => row.expect[a] === 403) && row.expect.admin < 500;
/** A tournament's organiser route (decision 016): its staff pass where every other non-admin is refused. */
const isOrganiserRoute = (row: Row) => isAdminOnly(row) && row.expect.staff !== 403;

describe('authorization matrix', () => {
  it('refuses to sign in an unconfirmed account, so it calls the API as a guest', async () => {
    const res = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: w.unconfirmed, password: 'correct-horse-9' } });
    expect(res.status).toBe(403);
    expect(res.body).not.toHaveProperty('token');
  });

  for (const row of rows) {
    it(`${row.route} answers each caller as expected`, async () => {
      const [method] = row.route.split(' ');
      const got = {} as Expect;
      for (const actor of ACTORS) {
        const request = await row.request(actor);
        const token = request.token === null ? undefined : (request.token ?? tokenOf(actor));
        const res = await api.call(method!, request.path, { token, body: request.body, ip: request.ip ?? ip(actor) });
        got[actor] = res.status;
        if (res.status >= 400) expect(res.body, `${actor}: ${row.route}`).toHaveProperty('message');
      }
      expect(got, JSON.stringify(got)).toEqual(row.expect);
    });
  }

  it('checks who may call before it looks at the body: 401 for a guest, 403 for a non-admin (and for staff of another tournament), never 400', async () => {
    const got: Record<string, number[]> = {};
    for (const row of rows) {
      const [method] = row.route.split(' ');
      if (method === 'GET') continue;
      const { path } = await row.request('guest');
      const hostile = path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'not-a-uuid');
      const statuses: number[] = [];
      if (row.expect.guest === 401) statuses.push((await api.call(method!, hostile, { raw: '{"bad":' })).status);
      if (isAdminOnly(row)) {
        statuses.push((await api.call(method!, hostile, { raw: '{"bad":', token: people.user.token })).status);
        // Staff are no admins, and a path naming no tournament of theirs is refused as one.
        statuses.push((await api.call(method!, hostile, { raw: '{"bad":', token: people.staff.token })).status);
        // On an organiser route, staff of another tournament are refused before the body of a real path is read.
        if (isOrganiserRoute(row)) statuses.push((await api.call(method!, path, { raw: '{"bad":', token: w.elsewhereStaff })).status);
      }
      if (statuses.length) got[row.route] = statuses;
    }
    const wrong = Object.entries(got).filter(([route, statuses]) => {
      const row = rows.find((r) => r.route === route)!;
      const expected = [...(row.expect.guest === 401 ? [401] : []), ...(isAdminOnly(row) ? [403, 403] : []), ...(isOrganiserRoute(row) ? [403] : [])];
      return JSON.stringify(statuses) !== JSON.stringify(expected);
    });
    expect(wrong).toEqual([]);
  });

  it('refuses organisation A’s owner, admin and staff on every route that changes organisation B’s tournament', async () => {
    // Organisation B with a tournament, an application to it and a stage match in it.
    const ownerB = await player(api);
    const orgB = await ok<{ organisation: { _id: string } }>('POST', '/api/organisations', ownerB.token, { name: `Організація Б ${unique()}` });
    const cupB = (
      await ok<{ tournament: { _id: string } }>('POST', '/api/tournaments', ownerB.token, { title: `Турнір Б ${unique()}`, date: '2030-06-01', game: w.game, soloOnly: true, organisation: orgB.organisation._id })
    ).tournament._id;
    const applicationB = (await application(api, cupB)).id;
    await application(api, cupB, 'approved');
    await application(api, cupB, 'approved');
    const matchB = (await stage(api, cupB, { format: 'single_elimination' })).matches[0]!._id;
    // A second one of B's with check-in open, for the check-in routes.
    const hour = 3_600_000;
    const checkInB = (
      await ok<{ tournament: { _id: string } }>('POST', '/api/tournaments', ownerB.token, {
        title: `Турнір Б ${unique()}`,
        date: new Date(Date.now() + 2 * hour).toISOString(),
        game: w.game,
        soloOnly: true,
        organisation: orgB.organisation._id,
        checkInEnabled: true,
        checkInOpensAt: new Date(Date.now() - hour).toISOString(),
        checkInClosesAt: new Date(Date.now() + hour).toISOString(),
      })
    ).tournament._id;
    const approvedB = (await application(api, checkInB, 'approved')).id;
    // A third one of B's playing free-for-all lobbies (issue 59), for the lobby's games.
    const lobbyCupB = (
      await ok<{ tournament: { _id: string } }>('POST', '/api/tournaments', ownerB.token, { title: `Турнір Б ${unique()}`, date: '2030-06-01', game: w.game, soloOnly: true, organisation: orgB.organisation._id })
    ).tournament._id;
    await application(api, lobbyCupB, 'approved');
    await application(api, lobbyCupB, 'approved');
    const lobbyB = (await stage(api, lobbyCupB, { format: 'free_for_all', settings: { lobbySize: 4, games: 1 } })).lobbies[0]!._id;
    /** What the path's `:id` names on each kind of route, in organisation B. */
    const ofB: [RegExp, string][] = [
      [/^\/api\/matches\/:id(?=\/games)/, `/api/matches/${lobbyB}`],
      [/^\/api\/tournaments\/:id(?=\/|$)/, `/api/tournaments/${cupB}`],
      [/^\/api\/applications\/:id(?=\/|$)/, `/api/applications/${applicationB}`],
      [/^\/api\/matches\/:id(?=\/|$)/, `/api/matches/${matchB}`],
    ];
    const got: Record<string, number[]> = {};
    for (const row of rows) {
      const [method, route] = row.route.split(' ') as [string, string];
      const kind = ofB.find(([pattern]) => pattern.test(route));
      if (method === 'GET' || !kind || row.expect.orgOwner !== 403) continue;
      // B's object for `:id`, the row's own path after it (a stage's id, a user's).
      const request = await row.request('orgOwner');
      const tail = request.path.split('/').slice(4).join('/');
      const pathB = route.endsWith('/check-in') ? `/api/tournaments/${checkInB}/check-in` : `${kind[1]}${tail ? `/${tail}` : ''}`;
      // An organiser route refuses before it reads the body; a player's own (check-in, a report, withdrawing) reads whose it is from a real one.
      const body = isAdminOnly(row) ? { raw: '{"bad":' } : { body: request.body && typeof request.body === 'object' && 'applicationId' in request.body ? { ...request.body, applicationId: approvedB } : request.body };
      got[row.route] = [];
      for (const actor of ['orgOwner', 'orgAdmin', 'orgStaff'] as const) {
        got[row.route]!.push((await api.call(method, pathB, { ...body, token: people[actor].token })).status);
      }
    }
    // Every organiser and host route, and the players' own ones on a tournament, a match or an application.
    expect(Object.keys(got).sort()).toEqual(
      rows
        .map((row) => row.route)
        .filter((route) => !route.startsWith('GET') && ofB.some(([pattern]) => pattern.test(route.split(' ')[1]!)))
        .filter((route) => rows.find((row) => row.route === route)!.expect.orgOwner === 403)
        .sort(),
    );
    expect(Object.keys(got).length).toBeGreaterThanOrEqual(22);
    expect(Object.entries(got).filter(([, statuses]) => statuses.some((status) => status !== 403))).toEqual([]);
  });

  it('has a row for every registered route', () => {
    const selfDescribing = new Set(['GET /api/openapi.json', 'GET /api/docs']);
    const registered = api.app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`)
      .filter((r, i, list) => !selfDescribing.has(r) && list.indexOf(r) === i);
    const covered = rows.map((r) => r.route);
    expect(new Set(covered).size).toBe(covered.length);
    expect(registered.filter((r) => !covered.includes(r))).toEqual([]);
    expect(covered.filter((r) => !registered.includes(r))).toEqual([]);
  });
});
