import { describe, expect, it } from 'vitest';
import { answersChangedBy, answersChangedByEvent, othersMustHear, sessionsChangedBy } from '../../src/server/serving/write-effects.ts';

const ID = '0b7e3c1a-5f2d-4c6e-9a8b-1d2e3f4a5b6c';
const OTHER = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';

/** Which of these held paths a write to `path` drops. */
const dropped = (path: string, method = 'PATCH') =>
  [
    '/',
    '/?x=1',
    '/tournaments',
    `/tournaments/${ID}`,
    `/tournament/${ID}/bracket`,
    `/api/tournaments/${ID}`,
    `/api/tournaments/${ID}/bracket`,
    `/tournaments/${OTHER}`,
    `/api/tournaments?game=${OTHER}`,
    '/games/abc',
    '/news',
    '/leaderboards?tab=teams',
    `/api/stats/leaderboard/game/${OTHER}?limit=50`,
    '/sitemap.xml',
    `/api/matches/${OTHER}`,
    `/matches/${OTHER}`,
  ].filter(answersChangedBy(path, method));

describe('answersChangedBy', () => {
  it('drops every held answer after an ordinary write: a game, a tournament, news', () => {
    for (const path of ['/api/games', `/api/tournaments/${ID}`, '/api/news', `/api/tournaments/${ID}/winner`, `/api/tournaments/${ID}/enable-stats`]) {
      expect(dropped(path), path).toHaveLength(16);
    }
  });

  it('keeps every held answer after a write no guest sees: chat, sign-in, saved news, read marks', () => {
    for (const path of [`/api/team/${ID}/chat`, '/api/auth/login', '/api/news/saved/x', '/api/users/me/notifications/read']) {
      expect(dropped(path), path).toEqual([]);
    }
  });

  it('drops that tournament’s pages and reads, its matches and the ratings after a bracket save (its results count in them)', () => {
    expect(dropped(`/api/tournaments/${ID}/bracket`)).toEqual([
      '/',
      '/?x=1',
      `/tournaments/${ID}`,
      `/tournament/${ID}/bracket`,
      `/api/tournaments/${ID}`,
      `/api/tournaments/${ID}/bracket`,
      '/leaderboards?tab=teams',
      `/api/stats/leaderboard/game/${OTHER}?limit=50`,
      '/sitemap.xml',
      `/api/matches/${OTHER}`,
      `/matches/${OTHER}`,
    ]);
  });

  it('drops every held answer after a bracket is drawn: the draw may start the tournament, whose status lists show', () => {
    expect(dropped(`/api/tournaments/${ID}/bracket`, 'POST')).toHaveLength(16);
    expect(dropped(`/api/tournaments/${ID}/bracket`, 'PATCH')).toHaveLength(11);
  });

  it('drops the tournament, the home page, the leaderboards and the stats reads after a recorded match', () => {
    expect(dropped(`/api/tournaments/${ID}/record-match`)).toEqual([
      '/',
      '/?x=1',
      `/tournaments/${ID}`,
      `/tournament/${ID}/bracket`,
      `/api/tournaments/${ID}`,
      `/api/tournaments/${ID}/bracket`,
      '/leaderboards?tab=teams',
      `/api/stats/leaderboard/game/${OTHER}?limit=50`,
      '/sitemap.xml',
    ]);
  });

  it('drops only that tournament after a Swiss round is paired or a participant disqualified (forfeits change no rating)', () => {
    for (const path of [`/api/tournaments/${ID}/stages/${OTHER}/next-round`, `/api/tournaments/${ID}/disqualify`]) {
      expect(dropped(path, 'POST'), path).toEqual([
        `/tournaments/${ID}`,
        `/tournament/${ID}/bracket`,
        `/api/tournaments/${ID}`,
        `/api/tournaments/${ID}/bracket`,
        '/sitemap.xml',
        `/api/matches/${OTHER}`,
        `/matches/${OTHER}`,
      ]);
    }
  });

  it('drops only that tournament after a check-in or its undoing (issue 22)', () => {
    for (const method of ['POST', 'DELETE']) {
      expect(dropped(`/api/tournaments/${ID}/check-in`, method)).toEqual([`/tournaments/${ID}`, `/tournament/${ID}/bracket`, `/api/tournaments/${ID}`, `/api/tournaments/${ID}/bracket`]);
    }
  });

  it('drops only that tournament after a co-organiser is named or removed (issue 23): its page lists them', () => {
    const one = [`/tournaments/${ID}`, `/tournament/${ID}/bracket`, `/api/tournaments/${ID}`, `/api/tournaments/${ID}/bracket`];
    expect(dropped(`/api/tournaments/${ID}/staff`, 'POST')).toEqual(one);
    expect(dropped(`/api/tournaments/${ID}/staff/${OTHER}`, 'DELETE')).toEqual(one);
  });

  it('drops every held answer after a stage is created: it may start the tournament', () => {
    expect(dropped(`/api/tournaments/${ID}/stages`, 'POST')).toHaveLength(16);
  });

  it('drops the matches after a match is edited or reported, and leaves the tournament to the event the write publishes (its path names no tournament)', () => {
    const matches = [`/api/matches/${OTHER}`, `/matches/${OTHER}`];
    for (const [path, method] of [
      [`/api/matches/${ID}`, 'PATCH'],
      [`/api/matches/${ID}/report`, 'POST'],
      [`/api/matches/${ID}/confirm`, 'POST'],
      [`/api/matches/${ID}/dispute`, 'POST'],
    ] as const) {
      expect(dropped(path, method), path).toEqual(matches);
    }
    // The event names the tournament: its pages and reads and the matches, the ratings for a result; never another tournament's.
    const tournamentPages = [`/tournaments/${ID}`, `/tournament/${ID}/bracket`, `/api/tournaments/${ID}`, `/api/tournaments/${ID}/bracket`];
    for (const kind of ['match', 'report']) {
      const changed = answersChangedByEvent(ID, kind);
      expect([...tournamentPages, `/matches/${OTHER}`].filter(changed), kind).toEqual([...tournamentPages, `/matches/${OTHER}`]);
      expect(['/', '/leaderboards?tab=teams'].filter(changed), kind).toEqual(kind === 'match' ? ['/', '/leaderboards?tab=teams'] : []);
      expect([`/tournaments/${OTHER}`, '/tournaments', '/news', '/games/abc'].filter(changed), kind).toEqual([]);
    }
  });
});

