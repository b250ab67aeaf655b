import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APPLICATION_STATUSES, applicationsClosed, applyRefusal, reviewRefusal, type Review } from '../../src/lib/domain/application-rules.ts';
import { createBracket, isDrawn } from '../../src/lib/domain/bracket.ts';
import { normalizeStatus, STATUS_SPELLINGS } from '../../src/lib/domain/tournament-status.ts';
import { winnerRefusal } from '../../src/lib/domain/tournament-winner.ts';

const status = fc.constantFrom(...STATUS_SPELLINGS);
const reviews: Review[] = ['approved', 'rejected', 'deleted'];

describe('drawing the bracket closes applications', () => {
  it('tells a drawn bracket from none', () => {
    expect(isDrawn([])).toBe(false);
    expect(isDrawn(createBracket(['a', 'b']))).toBe(true);
  });

  it('refuses every application once the bracket is drawn, whatever the status, type, team or earlier application', () => {
    fc.assert(
      fc.property(status, fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 10 }), (s, soloOnly, asTeam, captain, applied, members) => {
        const refusal = applyRefusal({
          tournament: { status: s, soloOnly, bracketDrawn: true },
          asTeam,
          team: { isCaptain: captain, members },
          alreadyApplied: applied,
        });
        // Only a wrong type is named first: it is true of the tournament before and after the draw.
        expect(['bracketDrawn', 'soloOnly', 'teamOnly']).toContain(refusal);
        if (asTeam !== soloOnly) expect(refusal).toBe('bracketDrawn');
      }),
    );
  });

  it('says why applications are closed: the draw first, then a status other than pending', () => {
    expect(applicationsClosed({ status: 'pending', bracketDrawn: false })).toBeNull();
    expect(applicationsClosed({ status: 'pending', bracketDrawn: true })).toBe('bracketDrawn');
    expect(applicationsClosed({ status: 'started', bracketDrawn: true })).toBe('bracketDrawn');
    expect(applicationsClosed({ status: 'finished', bracketDrawn: false })).toBe('notPending');
  });
});

describe('the lineup after the draw', () => {
  it('allows every review before the draw', () => {
    for (const from of APPLICATION_STATUSES) for (const to of reviews) expect(reviewRefusal({ bracketDrawn: false, from, to })).toBeNull();
  });

  it('after the draw refuses exactly the reviews that add or remove an approved participant', () => {
    fc.assert(
      fc.property(fc.constantFrom(...APPLICATION_STATUSES), fc.constantFrom(...reviews), (from, to) => {
        const changesLineup = from !== to && (from === 'approved' || to === 'approved');
        expect(reviewRefusal({ bracketDrawn: true, from, to })).toBe(changesLineup ? 'lineupFixed' : null);
      }),
    );
    expect(reviewRefusal({ bracketDrawn: true, from: 'pending', to: 'rejected' })).toBeNull();
    expect(reviewRefusal({ bracketDrawn: true, from: 'approved', to: 'approved' })).toBeNull();
  });
});

describe('finishing with a winner', () => {
  const facts = (s: string) => ({ tournament: { status: s, soloOnly: true, hasWinner: false }, participants: ['u1'] });
  const winner = { type: 'user' as const, id: 'u1' };

  it('lets `finish` stand in for the finished status only for a started tournament', () => {
    expect(winnerRefusal(facts('started'), winner)).toBe('notFinished');
    expect(winnerRefusal(facts('started'), winner, { finish: true })).toBeNull();
    expect(winnerRefusal(facts('in_progress'), winner, { finish: true })).toBeNull();
    expect(winnerRefusal(facts('finished'), winner, { finish: true })).toBeNull();
    expect(winnerRefusal(facts('pending'), winner, { finish: true })).toBe('notStarted');
  });

  it('keeps every other rule with `finish`', () => {
    fc.assert(
      fc.property(status, fc.boolean(), fc.boolean(), fc.constantFrom('u1', 'u2'), fc.constantFrom('user' as const, 'team' as const), (s, hasWinner, empty, id, type) => {
        const f = { tournament: { status: s, soloOnly: true, hasWinner }, participants: empty ? [] : ['u1'] };
        const plain = winnerRefusal({ ...f, tournament: { ...f.tournament, status: 'finished' } }, { type, id });
        const finishing = winnerRefusal(f, { type, id }, { finish: true });
        const stored = normalizeStatus(s);
        if (stored === 'started' || stored === 'finished') expect(finishing).toBe(plain);
        else expect(finishing).toBe('notStarted');
      }),
    );
  });
});

