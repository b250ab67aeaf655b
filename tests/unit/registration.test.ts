import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApplicationStatus } from '../../src/lib/domain/application-rules.ts';
import {
  checkInClose,
  checkInPhase,
  checkInWindow,
  closesInThePast,
  placesLeft,
  promotions,
  registrationRefusal,
  scheduleProblem,
  statusOnApply,
  takesPlace,
  type Entry,
} from '../../src/lib/domain/registration.ts';

const START = '2030-05-01T16:00:00.000Z';
const at = (iso: string) => new Date(iso);

describe('windows', () => {
  it('check-in defaults to 60 and 10 minutes before the start; set times win', () => {
    expect(checkInWindow({ date: START })).toEqual({ opensAt: at('2030-05-01T15:00:00.000Z'), closesAt: at('2030-05-01T15:50:00.000Z') });
    expect(checkInWindow({ date: START, checkInOpensAt: '2030-05-01T12:00:00.000Z' }).opensAt).toEqual(at('2030-05-01T12:00:00.000Z'));
  });

  it('check-in phases: disabled, not open, open, closed (also once carried out)', () => {
    const on = { date: START, checkInEnabled: true };
    expect(checkInPhase({ date: START }, at(START))).toBe('disabled');
    expect(checkInPhase(on, at('2030-05-01T14:59:59.000Z'))).toBe('notOpen');
    expect(checkInPhase(on, at('2030-05-01T15:00:00.000Z'))).toBe('open');
    expect(checkInPhase(on, at('2030-05-01T15:50:00.000Z'))).toBe('closed');
    expect(checkInPhase({ ...on, checkInClosedAt: '2030-05-01T15:10:00.000Z' }, at('2030-05-01T15:20:00.000Z'))).toBe('closed');
  });

  it('registration: refused before it opens and from the moment it closes; no window, no refusal', () => {
    const schedule = { date: START, registrationOpensAt: '2030-04-01T00:00:00.000Z', registrationClosesAt: '2030-04-30T00:00:00.000Z' };
    expect(registrationRefusal(schedule, at('2030-03-31T23:59:59.000Z'))).toBe('registrationNotOpen');
    expect(registrationRefusal(schedule, at('2030-04-01T00:00:00.000Z'))).toBeNull();
    expect(registrationRefusal(schedule, at('2030-04-30T00:00:00.000Z'))).toBe('registrationClosed');
    expect(registrationRefusal({ date: START }, at('2040-01-01T00:00:00.000Z'))).toBeNull();
  });

  it('schedule problems: each window opens before it closes and closes no later than the start', () => {
    expect(scheduleProblem({ date: START })).toBeNull();
    expect(scheduleProblem({ date: START, registrationClosesAt: START })).toBeNull();
    expect(scheduleProblem({ date: START, registrationOpensAt: '2030-04-02T00:00:00Z', registrationClosesAt: '2030-04-01T00:00:00Z' })).toBe(
      'registrationWindow',
    );
    expect(scheduleProblem({ date: START, registrationClosesAt: '2030-05-01T16:00:01Z' })).toBe('registrationWindow');
    expect(scheduleProblem({ date: START, checkInEnabled: true })).toBeNull();
    expect(scheduleProblem({ date: START, checkInEnabled: true, checkInClosesAt: '2030-05-01T16:05:00Z' })).toBe('checkInWindow');
    expect(scheduleProblem({ date: START, checkInEnabled: true, checkInOpensAt: '2030-05-01T15:55:00Z' })).toBe('checkInWindow');
    // Check-in off: its times wait until it is turned on.
    expect(scheduleProblem({ date: START, checkInOpensAt: '2030-05-01T15:55:00Z' })).toBeNull();
  });
});

describe('an edit that would close check-in in the past', () => {
  const now = at('2030-05-01T15:55:00.000Z'); // past the default close (15:50)
  const on = { date: START, checkInEnabled: true };
  it('is turning check-in on, or moving its close or the start, after that close', () => {
    expect(closesInThePast({ date: START }, on, now)).toBe(true);
    expect(closesInThePast(null, on, now)).toBe(true);
    expect(closesInThePast({ ...on, date: '2030-05-01T18:00:00.000Z' }, on, now)).toBe(true);
  });
  it('is not an edit that leaves a passed close as it was, a close carried out, a later close, or check-in off', () => {
    expect(closesInThePast(on, { ...on }, now)).toBe(false);
    expect(closesInThePast({ date: START }, { ...on, checkInClosedAt: '2030-05-01T15:50:00.000Z' }, now)).toBe(false);
    expect(closesInThePast({ date: START }, { ...on, date: '2030-05-01T18:00:00.000Z' }, now)).toBe(false);
    expect(closesInThePast(on, { date: START }, now)).toBe(false);
  });
});

describe('places', () => {
  it('pending and approved hold places; no cap means room for everyone', () => {
    expect(['pending', 'approved', 'waitlisted', 'rejected'].map(takesPlace)).toEqual([true, true, false, false]);
    expect(placesLeft(null, 500)).toBe(Infinity);
    expect(placesLeft(4, 6)).toBe(0);
    expect(statusOnApply(4, 3)).toBe('pending');
    expect(statusOnApply(4, 4)).toBe('waitlisted');
  });
});

/** Applications in arrival order (createdAt = their index), random statuses and check-ins. */
const entries = fc
  .array(fc.record({ status: fc.constantFrom<ApplicationStatus>('pending', 'approved', 'waitlisted', 'rejected'), checkedIn: fc.boolean() }), { maxLength: 40 })
  .map((list) =>
    list.map((e, i): Entry => ({
      id: `a${String(i).padStart(3, '0')}`,
      status: e.status,
      createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString(),
      checkedInAt: e.checkedIn ? START : null,
    })),
  );
const cap = fc.option(fc.integer({ min: 2, max: 30 }), { nil: null });
const taken = (list: readonly Entry[]) => list.filter((e) => takesPlace(e.status)).length;

describe('promotions (property)', () => {
  it('fill exactly the free places from the waitlist, earliest first, never beyond the cap', () => {
    fc.assert(
      fc.property(entries, cap, (list, max) => {
        const promoted = promotions([...list].reverse(), max);
        const waitlist = list.filter((e) => e.status === 'waitlisted');
        const free = placesLeft(max, taken(list));
        expect(promoted).toEqual(waitlist.slice(0, free === Infinity ? undefined : free));
        if (max !== null) expect(taken(list) + promoted.length).toBeLessThanOrEqual(Math.max(max, taken(list)));
      }),
    );
  });

  it('the close drops every approved one not checked in, promotes only checked-in waitlisted ones in order, within the cap', () => {
    fc.assert(
      fc.property(entries, cap, (list, max) => {
        const { dropped, promoted } = checkInClose(list, max);
        expect(dropped).toEqual(list.filter((e) => e.status === 'approved' && !e.checkedInAt));
        expect(promoted.every((e) => e.status === 'waitlisted' && e.checkedInAt)).toBe(true);
        const after = taken(list) - dropped.length;
        const candidates = list.filter((e) => e.status === 'waitlisted' && e.checkedInAt);
        const free = placesLeft(max, after);
        expect(promoted).toEqual(candidates.slice(0, free === Infinity ? undefined : free));
        if (max !== null) expect(after + promoted.length).toBeLessThanOrEqual(Math.max(max, after));
      }),
    );
  });
});