describe('othersMustHear', () => {
  it('tells the other instances of every write a guest sees or that may change a session, unless the tournament event it publishes marks there at least what it marks here', () => {
    for (const path of ['/api/news', '/api/games', `/api/tournaments/${ID}`, `/api/tournaments/${ID}/winner`, '/api/users/me/avatar', `/api/teams/${ID}/logo`]) {
      expect(othersMustHear(path), path).toBe(true);
    }
    expect(othersMustHear(`/api/team/${ID}/chat`)).toBe(false);
    // Private, but each may change a session: the others forget what they held (decision 026).
    for (const path of ['/api/auth/logout', '/api/users/me/locale', `/api/users/${ID}/sessions`, `/api/teams/${ID}/members/${OTHER}`]) {
      expect(othersMustHear(path), path).toBe(true);
      expect(sessionsChangedBy(path), path).toBe(true);
    }
    // The event each of these publishes (api/routes, services), for the tournament ID.
    const byEvent: [path: string, method: string, kind: string][] = [
      [`/api/tournaments/${ID}/record-match`, 'POST', 'match'],
      [`/api/tournaments/${ID}/bracket`, 'PATCH', 'match'],
      [`/api/tournaments/${ID}/bracket`, 'POST', 'stage'],
      [`/api/tournaments/${ID}/disqualify`, 'POST', 'match'],
      [`/api/tournaments/${ID}/stages/${OTHER}/next-round`, 'POST', 'stage'],
      [`/api/tournaments/${ID}/stages/${OTHER}/schedule`, 'PUT', 'stage'],
      [`/api/tournaments/${ID}/check-in`, 'POST', 'checkIn'],
      [`/api/tournaments/${ID}/staff`, 'POST', 'tournament'],
      [`/api/matches/${OTHER}`, 'PATCH', 'match'],
      [`/api/matches/${OTHER}/report`, 'POST', 'report'],
      [`/api/matches/${OTHER}/confirm`, 'POST', 'match'],
      [`/api/matches/${OTHER}/dispute`, 'POST', 'report'],
    ];
    for (const [path, method, kind] of byEvent) {
      expect(othersMustHear(path), path).toBe(false);
      const here = dropped(path, method);
      expect(here.filter(answersChangedByEvent(ID, kind)), `${method} ${path}`).toEqual(here);
    }
  });
});

