import { beforeAll, describe, expect, it } from 'vitest';
import {
  achievementFactory,
  applicationFactory,
  chatMessageFactory,
  earnedAchievementFactory,
  gameFactory,
  gameStatsConfigFactory,
  insertTeam,
  matchFactory,
  matchParticipantFactory,
  newsFactory,
  notificationFactory,
  playerGameStatsFactory,
  savedNewsFactory,
  statFieldFactory,
  teamGameStatsFactory,
  teamInviteFactory,
  teamMemberFactory,
  tournamentFactory,
} from '../../src/server/db/factories/index.ts';
import { notifications } from '../../src/server/db/schema/index.ts';
import type { CallOptions } from '../support/api.ts';
import { accounts, useTestApi } from '../support/builders.ts';
import { forgetHeldSessions } from '../../src/server/services/accounts/held-sessions.ts';

/*
 * No N+1: a list costs the same number of SQL statements whatever its length. Each test reads
 * lists, makes them longer, reads them again and expects the same count (and a longer list).
 * Rows are written straight into the database by the factories the seed uses
 * (src/server/db/factories): the rules of making them through the API are other files' tests.
 */

const api = useTestApi();
let admin: string;

beforeAll(async () => {
  admin = (await api.signedIn('admin')).token;
});

let seq = 0;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const length = (body: unknown) => (body as unknown[]).length;

/** Confirmed players with no password anyone knows; their ids. */
const players = (n: number) => accounts(api, n);

/** A team of `size` players (the first is captain; `with` joins as one of them). */
async function team(size: number, options: { with?: string } = {}): Promise<{ id: string; members: string[] }> {
  const others = await players(size - (options.with ? 1 : 0));
  const members = options.with ? [others[0]!, options.with, ...others.slice(1)].slice(0, size) : others;
  const row = await insertTeam(api.db, { captainId: members[0]!, members });
  return { id: row.id, members };
}

/** A game, with a statistics configuration when `configured`. */
async function game(configured = false): Promise<string> {
  const row = await gameFactory.insert(api.db, {});
  if (configured) await gameStatsConfigFactory.insert(api.db, { gameId: row.id });
  return row.id;
}

/** A tournament, each a minute later than the one before. */
async function tournament(values: Parameters<typeof tournamentFactory.values>[0]): Promise<string> {
  const row = await tournamentFactory.insert(api.db, { date: new Date(Date.now() + ++seq * 60_000), ...values });
  return row.id;
}

interface Probe {
  path: string;
  token?: string;
  /** How long the list in the answer is. */
  size?: (body: unknown) => number;
}

async function measure(method: string, path: string, options: CallOptions = {}) {
  // Every measured request looks its session up, as the first after a write does (decision 026).
  forgetHeldSessions();
  const { result, queries } = await api.queriesOf(() => api.call(method, path, options));
  return { status: result.status, body: result.body as unknown, queries };
}

async function read(probe: Probe) {
  const res = await measure('GET', probe.path, probe.token ? { token: probe.token } : {});
  expect(res.status, `${probe.path}: ${JSON.stringify(res.body)}`).toBe(200);
  return { queries: res.queries, size: (probe.size ?? length)(res.body) };
}

/** Reads every probe, lets `grow` make the lists longer, and expects the same statement count after. */
async function expectFlat(probes: Probe[], grow: () => Promise<void>): Promise<void> {
  const before = [];
  for (const probe of probes) before.push(await read(probe));
  await grow();
  for (const [i, probe] of probes.entries()) {
    const after = await read(probe);
    const was = before[i]!;
    expect(after.size, `${probe.path} should list more after growing`).toBeGreaterThan(was.size);
    expect(after.queries.length, `${probe.path} (${was.size} → ${after.size} items) ran:\n${after.queries.join('\n')}`).toBe(was.queries.length);
  }
}

