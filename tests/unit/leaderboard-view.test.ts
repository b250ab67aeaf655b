import { describe, expect, it } from 'vitest';
import type { PlayerEntry } from '../../src/lib/api/leaderboards.ts';
import {
  initialViewState,
  isLoading,
  rowsOf,
  startingView,
  viewOfAddress,
  viewReducer,
  wantedRequest,
  type View,
} from '../../src/islands/leaderboards/view.ts';

const players: View = { tab: 'players', sort: 'rating_desc' };
const teamsByWins: View = { tab: 'teams', sort: 'wins_desc' };
const entries = [{ _id: 'e1' }] as unknown as PlayerEntry[];
const stored = (tab: View['tab']) => (tab === 'teams' ? 'wins_desc' : 'winrate_desc');

describe('leaderboard view', () => {
  it('shows the address until hydrated, then the stored choice where the address named nothing', () => {
    const base = { address: players, storedTab: 'teams' as const, storedSort: stored };
    expect(startingView({ ...base, hydrated: false, explicit: { tab: false, sort: false } })).toEqual(players);
    expect(startingView({ ...base, hydrated: true, explicit: { tab: false, sort: false } })).toEqual(teamsByWins);
    expect(startingView({ ...base, hydrated: true, explicit: { tab: true, sort: false } })).toEqual({ tab: 'players', sort: 'winrate_desc' });
    expect(startingView({ ...base, hydrated: true, explicit: { tab: true, sort: true } })).toEqual(players);
  });

  it('loads what the reader chose, keeping the loaded table until it arrives', () => {
    let state = initialViewState(players, entries);
    expect(isLoading(state, wantedRequest(state, players))).toBe(false);
    state = viewReducer(state, { type: 'choose', view: teamsByWins });
    const wanted = wantedRequest(state, players);
    expect(wanted).toEqual({ ...teamsByWins, refresh: 0 });
    expect(isLoading(state, wanted)).toBe(true);
    expect(state.loaded.tab).toBe('players');
    state = viewReducer(state, { type: 'loaded', request: wanted, entries: [] });
    expect(isLoading(state, wantedRequest(state, players))).toBe(false);
    expect(state.loaded).toEqual({ ...wanted, entries: [] });
  });

  it('does not ask again for a view whose load failed; the table stays as it was', () => {
    let state = viewReducer(initialViewState(players, entries), { type: 'choose', view: teamsByWins });
    const wanted = wantedRequest(state, players);
    state = viewReducer(state, { type: 'failed', request: wanted });
    expect(isLoading(state, wantedRequest(state, players))).toBe(false);
    expect(state.loaded.entries).toBe(entries);
  });

  it('after a deletion asks for the table’s view again, fresh', () => {
    let state = initialViewState(players, entries);
    state = viewReducer(state, { type: 'reload' });
    const wanted = wantedRequest(state, teamsByWins);
    expect(wanted).toEqual({ ...players, refresh: 1 });
    expect(isLoading(state, wanted)).toBe(true);
  });

  it('reads a view from an address when going back', () => {
    expect(viewOfAddress('?game=g&tab=teams&sort=rating_asc', stored)).toEqual({ tab: 'teams', sort: 'rating_asc' });
    expect(viewOfAddress('?game=g&tab=teams', stored)).toEqual(teamsByWins);
    expect(viewOfAddress('', stored)).toEqual({ tab: 'players', sort: 'winrate_desc' });
  });

  it('turns entries into rows; an owner who is gone shows as unknown, with nothing to delete', () => {
    const stats = { ranking: 1000, matchesWon: 0, winRate: 0, currentStreak: 0 };
    const [known, gone] = rowsOf('teams', [
      { _id: 'e1', teamId: { _id: 't1', name: 'Alpha', logoUrl: null }, generalStats: stats, achievements: [] },
      { _id: 'e2', teamId: null, generalStats: stats, achievements: [] },
    ] as unknown as Parameters<typeof rowsOf>[1]);
    expect(known).toMatchObject({ key: 'e1', ownerId: 't1', name: 'Alpha', href: '/teams/t1', known: true, picture: { kind: 'team', name: 'Alpha' } });
    expect(gone).toMatchObject({ key: 'e2', ownerId: null, href: null, known: false, picture: null });
    expect(gone?.name).not.toBe('');
  });
});
