import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlayerProfile, TeamProfile } from '../../src/lib/api/profiles.ts';
import type { StagesState, StageMatchView } from '../../src/lib/api/stages.ts';
import { rankOf } from '../../src/lib/domain/rank.ts';
import { INITIAL_RATING } from '../../src/lib/domain/rating.ts';
import { matches, matchParticipants, playerGameStats, users } from '../../src/server/db/schema/index.ts';
import { standingsAfterResult } from '../../src/server/services/statistics/replay.ts';
import { backfillRatingsAfter } from '../../src/server/services/statistics/recompute.ts';
import type { StandingNumbers } from '../../src/server/services/statistics/tournament-stats.ts';
import {
  admin as adminOf,
  recordedMatch,
  stage,
  statsGame,
  statsOn,
  tournament,
  tournamentStatus,
  useTestApi,
  type Player,
} from '../support/builders.ts';

/*
 * Public profiles (issue 23): GET /api/players/{id} and GET /api/teams/{id}, the rating history
 * each match row keeps (`rating_after`), through record-match, stage results and their
 * corrections, and the places taken in tournaments.
 */

const api = useTestApi();
let admin: Player;

beforeAll(async () => {
  admin = await adminOf(api);
});

const achievementsOf = [{ name: 'First Win', description: 'Перша перемога', condition: 'wins >= 1', icon: '🥇', rarity: 'common' as const }];
const profileOf = (id: string) => api.call<PlayerProfile>('GET', `/api/players/${id}`);
const teamProfileOf = (id: string) => api.call<TeamProfile>('GET', `/api/teams/${id}`);