describe('tournament lists', () => {
  it('cost the same for every game, for one game and for each type, whatever their length and winners', async () => {
    const gameId = await game(true);
    const add = async (count: number) => {
      const winners = await players(count);
      const winnerTeams = await Promise.all(range(count).map(() => team(1)));
      for (const i of range(count)) {
        await tournament({ gameId, soloOnly: true, status: 'finished', winnerType: 'user', winnerId: winners[i]! });
        await tournament({ gameId, soloOnly: false, status: 'finished', winnerType: 'team', winnerId: winnerTeams[i]!.id });
        await tournament({ gameId, soloOnly: false, status: 'pending' });
      }
    };
    await add(1);
    await expectFlat(
      [
        { path: '/api/tournaments' },
        { path: `/api/tournaments?game=${gameId}` },
        { path: `/api/tournaments?game=${gameId}&soloOnly=true` },
        { path: `/api/tournaments?game=${gameId}&soloOnly=false` },
        { path: '/api/tournaments?soloOnly=true' },
        { path: `/api/tournaments?game=${gameId}&status=finished&from=2000-01-01&sort=title_asc&limit=100&offset=0` },
        { path: `/api/tournaments?game=${gameId}`, token: admin },
        { path: '/api/stats/tournaments', token: admin },
      ],
      () => add(4),
    );
  });
});

describe('a tournament with its participants', () => {
  it('costs the same for guests, players and admins, in its page, bracket, roster and the applications list', async () => {
    const gameId = await game(true);
    const solo = await tournament({ gameId, soloOnly: true, status: 'started', statsEnabled: true });
    const teamCup = await tournament({ gameId, soloOnly: false, status: 'started', statsEnabled: true });
    const viewer = await api.signedIn('user');
    const viewerTeam = await team(3, { with: viewer.user.id });
    await applicationFactory.insertMany(api.db, [
      { tournamentId: solo, userId: viewer.user.id, status: 'pending' },
      { tournamentId: teamCup, userId: viewerTeam.members[0]!, teamId: viewerTeam.id, status: 'pending' },
    ]);
    const add = async (count: number) => {
      const soloPlayers = await players(count * 2);
      const teamList = await Promise.all(range(count * 2).map(() => team(3)));
      await applicationFactory.insertMany(api.db, [
        ...soloPlayers.map((userId, i) => ({ tournamentId: solo, userId, status: i % 2 === 0 ? ('approved' as const) : ('pending' as const) })),
        ...teamList.map((t, i) => ({
          tournamentId: teamCup,
          userId: t.members[0]!,
          teamId: t.id,
          status: i % 2 === 0 ? ('approved' as const) : ('rejected' as const),
        })),
      ]);
    };
    await add(1);
    const applicationsOf = (body: unknown) => (body as { applications: unknown[] }).applications.length;
    const participantsOf = (body: unknown) => (body as { participants: unknown[] }).participants.length;
    const rosterOf = (body: unknown) => {
      const { participants } = body as { participants: { users: unknown[]; teams: unknown[] } };
      return participants.users.length + participants.teams.length;
    };
    const probes: Probe[] = [];
    for (const id of [solo, teamCup]) {
      probes.push(
        { path: `/api/tournaments/${id}`, size: applicationsOf },
        { path: `/api/tournaments/${id}`, token: viewer.token, size: applicationsOf },
        { path: `/api/tournaments/${id}`, token: admin, size: applicationsOf },
        { path: `/api/tournaments/${id}/bracket`, size: participantsOf },
        { path: `/api/tournaments/${id}/stats`, token: admin, size: rosterOf },
        { path: `/api/applications?tournament=${id}`, token: admin },
      );
    }
    probes.push(
      { path: '/api/applications', token: admin },
      { path: '/api/applications?status=approved', token: admin },
      { path: `/api/applications?status=approved&tournament=${teamCup}`, token: admin },
    );
    await expectFlat(probes, () => add(3));
  });
});

describe('news', () => {
  it('costs the same for every list and for the saved ones', async () => {
    const reader = await api.signedIn('user');
    const add = async (count: number) => {
      const rows = await newsFactory.insertMany(
        api.db,
        range(count * 2).map((i) => ({ archived: i % 2 === 1 })),
      );
      await savedNewsFactory.insertMany(
        api.db,
        rows.map((r) => ({ userId: reader.user.id, newsId: r.id })),
      );
    };
    await add(1);
    await expectFlat(
      [
        { path: '/api/news' },
        { path: '/api/news?archived=false' },
        { path: '/api/news?archived=true' },
        { path: '/api/news', token: reader.token },
        { path: '/api/news/saved', token: reader.token },
        { path: '/api/news/saved/items', token: reader.token },
      ],
      () => add(4),
    );
  });
});

