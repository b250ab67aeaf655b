import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyRefusal, isLiveApplication, isTeamSizeAllowed, TEAM_SIZE } from '../../src/lib/domain/application-rules.ts';
import { DEFAULT_GAME_IMAGE, gameImage, gameImageSrcset } from '../../src/lib/domain/game-image.ts';
import { formatDay, fromLocalInputValue, toLocalInputValue } from '../../src/lib/domain/tournament-dates.ts';
import {
  ALL_GAMES,
  DEFAULT_PREFERENCES,
  listQuery,
  parseSortOrder,
  parseStatusFilter,
  parseTypeFilter,
  soloOnlyQuery,
  STATUS_FILTERS,
  statusQuery,
} from '../../src/lib/domain/tournament-list.ts';
import { isOpenForApplications, normalizeStatus, statusLabelKey } from '../../src/lib/domain/tournament-status.ts';
import { winnerRefusal, winnerTypeOf } from '../../src/lib/domain/tournament-winner.ts';

describe('tournament status', () => {
  it('normalises every spelling of SPEC §4 to pending, started or finished', () => {
    expect(['pending', 'scheduled', 'PENDING '].map(normalizeStatus)).toEqual(['pending', 'pending', 'pending']);
    expect(['started', 'in_progress', 'in-progress'].map(normalizeStatus)).toEqual(['started', 'started', 'started']);
    expect(['finished', 'completed', 'done'].map(normalizeStatus)).toEqual(['finished', 'finished', 'finished']);
    expect([normalizeStatus('cancelled'), normalizeStatus(''), normalizeStatus(null)]).toEqual([null, null, null]);
  });

  it('labels statuses and opens applications only while pending', () => {
    expect(statusLabelKey('in_progress')).toBe('status.started');
    expect(statusLabelKey('weird')).toBe('status.unknown');
    expect(isOpenForApplications('scheduled')).toBe(true);
    expect(isOpenForApplications('started')).toBe(false);
    expect(isOpenForApplications('done')).toBe(false);
  });
});

describe('tournament list rules', () => {
  const GAME = '0b6f1c1e-0000-4000-8000-000000000001';

  it('asks the server for the chosen type, status group and order; the defaults add nothing', () => {
    expect(listQuery(GAME, DEFAULT_PREFERENCES)).toEqual({ game: GAME });
    expect(listQuery(GAME, { type: 'solo', status: 'upcoming', sort: 'title_asc' })).toEqual({
      game: GAME,
      soloOnly: true,
      status: 'pending',
      sort: 'title_asc',
    });
    expect(listQuery(GAME, { type: 'team', status: 'finished', sort: 'date_asc' })).toEqual({ game: GAME, soloOnly: false, status: 'finished', sort: 'date_asc' });
    // Every game's list asks for no game at all.
    expect(listQuery(ALL_GAMES, { type: 'solo', status: 'all', sort: 'date_desc' })).toEqual({ soloOnly: true });
    expect(STATUS_FILTERS.map(statusQuery)).toEqual([undefined, 'pending', 'started', 'finished']);
  });

  it('reads stored choices back safely, unknown values become the defaults', () => {
    expect([parseTypeFilter('team'), parseTypeFilter('teams'), parseTypeFilter(null)]).toEqual(['team', 'all', 'all']);
    expect([parseStatusFilter('finished'), parseStatusFilter('done')]).toEqual(['finished', 'all']);
    expect([parseSortOrder('title_desc'), parseSortOrder('random')]).toEqual(['title_desc', 'date_desc']);
    expect([soloOnlyQuery('all'), soloOnlyQuery('solo'), soloOnlyQuery('team')]).toEqual([undefined, true, false]);
  });
});

describe('dates in Kyiv time', () => {
  it('shows cards as YYYY-MM-DD of the Kyiv day', () => {
    expect(formatDay('2030-03-10T16:00:00Z')).toBe('2030-03-10');
    // 23:30 UTC is already the next day in Kyiv.
    expect(formatDay('2030-03-10T23:30:00Z')).toBe('2030-03-11');
    expect(formatDay('nonsense')).toBe('');
  });

  it('round-trips datetime-local values through winter and summer time', () => {
    expect(fromLocalInputValue('2030-01-15T19:00')).toBe('2030-01-15T17:00:00.000Z');
    expect(fromLocalInputValue('2030-07-15T19:00')).toBe('2030-07-15T16:00:00.000Z');
    expect(fromLocalInputValue('2030-07-15')).toBe('2030-07-14T21:00:00.000Z');
    expect(toLocalInputValue('2030-07-15T16:00:00.000Z')).toBe('2030-07-15T19:00');
    expect(fromLocalInputValue('tomorrow')).toBeNull();
  });
});

