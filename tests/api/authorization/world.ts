import { createECDH, randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { notifications } from '../../../src/server/db/schema/index.ts';
import { createUser } from '../../../src/server/services/accounts/accounts.ts';
import { notify } from '../../../src/server/services/notices/notifications.ts';
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
} from '../../support/builders.ts';
import { BOT_TOKEN, startTelegramService } from '../../support/telegram-service.ts';
import { discordSignIn } from '../../../src/server/sign-in/discord.ts';

/*
 * The authorization matrix's world (issue 10): its callers, the objects its rows act on, built once
 * before the rows run, and the shapes of the expectations. Imported by authorization.test.ts (and
 * its rows' files), whose test API this module's `useTestApi` is.
 */

/**
 * `staff`: a co-organiser (issue 23) of the tournaments the organiser rows use, and of no other.
 * `orgOwner`, `orgAdmin`, `orgStaff`: the people of organisation A (issue 56), who organise its
 * tournaments and nothing of the site's or of another organisation's.
 */
export const ACTORS = ['guest', 'unconfirmed', 'user', 'member', 'captain', 'otherCaptain', 'staff', 'orgOwner', 'orgAdmin', 'orgStaff', 'admin'] as const;
export type Actor = (typeof ACTORS)[number];
export type Expect = Record<Actor, number>;

export interface Request {
  path: string;
  body?: unknown;
  /** Overrides the actor's token (null: none). */
  token?: string | null;
  ip?: string;
}

export interface Row {
  route: string;
  request: (actor: Actor) => Request | Promise<Request>;
  expect: Expect;
}

/** Telegram's Bot API stand-in (issue 60): the bot is on, and @matrix_news is a channel where it may post. */
export const telegram = await startTelegramService();
telegram.chat({ id: -1001000000777, username: 'matrix_news', botStatus: 'administrator' });
afterAll(() => telegram.close());
export const api = useTestApi({
  telegram: { apiRoot: telegram.apiRoot, token: BOT_TOKEN },
  // Sign-in with Discord (issue 60): on, aimed at an address never reached (only its start, which asks no one, is called here).
  signInProviders: {
    discord: discordSignIn({
      clientId: '123456789012345678',
      clientSecret: 'matrix-secret',
      root: 'http://127.0.0.1:9',
      redirectUri: 'https://arena.test/api/auth/discord/callback',
    }),
  },
});
export const people = {} as Record<Exclude<Actor, 'guest' | 'unconfirmed'>, Player>;
export const w = {} as Record<string, string>;
/** Letters and digits only, so it also fits a stat field's name. */
export const unique = () => randomUUID().slice(0, 8);
export const DISCORD_WEBHOOK = `https://discord.com/api/webhooks/112233445566778899/${'a'.repeat(68)}`;

/** Everyone the same status. */
export const all = (status: number): Expect => Object.fromEntries(ACTORS.map((a) => [a, status])) as Expect;
/** Signed-in callers get `ok`; a guest (and the unconfirmed account, which cannot sign in) 401. */
export const signed = (ok: number, overrides: Partial<Expect> = {}): Expect => ({ ...all(ok), guest: 401, unconfirmed: 401, ...overrides });
/** Admins get `ok`; other signed-in callers 403. */
export const adminOnly = (ok: number): Expect => signed(403, { admin: ok });
/** The tournament's organisers (decision 016): its admin and its staff get `ok` (the staff `staffOk`); other signed-in callers 403. */
export const organiser = (ok: number, staffOk = ok): Expect => signed(403, { admin: ok, staff: staffOk });
export const isOrgActor = (a: Actor) => a === 'orgOwner' || a === 'orgAdmin' || a === 'orgStaff';
/** Organisation A's owner and admins get `ok`; its staff and everyone else signed in 403. */
export const orgManagers = (ok: number): Expect => signed(403, { orgOwner: ok, orgAdmin: ok });
/** Only team A's captain gets `ok`. */
export const captainOnly = (ok: number): Expect => signed(403, { captain: ok });

