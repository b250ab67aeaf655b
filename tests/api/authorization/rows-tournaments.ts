import { player } from '../../support/builders.ts';
import { ACTORS, adminOnly, all, api, ip, isOrgActor, organiser, people, signed, unique, w, type Row } from './world.ts';

/* Games, tournaments, check-in, the control room, files, venue networks, the audit log, calendars and match reports. Rows run in the order of their files and, within one, as written. */
export const tournamentsRows: Row[] = [
  // Games and their statistics configuration
  { route: 'GET /api/games', request: () => ({ path: '/api/games' }), expect: all(200) },
  { route: 'POST /api/games', request: () => ({ path: '/api/games', body: { name: `Гра ${unique()}` } }), expect: adminOnly(201) },
  { route: 'PUT /api/games/:id', request: () => ({ path: `/api/games/${w.spareGame}`, body: { name: `Гра ${unique()}` } }), expect: adminOnly(200) },
  { route: 'GET /api/games/:id/maps', request: () => ({ path: `/api/games/${w.game}/maps` }), expect: all(200) },
  {
    route: 'PUT /api/games/:id/maps',
    request: () => ({ path: `/api/games/${w.spareGame}/maps`, body: { maps: ['Bind', 'Haven', 'Split'], sides: ['Attack', 'Defense'] } }),
    expect: adminOnly(200),
  },
  { route: 'GET /api/game-management/list', request: () => ({ path: '/api/game-management/list' }), expect: all(200) },
  { route: 'GET /api/game-management/:id/stats-config', request: () => ({ path: `/api/game-management/${w.game}/stats-config` }), expect: all(200) },
  { route: 'GET /api/game-management/config/:gameId', request: () => ({ path: `/api/game-management/config/${w.game}` }), expect: all(200) },
  {
    route: 'POST /api/game-management/setup',
    request: () => ({ path: '/api/game-management/setup', body: { name: `Гра ${unique()}` } }),
    expect: adminOnly(201),
  },
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
    request: (a) => ({
      path: '/api/tournaments',
      body: { title: `Турнір ${unique()}`, date: '2030-06-01', game: w.game, ...(isOrgActor(a) ? { organisation: w.orgA } : {}) },
    }),
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
    request: (a) => ({
      path: `/api/tournaments/${a === 'staff' ? w.venueAskStaff : w.venueAsk}/venue-network`,
      body: { networks: ['192.0.2.0/24'], note: 'Зала' },
    }),
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
];