describe('games and their statistics setup', () => {
  it('cost the same however many games, fields and achievements there are', async () => {
    const gameId = await game(true);
    const add = async (count: number) => {
      for (let i = 0; i < count; i++) await game(true);
      await statFieldFactory.insertMany(
        api.db,
        range(count).map(() => ({ gameId })),
      );
      await achievementFactory.insertMany(
        api.db,
        range(count).map(() => ({ gameId })),
      );
    };
    await add(1);
    const configOf = (body: unknown) => {
      const config = body as { statsFields: unknown[]; gameAchievements: unknown[] };
      return config.statsFields.length + config.gameAchievements.length;
    };
    await expectFlat(
      [
        { path: '/api/games' },
        { path: '/api/game-management/list' },
        { path: '/api/stats/games' },
        { path: `/api/game-management/config/${gameId}`, size: configOf },
        { path: `/api/game-management/${gameId}/stats-config`, size: configOf },
      ],
      () => add(4),
    );
  });
});

describe('leaderboards and achievements', () => {
  it('cost the same in every sort, with badges on every row, and for a player’s achievements', async () => {
    const gameId = await game(true);
    const star = (await players(1))[0]!;
    const starTeam = await team(2, { with: star });
    let starsListed = false;
    const add = async (count: number) => {
      const badges = await achievementFactory.insertMany(
        api.db,
        range(count).map(() => ({ gameId })),
      );
      const people = await players(count);
      const crews = (await Promise.all(range(count).map(() => team(1)))).map((c) => c.id);
      const listed = { people: starsListed ? people : [star, ...people], crews: starsListed ? crews : [starTeam.id, ...crews] };
      starsListed = true;
      await playerGameStatsFactory.insertMany(
        api.db,
        listed.people.map((userId, i) => ({ userId, gameId, rating: 1000 + i * 7, matchesPlayed: 3 + i, matchesWon: i % 3 })),
      );
      await teamGameStatsFactory.insertMany(
        api.db,
        listed.crews.map((teamId, i) => ({ teamId, gameId, rating: 1000 + i * 5, matchesPlayed: 2 + i, matchesWon: i % 2 })),
      );
      // Every new badge goes to the new rows and to the star and their team.
      const holders = { people: [...new Set([star, ...people])], crews: [...new Set([starTeam.id, ...crews])] };
      await earnedAchievementFactory.insertMany(api.db, [
        ...badges.flatMap((b) => holders.people.map((userId) => ({ achievementId: b.id, userId }))),
        ...badges.flatMap((b) => holders.crews.map((teamId) => ({ achievementId: b.id, teamId }))),
      ]);
    };
    await add(1);
    const probes: Probe[] = [];
    for (const sort of ['rating_desc', 'rating_asc', 'wins_desc', 'winrate_desc']) {
      probes.push({ path: `/api/stats/leaderboard/game/${gameId}?sort=${sort}` }, { path: `/api/stats/leaderboard/teams/game/${gameId}?sort=${sort}` });
    }
    // The badges on every row count too: more badges each, same statements.
    const badgeCount = (body: unknown) => (body as { achievements: unknown[] }[]).reduce((sum, row) => sum + 1 + row.achievements.length, 0);
    probes.push({ path: `/api/stats/leaderboard/game/${gameId}`, size: badgeCount }, { path: `/api/stats/achievements/player/${star}` });
    await expectFlat(probes, () => add(4));
  });
});

