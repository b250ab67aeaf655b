import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { AchievementInput, SetupResult, StatFieldInput } from '../../src/lib/api/game-management.ts';
import type { StageCreateInput, StageView } from '../../src/lib/api/stages.ts';
import type { TeamMessage } from '../../src/lib/api/teams.ts';
import type { MatchRecorded, RecordMatchInput } from '../../src/lib/api/tournament-stats.ts';
import { TEAM_SIZE } from '../../src/lib/domain/application-rules.ts';
import type { StatsTemplate } from '../../src/lib/domain/stat-fields.ts';
import { insertTeam, uniqueName, userFactory } from '../../src/server/db/factories/index.ts';
import { users } from '../../src/server/db/schema/index.ts';
import { createSession } from '../../src/server/services/accounts/sessions.ts';
import { changed, EVERYTHING } from '../../src/server/services/live/changes.ts';
import { createTestApi, type TestApi, type TestApiOptions } from './api.ts';

/*
 * The people and things API tests start from. Each goes through the API (or, where no route can
 * make it in one step, the service), so a test reads as its story and a rule lives in one place.
 * Only the silent team fillers of `accounts` and the teams of `team` are written as rows, by the
 * factories the demo seed uses (src/server/db/factories): the fillers never sign in, and hashing a
 * password for each would cost a test file seconds.
 */

/** A confirmed, signed-in account: `user` is its row, `token` its session, `password` its password. */
export type Player = Awaited<ReturnType<TestApi['signedIn']>>;

/**
 * A fresh API for this test file: opened before its first test and closed after its last. The object
 * returned is filled in by then, so the file keeps one `const api = useTestApi()` and no hooks.
 */
export function useTestApi(options?: TestApiOptions): TestApi {
  const api = {} as TestApi;
  beforeAll(async () => {
    Object.assign(api, await createTestApi(options));
  });
  afterAll(async () => {
    // Undefined when opening failed: the error to read is that one.
    await api.close?.();
  });
  return api;
}

/** A name no other builder or factory call has given, with `prefix` in front. */
export const unique = uniqueName;

/** A signed-in player, named `username` when given. */
export const player = (api: TestApi, username?: string): Promise<Player> => api.signedIn('user', username);

const admins = new WeakMap<TestApi, Promise<Player>>();
/** The file's admin: signed in on first use, the same one after. */
export function admin(api: TestApi): Promise<Player> {
  let found = admins.get(api);
  if (!found) {
    found = api.signedIn('admin');
    admins.set(api, found);
  }
  return found;
}