/** A browser's push subscription of each caller's own (issue 60): a valid P-256 key, an endpoint nobody else holds. */
export const pushDevice = (actor: Actor) => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint: `https://push.example.test/matrix/${actor}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: 'AAAAAAAAAAAAAAAAAAAAAA' } };
};

export const tokenOf = (actor: Actor): string | undefined => (actor === 'guest' || actor === 'unconfirmed' ? undefined : people[actor].token);

export async function ok<T = Record<string, unknown>>(method: string, path: string, token: string | undefined, body?: unknown) {
  const res = await api.call<T>(method, path, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Organisation A's webhooks deleted, so a row may register more than the organisation's limit over its callers. */
export async function clearWebhooks() {
  const { webhooks } = await ok<{ webhooks: { _id: string }[] }>('GET', `/api/organisations/${w.orgA}/webhooks`, people.orgOwner.token);
  for (const hook of webhooks) await ok('DELETE', `/api/organisations/${w.orgA}/webhooks/${hook._id}`, people.orgOwner.token);
}

export async function login(person: Player): Promise<string> {
  const body = await ok<{ token: string }>('POST', '/api/auth/login', undefined, { loginOrEmail: person.user.username, password: person.password });
  return body.token;
}

/** A new solo or team tournament of the matrix's game, with no participants. */
export const newTournament = async (soloOnly: boolean) => (await tournament(api, { game: w.game, soloOnly })).id;

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
  await ok('PUT', `/api/games/${w.game}/maps`, people.admin.token, {
    maps: ['Ancient', 'Anubis', 'Dust II', 'Inferno', 'Mirage', 'Nuke', 'Overpass'],
    sides: ['CT', 'T'],
  });
  const vetoDuel = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member] });
  w.vetoMatch = (await stage(api, vetoDuel.id, { format: 'single_elimination', settings: { veto: {} } })).matches[0]!._id;
  // Evidence (issue 58): a final of the user (side a) and the member, one screenshot of the user's already in it; the staff organise it.
  const evidenceDuel = await tournament(api, { game: w.game, soloOnly: true, approved: [people.user, people.member] });
  w.evidenceTournament = evidenceDuel.id;
  w.evidenceMatch = (await stage(api, evidenceDuel.id, { format: 'single_elimination' })).matches[0]!._id;
  const firstEvidence = await ok<{ evidence: { _id: string }[] }>(
    'POST',
    `/api/matches/${w.evidenceMatch}/evidence`,
    people.user.token,
    await screenshotForm(),
  );
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
    const asked = await ok<{ request: { _id: string } }>('POST', `/api/tournaments/${w[name]}/venue-network`, people.admin.token, {
      networks: ['192.0.2.0/24'],
      note: 'Зала',
    });
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
export async function screenshotForm(): Promise<FormData> {
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'screen.png');
  return form;
}

/** A new organisation owned by `owner`, with `roles` of the matrix's people in it; its id. */
export async function organisationOf(owner: Player, roles: Partial<Record<Actor, 'admin' | 'staff'>> = {}): Promise<string> {
  const made = await ok<{ organisation: { _id: string } }>('POST', '/api/organisations', owner.token, { name: `Організація ${unique()}` });
  for (const [actor, role] of Object.entries(roles)) {
    await ok('POST', `/api/organisations/${made.organisation._id}/members`, owner.token, { user: people[actor as 'orgAdmin'].user.id, role });
  }
  return made.organisation._id;
}

/** A new season of organisation A's, made by one of its managers; its id. */
export async function seasonOf(by: Player): Promise<string> {
  const made = await ok<{ season: { _id: string } }>('POST', '/api/seasons', by.token, {
    name: `Сезон ${unique()}`,
    game: w.game,
    pointsByPlace: [3, 2, 1],
    organisation: w.orgA,
  });
  return made.season._id;
}

/** A new member of organisation A, for the rows that change or remove one. */
export async function orgMember(role: 'admin' | 'staff' = 'staff'): Promise<string> {
  const person = await player(api);
  await ok('POST', `/api/organisations/${w.orgA}/members`, people.orgOwner.token, { user: person.user.id, role });
  return person.user.id;
}

/** A fresh notification of the team member's, for the delete row (only its owner may delete it). */
export async function memberNotification() {
  await notify(api.db, people.member.user.id, `Сповіщення ${unique()}`);
  const [row] = await api.db.select().from(notifications).where(eq(notifications.userId, people.member.user.id)).orderBy(desc(notifications.date)).limit(1);
  return row!.id;
}

/** A fresh solo tournament with an admin invite for the team member, for the invite-answer rows. */
export async function memberTournamentInvite() {
  const tournament = await newTournament(true);
  const body = await ok<{ application: { _id: string } }>('POST', '/api/applications/invite', people.admin.token, { tournament, user: people.member.user.id });
  return body.application._id;
}

export const ip = (actor: Actor) => `198.51.100.${ACTORS.indexOf(actor) + 10}`;