describe('profiles (issue 23)', () => {
  it('cost the same for a player and a team, whatever their games, history, achievements, places, teams and matches', async () => {
    const player = (await players(1))[0]!;
    const crew = await team(2, { with: player });
    const rival = await team(1);
    const add = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const gameId = await game(true);
        const badge = await achievementFactory.insert(api.db, { gameId });
        await earnedAchievementFactory.insertMany(api.db, [
          { achievementId: badge.id, userId: player },
          { achievementId: badge.id, teamId: crew.id },
        ]);
        await playerGameStatsFactory.insert(api.db, { userId: player, gameId, rating: 1016, matchesPlayed: 2, matchesWon: 1 });
        await teamGameStatsFactory.insert(api.db, { teamId: crew.id, gameId, rating: 1016, matchesPlayed: 2, matchesWon: 1 });
        // A place in a solo and in a team tournament, each won.
        const solo = await tournament({ gameId, soloOnly: true, status: 'finished', winnerType: 'user', winnerId: player });
        const teamCup = await tournament({ gameId, soloOnly: false, status: 'finished', winnerType: 'team', winnerId: crew.id });
        await applicationFactory.insertMany(api.db, [
          { tournamentId: solo, userId: player, status: 'approved' },
          { tournamentId: teamCup, userId: player, teamId: crew.id, status: 'approved' },
        ]);
        // Two matches each, with the rating after them (the chart's points).
        for (const at of [1, 2]) {
          const [solo1, team1] = await matchFactory.insertMany(api.db, [
            { gameId, tournamentId: solo, completedAt: new Date(Date.now() - at * 60_000) },
            { gameId, tournamentId: teamCup, completedAt: new Date(Date.now() - at * 60_000) },
          ]);
          await matchParticipantFactory.insertMany(api.db, [
            { matchId: solo1!.id, participantType: 'user', userId: player, name: 'Гравець', score: 2, isWinner: true, ratingAfter: 1000 + at * 16 },
            { matchId: solo1!.id, participantType: 'user', userId: crew.members[0]!, name: 'Суперник', score: 1, ratingAfter: 1000 - at * 16 },
            { matchId: team1!.id, participantType: 'team', teamId: crew.id, name: 'Команда', score: 2, isWinner: true, ratingAfter: 1000 + at * 16 },
            { matchId: team1!.id, participantType: 'team', teamId: rival.id, name: 'Суперники', score: 1, ratingAfter: 1000 - at * 16 },
          ]);
        }
      }
      // Another team to be in.
      await team(2, { with: player });
    };
    const size = (body: unknown) => {
      const p = body as { games: { history: unknown[] }[]; achievements: unknown[]; placements: unknown[]; matches: unknown[]; teams?: unknown[] };
      return p.games.reduce((sum, g) => sum + 1 + g.history.length, 0) + p.achievements.length + p.placements.length + p.matches.length + (p.teams?.length ?? 0);
    };
    await add(1);
    await expectFlat(
      [
        { path: `/api/players/${player}`, size },
        { path: `/api/teams/${crew.id}`, size },
      ],
      () => add(3),
    );
  });
});

describe('match history', () => {
  it('costs the same for a player and a team, whatever the page holds', async () => {
    const gameId = await game(true);
    const cup = await tournament({ gameId, soloOnly: false });
    const player = (await players(1))[0]!;
    const crew = await team(2, { with: player });
    const add = async (count: number) => {
      const rivals = await players(count);
      const rivalTeams = await Promise.all(range(count).map(() => team(1)));
      for (const i of range(count)) {
        const [solo, teamMatch] = await matchFactory.insertMany(api.db, [
          { gameId, completedAt: new Date() },
          { gameId, tournamentId: cup, completedAt: new Date() },
        ]);
        await matchParticipantFactory.insertMany(api.db, [
          { matchId: solo!.id, participantType: 'user', userId: player, name: 'Гравець', score: 2, isWinner: true },
          { matchId: solo!.id, participantType: 'user', userId: rivals[i]!, name: 'Суперник', score: 1 },
          { matchId: teamMatch!.id, participantType: 'team', teamId: crew.id, name: 'Команда', score: 0 },
          { matchId: teamMatch!.id, participantType: 'team', teamId: rivalTeams[i]!.id, name: 'Суперники', score: 1, isWinner: true },
        ]);
      }
    };
    await add(1);
    await expectFlat(
      [
        { path: `/api/stats/matches/player/${player}` },
        { path: `/api/stats/matches/team/${crew.id}` },
        { path: `/api/stats/matches/team/${crew.id}?limit=100` },
      ],
      () => add(4),
    );
  });
});

