import { describe, expect, it } from 'vitest';
import { matchOutcome, type OutcomeMatch } from '../../src/lib/domain/match-outcome.ts';

const duel = (overrides: Partial<OutcomeMatch> = {}): OutcomeMatch => ({
  status: 'completed',
  result: { isDraw: false },
  participants: [
    { id: 'p1', type: 'user', isWinner: true },
    { id: 'p2', type: 'user', isWinner: false },
  ],
  ...overrides,
});

describe('match outcome from a participant’s view', () => {
  it('is a win for the winner and a loss for the other side', () => {
    expect(matchOutcome(duel(), { id: 'p1' })).toBe('win');
    expect(matchOutcome(duel(), { id: 'p2', type: 'user' })).toBe('loss');
  });

  it('is a draw for both sides of a drawn match', () => {
    const drawn = duel({
      result: { isDraw: true },
      participants: [
        { id: 'p1', type: 'user', isWinner: false },
        { id: 'p2', type: 'user', isWinner: false },
      ],
    });
    expect(matchOutcome(drawn, { id: 'p1' })).toBe('draw');
    expect(matchOutcome(drawn, { id: 'p2' })).toBe('draw');
  });

  it('is unknown for someone who did not play, or a match of the other kind', () => {
    expect(matchOutcome(duel(), { id: 'p3' })).toBe('unknown');
    expect(matchOutcome(duel(), { id: 'p1', type: 'team' })).toBe('unknown');
  });

  it('is unknown while the match is not completed', () => {
    for (const status of ['scheduled', 'in_progress', 'cancelled']) {
      expect(matchOutcome(duel({ status }), { id: 'p1' }), status).toBe('unknown');
    }
  });

  it('is unknown when nobody is marked the winner of an undrawn match', () => {
    const open = duel({
      participants: [
        { id: 'p1', isWinner: false },
        { id: 'p2', isWinner: false },
      ],
    });
    expect(matchOutcome(open, { id: 'p1' })).toBe('unknown');
  });

  it('is a loss when a participant was removed and the other side won', () => {
    const gone = duel({ participants: [{ id: null, type: 'team', isWinner: true }, { id: 't2', type: 'team', isWinner: false }] });
    expect(matchOutcome(gone, { id: 't2', type: 'team' })).toBe('loss');
  });
});
