import { player } from '../../support/builders.ts';
import { ACTORS, adminOnly, all, api, memberTournamentInvite, organiser, people, screenshotForm, signed, w, type Row } from './world.ts';

/* The match room: veto, chat, lobby games, check-in and lobby details, evidence; and applications. Rows run in the order of their files and, within one, as written. */
export const matchesRows: Row[] = [
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
      return {
        path: `/api/matches/${w.lobby}/games/${ACTORS.indexOf(a) + 1}`,
        body: { lines: members.map((participant, i) => ({ participant, placement: i + 1, kills: 0 })) },
      };
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
      body: {
        participant1Type: 'user',
        participant1Id: people.user.user.id,
        participant2Type: 'user',
        participant2Id: people.member.user.id,
        score1: 0,
        score2: 3,
      },
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
];
