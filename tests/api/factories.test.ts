import { describe, expect, it } from 'vitest';
import { nameSkeletons } from '../../src/lib/domain/names.ts';
import {
  applicationFactory,
  gameFactory,
  insertAccount,
  insertTeam,
  newsFactory,
  notificationFactory,
  organisationFactory,
  organisationFollowFactory,
  organisationMemberFactory,
  teamInviteFactory,
  tournamentFactory,
  userFactory,
} from '../../src/server/db/factories/index.ts';
import { createSession } from '../../src/server/services/accounts/sessions.ts';
import { useTestApi } from '../support/builders.ts';

describe('the factories of the seed and the tests', () => {
  const api = useTestApi();
  const session = async (userId: string) => (await createSession(api.db, userId, 1)).token;

  it('make rows the API serves from their defaults alone', async () => {
    const game = await gameFactory.insert(api.db, {});
    const captain = await userFactory.insert(api.db, {});
    const invitee = await userFactory.insert(api.db, {});
    const team = await insertTeam(api.db, { captainId: captain.id });
    expect(team.members).toEqual([captain.id]);
    await teamInviteFactory.insert(api.db, { teamId: team.id, userId: invitee.id, invitedById: captain.id });
    const cup = await tournamentFactory.insert(api.db, { gameId: game.id });
    await applicationFactory.insert(api.db, { tournamentId: cup.id, userId: captain.id, teamId: team.id, status: 'approved' });
    const solo = await tournamentFactory.insert(api.db, { gameId: game.id, soloOnly: true });
    await applicationFactory.insert(api.db, { tournamentId: solo.id, userId: invitee.id });
    const item = await newsFactory.insert(api.db, {});
    await notificationFactory.insert(api.db, { userId: captain.id });

    const games = await api.call<{ _id: string; name: string }[]>('GET', '/api/games');
    expect(games.body).toContainEqual(expect.objectContaining({ _id: game.id, name: game.name }));

    const page = await api.call<{ title: string; status: string; soloOnly: boolean; applications: { team?: { name: string; members: unknown[] } }[] }>(
      'GET',
      `/api/tournaments/${cup.id}`,
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ title: cup.title, status: 'pending', soloOnly: false });
    expect(page.body.applications.map((a) => a.team?.name)).toEqual([team.name]);
    expect(page.body.applications[0]!.team!.members).toHaveLength(1);
    expect((await api.call('GET', `/api/tournaments/${solo.id}`)).status).toBe(200);

    const mine = await api.call<{ teams: { _id: string; name: string; captain: string }[] }>('GET', '/api/teams/mine', { token: await session(captain.id) });
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).toContain(team.name);

    const bell = await api.call<unknown[]>('GET', '/api/users/me/notifications', { token: await session(captain.id) });
    expect(bell.status).toBe(200);
    expect(JSON.stringify(bell.body)).toContain('Сповіщення.');

    const news = await api.call('GET', `/api/news/${item.id}`);
    expect(news.status).toBe(200);
    expect(JSON.stringify(news.body)).toContain(item.title);

    // An organisation (issue 56) with its owner and a follower, read by its slug.
    const organisation = await organisationFactory.insert(api.db, {});
    await organisationMemberFactory.insert(api.db, { organisationId: organisation.id, userId: captain.id, role: 'owner' });
    await organisationFollowFactory.insert(api.db, { organisationId: organisation.id, userId: captain.id });
    const host = await api.call<{ name: string; followers: number; members: { role: string }[] }>('GET', `/api/organisations/${organisation.slug}`);
    expect(host.status).toBe(200);
    expect(host.body).toMatchObject({ name: organisation.name, followers: 1, members: [{ role: 'owner' }] });
  });

  it('keep a name and its look-alike skeletons together, and a look-alike is refused', async () => {
    const user = await userFactory.insert(api.db, { username: 'Factory_Kozak' });
    expect([user.nameSkeleton, user.nameSkeletonUpper]).toEqual([nameSkeletons('Factory_Kozak').lower, nameSkeletons('Factory_Kozak').upper]);
    // A Cyrillic «К» and «о» look like the Latin ones: the unique skeleton refuses the copy.
    await expect(userFactory.insert(api.db, { username: 'Factory_Кozаk' })).rejects.toThrow();
    const team = await insertTeam(api.db, { captainId: user.id, name: 'Factory Team' });
    expect(team.nameSkeleton).toBe(nameSkeletons('Factory Team').lower);
  });

  it('make accounts that sign in only with a password given', async () => {
    const silent = await userFactory.insert(api.db, {});
    expect((await api.call('POST', '/api/auth/login', { body: { loginOrEmail: silent.username, password: 'anything-9' } })).status).toBe(401);
    const account = await insertAccount(api.db, { password: 'correct-horse-9' });
    const login = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: account.email, password: 'correct-horse-9' } });
    expect(login.status).toBe(200);
  });

  it('let a caller override any default', () => {
    const row = tournamentFactory.values({ gameId: 'g', status: 'finished', soloOnly: true, title: 'Кубок' });
    expect(row).toMatchObject({ gameId: 'g', status: 'finished', soloOnly: true, title: 'Кубок', bracket: [] });
    expect(userFactory.values({ username: 'Someone', email: 'x@y.test' })).toMatchObject({ username: 'Someone', email: 'x@y.test' });
  });
});