describe('a player’s own lists', () => {
  it('cost the same however many teams, members, invites, messages and notifications there are', async () => {
    const me = await api.signedIn('user');
    const first = await team(2, { with: me.user.id });
    const add = async (count: number) => {
      const joined = await Promise.all(range(count).map(() => team(3, { with: me.user.id })));
      const newcomers = await players(count);
      await teamMemberFactory.insertMany(
        api.db,
        newcomers.map((userId) => ({ teamId: first.id, userId })),
      );
      const invited = await players(count * 2);
      await teamInviteFactory.insertMany(api.db, [
        ...invited.slice(0, count).map((userId) => ({ teamId: first.id, userId })),
        ...invited.slice(count).map((userId, i) => ({ teamId: joined[i]!.id, userId })),
      ]);
      const authors = [me.user.id, ...first.members, ...newcomers];
      await chatMessageFactory.insertMany(
        api.db,
        range(count * 3).map((i) => ({ teamId: first.id, userId: authors[i % authors.length]!, message: `привіт ${i}` })),
      );
      await notificationFactory.insertMany(
        api.db,
        range(count * 2).map((i) => ({ userId: me.user.id, text: `Сповіщення ${i}` })),
      );
    };
    await add(1);
    const peopleIn = (body: unknown) => (body as { members: unknown[]; invites: unknown[] }[]).reduce((sum, t) => sum + 1 + t.members.length + t.invites.length, 0);
    await expectFlat(
      [
        { path: '/api/teams/mine', token: me.token, size: peopleIn },
        { path: '/api/users/me', token: me.token, size: (body) => (body as { teams: unknown[] }).teams.length },
        { path: '/api/cabinet/me', token: me.token, size: (body) => (body as { myTeam: { membersCount: number } }).myTeam.membersCount },
        { path: `/api/team/${first.id}/chat`, token: me.token },
        { path: `/api/team/${first.id}/chat?after=2000-01-01T00:00:00Z`, token: me.token },
        { path: '/api/users/me/notifications', token: me.token },
      ],
      () => add(4),
    );
  });
});

describe('writes that reach a whole team', () => {
  /** Statements of one admin write, with a team of `size` on the receiving end. */
  async function winnerCost(size: number) {
    const gameId = await game();
    const id = await tournament({ gameId, soloOnly: false, status: 'finished' });
    const crew = await team(size);
    await applicationFactory.insert(api.db, { tournamentId: id, userId: crew.members[0]!, teamId: crew.id, status: 'approved' });
    const res = await measure('PATCH', `/api/tournaments/${id}/winner`, { token: admin, body: { winnerType: 'team', winnerId: crew.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const told = await api.db.select().from(notifications);
    expect(told.filter((n) => n.payload.tournamentId === id)).toHaveLength(size);
    return res.queries;
  }

  it('choosing a winning team costs the same for a team of two and of seven', async () => {
    const small = await winnerCost(2);
    const large = await winnerCost(7);
    expect(large.length, large.join('\n')).toBe(small.length);
  });

  /** Records a team match that earns `earned` achievements for both teams of `size` players. */
  async function recordCost(size: number, earned: number) {
    const gameId = await game(true);
    await achievementFactory.insertMany(
      api.db,
      range(earned).map(() => ({ gameId, condition: 'matchesPlayed >= 1' })),
    );
    const id = await tournament({ gameId, soloOnly: false, status: 'started', statsEnabled: true });
    const [home, away] = [await team(size), await team(size)];
    await applicationFactory.insertMany(
      api.db,
      [home, away].map((t) => ({ tournamentId: id, userId: t.members[0]!, teamId: t.id, status: 'approved' as const })),
    );
    const res = await measure('POST', `/api/tournaments/${id}/record-match`, {
      token: admin,
      body: { participant1Type: 'team', participant1Id: home.id, participant2Type: 'team', participant2Id: away.id, score1: 2, score2: 1 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((res.body as { achievements: unknown[] }).achievements).toHaveLength(earned * 2);
    const told = await api.db.select().from(notifications);
    expect(told.filter((n) => n.payload.tournamentId === id)).toHaveLength(earned * 2 * size);
    return res.queries;
  }

  it('recording a match costs the same however many achievements it earns and however large the teams', async () => {
    const small = await recordCost(2, 1);
    const large = await recordCost(6, 3);
    expect(large.length, large.join('\n')).toBe(small.length);
  });
});