const stagesOf = async (tournamentId: string) => (await api.call<StagesState>('GET', `/api/tournaments/${tournamentId}/stages`)).body.stages;
const patch = async (match: Pick<StageMatchView, '_id' | 'version'>, body: Record<string, unknown>) => {
  const res = await api.call('PATCH', `/api/matches/${match._id}`, { token: admin.token, body: { version: match.version, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/**
 * Every player's rating after each of their matches in the game, replayed from scratch with the
 * rating rules alone, in the order the statistics replay (completed_at, created_at, id).
 */
async function cleanReplay(gameId: string): Promise<Map<string, number[]>> {
  const rows = await api.db
    .select({ id: matches.id, isDraw: matches.isDraw, userId: matchParticipants.userId, isWinner: matchParticipants.isWinner })
    .from(matches)
    .innerJoin(matchParticipants, eq(matchParticipants.matchId, matches.id))
    .where(and(eq(matches.gameId, gameId), eq(matches.status, 'completed')))
    .orderBy(sql`coalesce(${matches.completedAt}, ${matches.createdAt})`, asc(matches.createdAt), asc(matches.id), asc(matchParticipants.id));
  const start: StandingNumbers = { rating: INITIAL_RATING, matchesPlayed: 0, matchesWon: 0, matchesLost: 0, currentStreak: 0, totals: {} };
  const standing = new Map<string, StandingNumbers>();
  const history = new Map<string, number[]>();
  for (let i = 0; i < rows.length; i += 2) {
    const [a, b] = [rows[i]!, rows[i + 1]!];
    const winner = a.isWinner ? 0 : b.isWinner ? 1 : null;
    const after = standingsAfterResult([standing.get(a.userId!) ?? start, standing.get(b.userId!) ?? start], winner, [{}, {}]);
    [a, b].forEach((side, index) => {
      standing.set(side.userId!, after[index]!);
      history.set(side.userId!, [...(history.get(side.userId!) ?? []), after[index]!.rating]);
    });
  }
  return history;
}

/** A player's chart points in one game, as the profile gives them. */
async function chartOf(userId: string, gameId: string): Promise<number[]> {
  const res = await profileOf(userId);
  expect(res.status).toBe(200);
  return res.body.games.find((g) => g.game._id === gameId)?.history.map((p) => p.rating) ?? [];
}

describe('a player’s profile', () => {
  it('shows the player, each game’s rating with its rank and history in order, achievements and matches, and no address', async () => {
    const gameId = await statsGame(api, { achievements: achievementsOf });
    const cup = await tournament(api, { game: gameId, soloOnly: true, approved: 2 });
    await statsOn(api, cup.id);
    const [me, rival] = cup.approved as [string, string];
    const afterEach: number[] = [];
    for (const [score1, score2] of [
      [2, 1],
      [2, 0],
      [0, 2],
    ] as const) {
      const recorded = await recordedMatch(api, cup.id, { participant1Type: 'user', participant1Id: me, participant2Type: 'user', participant2Id: rival, score1, score2 });
      afterEach.push(recorded.participants[0].rating);
    }

    const res = await profileOf(me);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('charset=utf-8');
    const profile = res.body;
    expect(profile).toMatchObject({ _id: me, teams: [], placements: [] });
    expect(profile.avatar).toMatch(new RegExp(`^/api/avatar/${me}`));
    expect(profile.games).toHaveLength(1);
    const [rated] = profile.games;
    expect(rated!.game._id).toBe(gameId);
    expect(rated!.generalStats).toMatchObject({ matchesPlayed: 3, matchesWon: 2, matchesLost: 1, currentStreak: -1, rank: rankOf(afterEach[2]!) });
    expect(rated!.generalStats.ranking).toBeCloseTo(afterEach[2]!, 2);
    // One point per match, oldest first, each the rating record-match gave right after it.
    expect(rated!.history.map((p) => p.rating)).toEqual(afterEach);
    const times = rated!.history.map((p) => Date.parse(p.at));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(profile.achievements.map((a) => a.achievement.name)).toEqual(['First Win']);
    expect(profile.matches).toHaveLength(3);
    // The newest first: the 0–2 loss (sides in no particular order, as match history gives them).
    expect(Object.fromEntries(profile.matches[0]!.participants.map((p) => [p.id, p.score]))).toEqual({ [me]: 0, [rival]: 2 });
    // A public page: no e-mail address of anyone.
    const [row] = await api.db.select({ email: users.email }).from(users).where(eq(users.id, me));
    expect(JSON.stringify(profile)).not.toContain(row!.email);
  });

  it('is the same for everyone and cached as a public read', async () => {
    const cup = await tournament(api, { soloOnly: true, approved: 1 });
    const id = cup.approved[0]!;
    const guest = await profileOf(id);
    expect(guest.headers.get('cache-control')).toContain('public');
    expect(guest.headers.get('etag')).toBeTruthy();
    const signedIn = await api.call<PlayerProfile>('GET', `/api/players/${id}`, { token: admin.token });
    expect(signedIn.body).toEqual(guest.body);
    expect(guest.body).toMatchObject({ games: [], achievements: [], placements: [], matches: [] });
  });

  it('answers 404 in Ukrainian for an unknown player and 400 for an id that is not one', async () => {
    const missing = await profileOf('00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Гравця не знайдено' });
    const bad = await profileOf('not-an-id');
    expect(bad.status).toBe(400);
    expect((bad.body as unknown as { message: string }).message).toMatch(/[А-Яа-яІіЇїЄєҐґ]/);
  });
});

describe('the rating history through stage results', () => {
  it('equals the leaderboard after each result, and after a correction a clean replay of the corrected results', async () => {
    const gameId = await statsGame(api);
    const cup = await tournament(api, { game: gameId, soloOnly: true, approved: 4 });
    await statsOn(api, cup.id);
    const created = await stage(api, cup.id, { format: 'round_robin' });
    const players = cup.approved;

    // Every match played in order, side a winning; after each, every player's last point is their leaderboard rating.
    for (let guard = 0; guard < 20; guard++) {
      const ready = (await stagesOf(cup.id)).find((s) => s._id === created._id)!.matches.find((m) => m.status === 'ready');
      if (!ready) break;
      await patch(ready, { scoreA: 2, scoreB: 1 });
      for (const id of [ready.a!, ready.b!]) {
        const [row] = await api.db
          .select({ rating: playerGameStats.rating })
          .from(playerGameStats)
          .where(and(eq(playerGameStats.userId, id), eq(playerGameStats.gameId, gameId)));
        expect((await chartOf(id, gameId)).at(-1)).toBeCloseTo(row!.rating, 2);
      }
    }
    const replayed = await cleanReplay(gameId);
    for (const id of players) expect(await chartOf(id, gameId)).toEqual(replayed.get(id));

    // The first match's result turned round: everyone its sides met afterwards is rated again.
    const before = new Map(await Promise.all(players.map(async (id) => [id, await chartOf(id, gameId)] as const)));
    const first = (await stagesOf(cup.id)).find((s) => s._id === created._id)!.matches.find((m) => m.round === 1 && m.position === 1)!;
    await patch(first, { scoreA: 0, scoreB: 2 });
    const corrected = await cleanReplay(gameId);
    let changed = 0;
    for (const id of players) {
      const chart = await chartOf(id, gameId);
      expect(chart).toEqual(corrected.get(id));
      if (JSON.stringify(chart) !== JSON.stringify(before.get(id))) changed++;
    }
    expect(changed).toBeGreaterThanOrEqual(3);

    // A reset takes the match's point away.
    const again = (await stagesOf(cup.id)).find((s) => s._id === created._id)!.matches.find((m) => m._id === first._id)!;
    await patch(again, { reset: true });
    const afterReset = await cleanReplay(gameId);
    for (const id of players) expect(await chartOf(id, gameId)).toEqual(afterReset.get(id) ?? []);
  });

  it('is filled from a replay for rows recorded before each row kept it', async () => {
    const gameId = await statsGame(api);
    const cup = await tournament(api, { game: gameId, soloOnly: true, approved: 3 });
    await statsOn(api, cup.id);
    const [a, b, c] = cup.approved as [string, string, string];
    for (const [x, y, score1] of [
      [a, b, 1],
      [b, c, 2],
      [c, a, 3],
      [a, b, 4],
    ] as const) {
      await recordedMatch(api, cup.id, { participant1Type: 'user', participant1Id: x, participant2Type: 'user', participant2Id: y, score1, score2: 0 });
    }
    const charts = await Promise.all([a, b, c].map((id) => chartOf(id, gameId)));
    // Rows from before migration 0009 have no rating after the match: no route makes such a row.
    await api.db.execute(
      sql`update ${matchParticipants} set rating_after = null from ${matches} where ${matches.id} = ${matchParticipants.matchId} and ${matches.gameId} = ${gameId}`,
    );
    expect(await chartOf(a, gameId)).toEqual([]);
    expect(await backfillRatingsAfter(api.db)).toBeGreaterThanOrEqual(8);
    expect(await Promise.all([a, b, c].map((id) => chartOf(id, gameId)))).toEqual(charts);
    // A second run finds nothing to fill.
    expect(await backfillRatingsAfter(api.db)).toBe(0);
  });
});

describe('places in tournaments', () => {
  it('come from the stages’ places, and from the named winner in a tournament without stages', async () => {
    const gameId = await statsGame(api);
    const cup = await tournament(api, { game: gameId, soloOnly: true, approved: 4 });
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    for (let guard = 0; guard < 10; guard++) {
      const ready = (await stagesOf(cup.id)).find((s) => s._id === created._id)!.matches.find((m) => m.status === 'ready');
      if (!ready) break;
      await patch(ready, { scoreA: 2, scoreB: 0 });
    }
    const standings = await api.call<{ final: boolean; placements: { participant: string; from: number; to: number }[] }>('GET', `/api/tournaments/${cup.id}/standings`);
    expect(standings.body.final).toBe(true);
    for (const place of standings.body.placements) {
      const profile = (await profileOf(place.participant)).body;
      expect(profile.placements).toEqual([
        {
          tournament: { _id: cup.id, title: cup.title, date: cup.date, game: { _id: gameId, name: expect.any(String) } },
          from: place.from,
          to: place.to,
          final: true,
          team: null,
        },
      ]);
    }

    // A SPEC-era tournament: no stages, its winner named by the admin.
    const old = await tournament(api, { game: gameId, soloOnly: true, approved: 2, status: 'finished' });
    const champion = old.approved[0]!;
    const named = await api.call('PATCH', `/api/tournaments/${old.id}/winner`, { token: admin.token, body: { winnerType: 'user', winnerId: champion } });
    expect(named.status).toBe(200);
    expect((await profileOf(champion)).body.placements[0]).toMatchObject({ tournament: { _id: old.id }, from: 1, to: 1, final: true });
    expect((await profileOf(old.approved[1]!)).body.placements).toEqual([]);
  });
});

describe('a team’s profile', () => {
  it('shows the team, its captain and roster without addresses, its rating history, achievements, places and matches; a member’s profile names it', async () => {
    const gameId = await statsGame(api, { achievements: achievementsOf });
    const cup = await tournament(api, { game: gameId, soloOnly: false, approved: 2 });
    await statsOn(api, cup.id);
    const [ours, theirs] = cup.approved as [string, string];
    const recorded = await recordedMatch(api, cup.id, { participant1Type: 'team', participant1Id: ours, participant2Type: 'team', participant2Id: theirs, score1: 3, score2: 1 });
    await tournamentStatus(api, cup, 'finished');
    expect((await api.call('PATCH', `/api/tournaments/${cup.id}/winner`, { token: admin.token, body: { winnerType: 'team', winnerId: ours } })).status).toBe(200);

    const res = await teamProfileOf(ours);
    expect(res.status).toBe(200);
    const team = res.body;
    expect(team._id).toBe(ours);
    expect(team.members).toHaveLength(5);
    expect(team.members[0]).toEqual(team.captain);
    for (const member of team.members) expect(Object.keys(member).sort()).toEqual(['_id', 'avatar', 'username']);
    expect(team.games.map((g) => g.history.map((p) => p.rating))).toEqual([[recorded.participants[0].rating]]);
    expect(team.achievements.map((a) => [a.achievement.name, a.team?._id])).toEqual([['First Win', ours]]);
    expect(team.placements).toEqual([expect.objectContaining({ tournament: expect.objectContaining({ _id: cup.id }), from: 1, to: 1, final: true, team: null })]);
    expect(team.matches).toHaveLength(1);

    const captain = (await profileOf(team.captain._id)).body;
    expect(captain.teams).toEqual([{ _id: ours, name: team.name, logoUrl: null, captain: true }]);
    expect(captain.placements).toEqual([expect.objectContaining({ from: 1, to: 1, team: { _id: ours, name: team.name } })]);
    const member = (await profileOf(team.members[1]!._id)).body;
    expect(member.teams).toEqual([{ _id: ours, name: team.name, logoUrl: null, captain: false }]);
  });

  it('answers 404 in Ukrainian for an unknown team and 400 for a bad id, and leaves GET /api/teams/mine to the caller’s own teams', async () => {
    const missing = await teamProfileOf('00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Команду не знайдено' });
    expect((await teamProfileOf('mine-or-not')).status).toBe(400);
    const mine = await api.call<unknown[]>('GET', '/api/teams/mine', { token: admin.token });
    expect(mine.status).toBe(200);
    expect(Array.isArray(mine.body)).toBe(true);
    expect(mine.headers.get('cache-control')).toContain('no-store');
  });
});