describe('application rules', () => {
  const pendingTeam = { status: 'pending', soloOnly: false, bracketDrawn: false };
  const pendingSolo = { status: 'pending', soloOnly: true, bracketDrawn: false };
  const captain = (members: number) => ({ isCaptain: true, members });

  it('allows teams of 5 to 7 only', () => {
    expect([4, 5, 6, 7, 8].map(isTeamSizeAllowed)).toEqual([false, true, true, true, false]);
    expect(TEAM_SIZE).toEqual({ min: 5, max: 7 });
  });

  it('counts pending and approved applications as already applied', () => {
    expect(['pending', 'approved', 'rejected'].map(isLiveApplication)).toEqual([true, true, false]);
  });

  it('accepts a solo application to a pending solo tournament and a captain’s full team to a team one', () => {
    expect(applyRefusal({ tournament: pendingSolo, asTeam: false, alreadyApplied: false })).toBeNull();
    expect(applyRefusal({ tournament: pendingTeam, asTeam: true, team: captain(5), alreadyApplied: false })).toBeNull();
  });

  it('names the first broken rule', () => {
    expect(applyRefusal({ tournament: pendingTeam, asTeam: false, alreadyApplied: false })).toBe('teamOnly');
    expect(applyRefusal({ tournament: pendingSolo, asTeam: true, team: captain(5), alreadyApplied: false })).toBe('soloOnly');
    expect(applyRefusal({ tournament: { status: 'started', soloOnly: true, bracketDrawn: false }, asTeam: false, alreadyApplied: false })).toBe('notPending');
    expect(applyRefusal({ tournament: pendingTeam, asTeam: true, team: null, alreadyApplied: false })).toBe('noTeam');
    expect(applyRefusal({ tournament: pendingTeam, asTeam: true, team: { isCaptain: false, members: 5 }, alreadyApplied: false })).toBe('notCaptain');
    expect(applyRefusal({ tournament: pendingTeam, asTeam: true, team: captain(4), alreadyApplied: false })).toBe('teamSize');
    expect(applyRefusal({ tournament: pendingTeam, asTeam: true, team: captain(8), alreadyApplied: false })).toBe('teamSize');
    expect(applyRefusal({ tournament: pendingTeam, asTeam: true, team: captain(6), alreadyApplied: true })).toBe('alreadyApplied');
    expect(applyRefusal({ tournament: pendingSolo, asTeam: false, alreadyApplied: true })).toBe('alreadyApplied');
  });
});

describe('winner rules', () => {
  const finished = { status: 'finished', soloOnly: true, hasWinner: false };

  it('takes a player for solo and a team for team tournaments', () => {
    expect(winnerTypeOf(true)).toBe('user');
    expect(winnerTypeOf(false)).toBe('team');
  });

  it('offers the choice only for a finished tournament without a winner that has participants', () => {
    expect(winnerRefusal({ tournament: finished, participants: ['u1'] })).toBeNull();
    expect(winnerRefusal({ tournament: { ...finished, status: 'completed' }, participants: ['u1'] })).toBeNull();
    expect(winnerRefusal({ tournament: { ...finished, status: 'started' }, participants: ['u1'] })).toBe('notFinished');
    expect(winnerRefusal({ tournament: { ...finished, hasWinner: true }, participants: ['u1'] })).toBe('hasWinner');
    expect(winnerRefusal({ tournament: finished, participants: [] })).toBe('noParticipants');
  });

  it('accepts only an approved participant of the right type', () => {
    expect(winnerRefusal({ tournament: finished, participants: ['u1'] }, { type: 'user', id: 'u1' })).toBeNull();
    expect(winnerRefusal({ tournament: finished, participants: ['u1'] }, { type: 'team', id: 'u1' })).toBe('wrongType');
    expect(winnerRefusal({ tournament: finished, participants: ['u1'] }, { type: 'user', id: 'u2' })).toBe('notParticipant');
  });
});

describe('game images', () => {
  it('keeps http(s) links and site paths, and falls back to the default picture otherwise', () => {
    expect(gameImage('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(gameImage('/games/cs2.jpg')).toBe('/games/cs2.jpg');
    for (const bad of [null, undefined, '', '   ', 'javascript:alert(1)', '//evil.example/a.png', 'games/cs2.jpg', 'data:image/png;base64,AA']) {
      expect(gameImage(bad), String(bad)).toBe(DEFAULT_GAME_IMAGE);
    }
  });
});

describe('game picture sizes', () => {
  it('offers a 400 px copy of the pictures the site ships, and nothing for any other', () => {
    expect(gameImageSrcset('/games/cs2.jpg')).toBe('/games/cs2-400.jpg 400w, /games/cs2.jpg 640w');
    expect(gameImageSrcset('/games/my-upload.jpg')).toBeUndefined();
    expect(gameImageSrcset('https://cdn.example.com/games/cs2.jpg')).toBeUndefined();
    expect(gameImageSrcset(DEFAULT_GAME_IMAGE)).toBeUndefined();
    // Every copy a srcset names is really there.
    for (const game of ['cs2', 'valorant', 'lol', 'dota2']) {
      for (const entry of gameImageSrcset(`/games/${game}.jpg`)!.split(', ')) expect(existsSync(`public${entry.split(' ')[0]}`), entry).toBe(true);
    }
  });
});