/** Throws with the answer when a builder's call was refused: a broken setup, not a test result. */
async function expectStatus<T>(answer: Promise<{ status: number; body: T }>, status: number, what: string): Promise<T> {
  const res = await answer;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Confirmed players that exist only to fill teams (they never sign in); their ids. */
export async function accounts(api: TestApi, count: number): Promise<string[]> {
  if (count <= 0) return [];
  const rows = await userFactory.insertMany(
    api.db,
    Array.from({ length: count }, () => ({ username: unique('m_') })),
  );
  return rows.map((r) => r.id);
}

export interface BuiltTeam {
  id: string;
  name: string;
  /** Every member's id, the captain first. */
  members: string[];
}

/**
 * A team of `size` members, the captain (a player or an id) included; `members` join first after
 * the captain, then silent `accounts` fill it. The team is written by the team factory (no limit on
 * how many one captain makes); members join without an invite, as no route allows.
 */
export async function team(api: TestApi, captain: Player | string, size: number, options: { members?: string[]; name?: string } = {}): Promise<BuiltTeam> {
  const captainId = typeof captain === 'string' ? captain : captain.user.id;
  const fillers = await accounts(api, size - 1 - (options.members?.length ?? 0));
  const made = await insertTeam(api.db, { captainId, name: options.name ?? unique('Team '), members: [captainId, ...(options.members ?? []), ...fillers] });
  // As the teams service says after making a team: members' held sessions list their teams.
  changed('sessions', EVERYTHING);
  return { id: made.id, name: made.name, members: made.members };
}

/**
 * A team whose members all signed in and joined through the captain's invites, as people do:
 * `joining` first, then new players up to `size` with the captain.
 */
export async function invitedTeam(api: TestApi, size: number, captain?: Player, joining: Player[] = []) {
  const lead = captain ?? (await player(api));
  const created = await expectStatus(
    api.call<TeamMessage>('POST', '/api/teams', { token: lead.token, body: { name: unique('Команда ') } }),
    201,
    'create team',
  );
  const members: Player[] = [];
  for (let i = 1; i < size; i++) {
    const p = joining[i - 1] ?? (await player(api));
    await expectStatus(api.call('POST', `/api/teams/${created.team._id}/invite`, { token: lead.token, body: { query: p.user.username } }), 201, 'invite');
    await expectStatus(api.call('POST', `/api/teams/${created.team._id}/accept-invite`, { token: p.token }), 200, 'accept invite');
    members.push(p);
  }
  return { captain: lead, team: created.team, members };
}

/** A game made by the admin; its id. */
export async function game(api: TestApi, name = unique('Game ')): Promise<string> {
  const body = await expectStatus(
    api.call<{ game: { _id: string } }>('POST', '/api/games', { token: (await admin(api)).token, body: { name } }),
    201,
    'create game',
  );
  return body.game._id;
}

/** CS2's map pool of the Active Duty, as a veto plays it. */
export const ACTIVE_DUTY = ['Ancient', 'Anubis', 'Dust II', 'Inferno', 'Mirage', 'Nuke', 'Overpass'];

/** A new game with the Active Duty as its map pool and CT / T as its sides: its stages may ask for a veto. */
export async function vetoGame(api: TestApi): Promise<string> {
  const id = await game(api);
  await expectStatus(api.call('PUT', `/api/games/${id}/maps`, { token: (await admin(api)).token, body: { maps: ACTIVE_DUTY, sides: ['CT', 'T'] } }), 200, 'set map pool');
  return id;
}

export interface StatsGameOptions {
  name?: string;
  template?: StatsTemplate;
  /** In place of the template's stat fields. */
  fields?: StatFieldInput[];
  /** In place of the template's achievements. */
  achievements?: AchievementInput[];
}

/**
 * A game whose statistics the admin configured (`POST /api/game-management/setup`) from `template`,
 * or with exactly the `fields` and `achievements` given: the template's are deleted and these added
 * through the admin's routes, as the game management panel does. Its id.
 */
export async function statsGame(api: TestApi, options: StatsGameOptions = {}): Promise<string> {
  const { token } = await admin(api);
  const { game, config } = await expectStatus(
    api.call<SetupResult>('POST', '/api/game-management/setup', {
      token,
      body: { name: options.name ?? unique('Stats '), template: options.template ?? 'default' },
    }),
    201,
    'set up game statistics',
  );
  const base = `/api/game-management/${game._id}`;
  if (options.achievements) {
    for (const a of config.gameAchievements) await expectStatus(api.call('DELETE', `${base}/achievements/${a._id}`, { token }), 200, 'delete achievement');
  }
  if (options.fields) {
    for (const f of config.statsFields) await expectStatus(api.call('DELETE', `${base}/stat-fields/${f.fieldName}`, { token }), 200, 'delete stat field');
    for (const body of options.fields) await expectStatus(api.call('POST', `${base}/add-stat-field`, { token, body }), 201, 'add stat field');
  }
  for (const body of options.achievements ?? []) await expectStatus(api.call('POST', `${base}/add-achievement`, { token, body }), 201, 'add achievement');
  return game._id;
}

export interface TournamentOptions {
  /** The game's id; a new game when left out. */
  game?: string;
  soloOnly?: boolean;
  title?: string;
  date?: string;
  description?: string;
  /** Set after the participants are approved (applications are only taken while pending). */
  status?: 'pending' | 'started' | 'finished';
  /** Approved participants, in application order: a number of new players or teams, or who they are. */
  approved?: number | (Player | BuiltTeam)[];
  /** More fields of the create form: the cap, the registration and check-in windows (issue 22). */
  settings?: Record<string, unknown>;
}

export interface BuiltTournament {
  id: string;
  title: string;
  date: string;
  game: string;
  soloOnly: boolean;
  /** The approved participants' ids (players' in a solo tournament, teams' otherwise), in application order. */
  approved: string[];
}

/**
 * A tournament made by the admin, with approved participants who applied and were approved through
 * the API: players in a solo tournament, teams of the smallest size allowed otherwise (a team given
 * applies through its captain, signed in for it).
 */
export async function tournament(api: TestApi, options: TournamentOptions = {}): Promise<BuiltTournament> {
  const { token } = await admin(api);
  const gameId = options.game ?? (await game(api));
  const soloOnly = options.soloOnly ?? false;
  const body = await expectStatus(
    api.call<{ tournament: { _id: string; title: string; date: string } }>('POST', '/api/tournaments', {
      token,
      body: {
        title: options.title ?? unique('Cup '),
        date: options.date ?? '2030-05-01T16:00:00Z',
        game: gameId,
        soloOnly,
        ...(options.description !== undefined ? { description: options.description } : {}),
        ...options.settings,
      },
    }),
    201,
    'create tournament',
  );
  const built = { id: body.tournament._id, title: body.tournament.title, date: body.tournament.date, game: gameId, soloOnly, approved: [] as string[] };
  const entrants = typeof options.approved === 'number' ? Array.from({ length: options.approved }, () => undefined) : (options.approved ?? []);
  for (const entrant of entrants) {
    let applicant: Player | BuiltTeam;
    if (entrant) applicant = entrant;
    else if (soloOnly) applicant = await player(api);
    else applicant = await team(api, await player(api), TEAM_SIZE.min);
    built.approved.push((await application(api, built.id, 'approved', applicant)).entrant);
  }
  if (options.status && options.status !== 'pending') await tournamentStatus(api, built, options.status);
  return built;
}

/**
 * An application to `tournamentId` made through the API and, unless pending, answered by the admin
 * (with `comment`): by `applicant` (a new player when left out), or by a team through its captain.
 * `entrant` is the player's or the team's id.
 */
export async function application(
  api: TestApi,
  tournamentId: string,
  status: 'pending' | 'approved' | 'rejected' = 'pending',
  applicant?: Player | BuiltTeam,
  comment?: string,
) {
  const by = applicant ?? (await player(api));
  const isTeam = 'members' in by;
  const who = isTeam ? await signInAs(api, by.members[0]!) : by;
  const applied = await expectStatus(
    api.call<{ application: { _id: string } }>('POST', '/api/applications', {
      token: who.token,
      body: { tournament: tournamentId, ...(isTeam ? { team: by.id } : {}) },
    }),
    201,
    'apply',
  );
  const id = applied.application._id;
  if (status !== 'pending') {
    const { token } = await admin(api);
    await expectStatus(
      api.call('PATCH', `/api/applications/${id}/status`, { token, body: { status, ...(comment !== undefined ? { comment } : {}) } }),
      200,
      `answer application (${status})`,
    );
  }
  return { id, entrant: isTeam ? by.id : who.user.id, applicant: who };
}

/** Sets a tournament's status through the admin's edit form. */
export async function tournamentStatus(api: TestApi, cup: Pick<BuiltTournament, 'id' | 'title' | 'date' | 'game'>, status: 'pending' | 'started' | 'finished') {
  const { token } = await admin(api);
  await expectStatus(
    api.call('PUT', `/api/tournaments/${cup.id}`, { token, body: { title: cup.title, date: cup.date, game: cup.game, status } }),
    200,
    'set status',
  );
}

/** A session for an account made by `accounts` or `team` (their password is unknown): a new session row. */
async function signInAs(api: TestApi, userId: string): Promise<Player> {
  const [row] = await api.db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new Error(`no user ${userId}`);
  const { token } = await createSession(api.db, row.id, 30);
  return { user: row, token, password: '' };
}

/** Statistics switched on for a tournament by the admin (its game needs a statistics configuration). */
export async function statsOn(api: TestApi, tournamentId: string): Promise<void> {
  await expectStatus(api.call('POST', `/api/tournaments/${tournamentId}/enable-stats`, { token: (await admin(api)).token }), 200, 'enable stats');
}

/** A match result the admin recorded in a tournament with statistics on (`POST …/record-match`). */
export async function recordedMatch(api: TestApi, tournamentId: string, match: RecordMatchInput): Promise<MatchRecorded> {
  return expectStatus(
    api.call<MatchRecorded>('POST', `/api/tournaments/${tournamentId}/record-match`, { token: (await admin(api)).token, body: match }),
    201,
    'record match',
  );
}

/** A stage the admin creates through the API (`POST …/stages`); the answer's stage. */
export async function stage(api: TestApi, tournamentId: string, input: StageCreateInput): Promise<StageView> {
  const { token } = await admin(api);
  const body = await expectStatus(
    api.call<{ stage: StageView }>('POST', `/api/tournaments/${tournamentId}/stages`, { token, body: input }),
    201,
    'create stage',
  );
  return body.stage;
}

/** A co-organiser of the tournament (issue 23): `person` (a new player when left out), named by the admin through the API. */
export async function coOrganiser(api: TestApi, tournamentId: string, person?: Player): Promise<Player> {
  const who = person ?? (await player(api));
  await expectStatus(
    api.call('POST', `/api/tournaments/${tournamentId}/staff`, { token: (await admin(api)).token, body: { user: who.user.username } }),
    201,
    'add staff',
  );
  return who;
}

export interface BuiltOrganisation {
  id: string;
  name: string;
  owner: Player;
  admin: Player;
  staff: Player;
}

/** An organisation (issue 56) with its owner, an admin and a staff member, each signed in. */
export async function organisationWithPeople(api: TestApi, prefix = 'Ліга '): Promise<BuiltOrganisation> {
  const owner = await player(api);
  const made = await expectStatus(
    api.call<{ organisation: { _id: string; name: string } }>('POST', '/api/organisations', { token: owner.token, body: { name: unique(prefix) } }),
    201,
    'create organisation',
  );
  const id = made.organisation._id;
  const [admin, staff] = [await player(api), await player(api)];
  for (const [who, role] of [
    [admin, 'admin'],
    [staff, 'staff'],
  ] as const) {
    await expectStatus(api.call('POST', `/api/organisations/${id}/members`, { token: owner.token, body: { user: who.user.id, role } }), 201, `add ${role}`);
  }
  return { id, name: made.organisation.name, owner, admin, staff };
}