describe('share cards and embeds (issue 23)', () => {
  const held = [
    `/api/og/match/${OTHER}.png?lang=uk`,
    `/api/og/player/${OTHER}.png?lang=en`,
    `/embed/tournaments/${ID}?lang=en`,
    `/embed/tournaments/${OTHER}`,
    `/embed/matches/${OTHER}?theme=light`,
  ];
  const droppedBy = (changed: (path: string) => boolean) => held.filter(changed);

  it('a bracket save drops the cards, that tournament’s embed and the match embeds (a framed page reads its held copy again when live)', () => {
    expect(droppedBy(answersChangedBy(`/api/tournaments/${ID}/bracket`, 'PATCH'))).toEqual([held[0], held[1], held[2], held[4]]);
    expect(droppedBy(answersChangedBy(`/api/tournaments/${ID}/stages/${OTHER}/schedule`, 'PUT'))).toEqual([held[0], held[1], held[2], held[4]]);
  });

  it('a recorded match drops the cards (ratings) and that tournament’s embed, not the match embeds', () => {
    expect(droppedBy(answersChangedBy(`/api/tournaments/${ID}/record-match`, 'POST'))).toEqual([held[0], held[1], held[2]]);
  });

  it('a player’s report drops the cards and the match embeds, its event that tournament’s embed; a check-in only that tournament’s embed; chat nothing', () => {
    expect(droppedBy(answersChangedBy(`/api/matches/${OTHER}/confirm`, 'POST'))).toEqual([held[0], held[1], held[4]]);
    expect(droppedBy(answersChangedByEvent(ID, 'match'))).toContain(held[2]);
    expect(droppedBy(answersChangedBy(`/api/tournaments/${ID}/check-in`, 'POST'))).toEqual([held[2]]);
    expect(droppedBy(answersChangedBy(`/api/team/${ID}/chat`, 'POST'))).toEqual([]);
  });

  it('another instance’s result drops the cards, that tournament’s embed and the match embeds here too', () => {
    expect(droppedBy(answersChangedByEvent(ID, 'match'))).toEqual([held[0], held[1], held[2], held[4]]);
  });
});

describe('profiles (issue 23)', () => {
  const profiles = [`/players/${OTHER}`, `/teams/${OTHER}`, `/api/players/${OTHER}`, `/api/teams/${OTHER}`];
  const droppedProfiles = (path: string, method = 'PATCH') => profiles.filter(answersChangedBy(path, method));

  it('go with the ratings: after a recorded match, a bracket save, a player’s report and another instance’s result', () => {
    expect(droppedProfiles(`/api/tournaments/${ID}/record-match`, 'POST')).toEqual(profiles);
    expect(droppedProfiles(`/api/tournaments/${ID}/bracket`)).toEqual(profiles);
    // A player's confirmation through the event it publishes (a result: `match`), which names the tournament.
    expect(profiles.filter(answersChangedByEvent(ID, 'match'))).toEqual(profiles);
    // A report that waits, or a dispute, changes no rating.
    expect(profiles.filter(answersChangedByEvent(ID, 'report'))).toEqual([]);
    expect(profiles.filter(answersChangedByEvent(ID, 'match'))).toEqual(profiles);
    // A roster, a logo or a name changes with a write that drops everything.
    expect(droppedProfiles(`/api/teams/${OTHER}/logo`)).toEqual(profiles);
  });

  it('stay after a check-in, a schedule change and chat', () => {
    expect(droppedProfiles(`/api/tournaments/${ID}/check-in`, 'POST')).toEqual([]);
    expect(droppedProfiles(`/api/tournaments/${ID}/stages/${OTHER}/schedule`, 'PUT')).toEqual([]);
    expect(droppedProfiles(`/api/team/${OTHER}/chat`, 'POST')).toEqual([]);
  });
});

describe('sessionsChangedBy', () => {
  it('keeps the held sessions through match day’s writes, which change no session and no user', () => {
    for (const path of [
      `/api/team/${ID}/chat`,
      `/api/matches/${ID}`,
      `/api/matches/${ID}/report`,
      `/api/matches/${ID}/confirm`,
      `/api/matches/${ID}/dispute`,
      `/api/tournaments/${ID}/bracket`,
      `/api/tournaments/${ID}/record-match`,
      `/api/tournaments/${ID}/check-in`,
      `/api/tournaments/${ID}/stages/${OTHER}/next-round`,
    ]) {
      expect(sessionsChangedBy(path), path).toBe(false);
    }
  });

  it('forgets them after a sign-out, a password, a profile, a language, an admin’s sign-out and anything else', () => {
    for (const path of [
      '/api/auth/logout',
      '/api/auth/login',
      '/api/cabinet/me/password',
      '/api/cabinet/me',
      '/api/users/me/locale',
      '/api/users/me/notice-settings',
      `/api/users/${ID}/sessions`,
      '/api/games',
      `/api/tournaments/${ID}/staff`,
      // A path that only looks like a chat's, a match's or a tournament's play.
      `/api/team/${ID}/chatty`,
      `/api/matches/${ID}/reports`,
      `/api/tournaments/${ID}/bracket/extra`,
    ]) {
      expect(sessionsChangedBy(path), path).toBe(true);
    }
  });
});
