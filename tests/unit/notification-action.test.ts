import { describe, expect, it } from 'vitest';
import { notificationCall } from '../../src/lib/domain/notification-action.ts';

describe('notification actions', () => {
  const teamInvite = { actionType: 'acceptTeamInvite', payload: { teamId: 't1' } };
  const tournamentInvite = { actionType: 'acceptTournamentInvite', payload: { applicationId: 'a1', tournamentId: 'x' } };

  it('turn a team invite into accept or reject calls for the team', () => {
    expect(notificationCall(teamInvite, { type: 'accept' })).toEqual({ kind: 'team', verb: 'accept', teamId: 't1' });
    expect(notificationCall(teamInvite, { type: 'reject' })).toEqual({ kind: 'team', verb: 'reject', teamId: 't1' });
    expect(notificationCall({ ...teamInvite, actionType: 'declineTeamInvite' }, { type: 'reject' })).toEqual({ kind: 'team', verb: 'reject', teamId: 't1' });
  });

  it('turn a tournament invite into calls for the application', () => {
    expect(notificationCall(tournamentInvite, { type: 'accept' })).toEqual({ kind: 'tournament', verb: 'accept', applicationId: 'a1' });
    expect(notificationCall({ ...tournamentInvite, actionType: 'declineTournamentInvite' }, { type: 'reject' })).toEqual({
      kind: 'tournament',
      verb: 'reject',
      applicationId: 'a1',
    });
  });

  it('know nothing of other action types, button types or missing ids', () => {
    expect(notificationCall({ actionType: 'launchRocket', payload: { teamId: 't1' } }, { type: 'accept' })).toBeNull();
    expect(notificationCall({ actionType: null, payload: {} }, { type: 'accept' })).toBeNull();
    expect(notificationCall(teamInvite, { type: 'maybe' })).toBeNull();
    expect(notificationCall({ actionType: 'acceptTeamInvite', payload: {} }, { type: 'accept' })).toBeNull();
    expect(notificationCall({ actionType: 'acceptTournamentInvite', payload: { teamId: 't1' } }, { type: 'accept' })).toBeNull();
  });
});
