import { player } from '../../support/builders.ts';
import {
  adminOnly,
  all,
  api,
  captainOnly,
  clearWebhooks,
  DISCORD_WEBHOOK,
  login,
  ok,
  organisationOf,
  orgManagers,
  orgMember,
  people,
  seasonOf,
  signed,
  unique,
  w,
  type Row,
} from './world.ts';

/* Teams, news, statistics, profiles, the destructive rows, staff, organisations and their integrations, seasons, and signing out last. Rows run in the order of their files and, within one, as written. */
export const teamsOrganisationsRows: Row[] = [
  // Teams: only the captain manages, only members read the chat
  { route: 'GET /api/teams/mine', request: () => ({ path: '/api/teams/mine' }), expect: signed(200) },
  { route: 'POST /api/teams', request: () => ({ path: '/api/teams', body: { name: `Команда ${unique()}` } }), expect: signed(201) },
  {
    route: 'PATCH /api/teams/:id/logo',
    request: () => ({ path: `/api/teams/${w.teamA}/logo`, body: { logoUrl: 'https://example.test/logo.png' } }),
    expect: captainOnly(200),
  },
  {
    route: 'POST /api/teams/:id/invite',
    request: async () => ({ path: `/api/teams/${w.teamA}/invite`, body: { query: (await player(api)).user.username } }),
    expect: captainOnly(201),
  },
  { route: 'GET /api/team/:teamId/chat', request: () => ({ path: `/api/team/${w.teamA}/chat` }), expect: signed(403, { member: 200, captain: 200 }) },
  {
    route: 'POST /api/team/:teamId/chat',
    request: () => ({ path: `/api/team/${w.teamA}/chat`, body: { message: 'Гей' } }),
    expect: signed(403, { member: 201, captain: 201 }),
  },
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
  {
    route: 'DELETE /api/stats/player/:userId/game/:gameId',
    request: () => ({ path: `/api/stats/player/${people.member.user.id}/game/${w.game}` }),
    expect: adminOnly(200),
  },
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
  {
    route: 'DELETE /api/tournaments/:id/staff/:userId',
    request: () => ({ path: `/api/tournaments/${w.solo}/staff/${w.removableStaff}` }),
    expect: adminOnly(200),
  },
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
  {
    route: 'PUT /api/organisations/:id/discord',
    request: () => ({ path: `/api/organisations/${w.orgA}/discord`, body: { url: DISCORD_WEBHOOK } }),
    expect: orgManagers(200),
  },
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
  {
    route: 'PUT /api/organisations/:id/telegram',
    request: () => ({ path: `/api/organisations/${w.orgA}/telegram`, body: { chat: '@matrix_news' } }),
    expect: orgManagers(200),
  },
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
  {
    route: 'POST /api/organisations/:id/api-keys',
    request: (a) => ({ path: `/api/organisations/${w.orgA}/api-keys`, body: { name: `Матриця ${a} ${unique()}`, scope: 'read' } }),
    expect: orgManagers(201),
  },
  {
    route: 'DELETE /api/organisations/:id/api-keys/:keyId',
    // A key of its own for each manager to revoke; the others are refused one.
    request: async (a) => {
      const made = await ok<{ key: { _id: string } }>('POST', `/api/organisations/${w.orgA}/api-keys`, people.orgOwner.token, {
        name: `Відкликати ${a} ${unique()}`,
        scope: 'run',
      });
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
    request: (a) => ({
      path: '/api/cabinet/me/password',
      body: { oldPassword: a === 'guest' || a === 'unconfirmed' ? 'x' : people[a].password, newPassword: 'another-horse-77' },
    }),
    expect: signed(200),
  },
];
