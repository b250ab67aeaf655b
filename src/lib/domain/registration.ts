/**
 * Registration and check-in (issue 22, decision 014): the pure rules of caps, waitlists and the
 * two windows. The server decides with them inside its transactions; the pages show with them.
 */
import type { ApplicationStatus } from './application-rules.ts';
import { CHECK_IN_CLOSES_BEFORE_MINUTES, CHECK_IN_OPENS_BEFORE_MINUTES } from './match-day.ts';

/** A cap, when set, is 2–1024 places: a competition needs two, and a stage takes at most 1024. */
export const MIN_PARTICIPANTS = 2;
export const MAX_PARTICIPANTS = 1024;

/** The statuses that hold a place: waitlisted and rejected ones do not. */
export const PLACE_STATUSES = ['pending', 'approved'] as const satisfies readonly ApplicationStatus[];
export const takesPlace = (status: string): boolean => (PLACE_STATUSES as readonly string[]).includes(status);

/** Who may check in: the approved, and the waitlist (they fill the places freed at the close). */
export const CHECK_IN_STATUSES = ['approved', 'waitlisted'] as const satisfies readonly ApplicationStatus[];
export const mayCheckIn = (status: string): boolean => (CHECK_IN_STATUSES as readonly string[]).includes(status);

type Moment = Date | string | null | undefined;

const ms = (value: Moment): number | null => {
  if (value === null || value === undefined) return null;
  const time = (value instanceof Date ? value : new Date(value)).getTime();
  return Number.isNaN(time) ? null : time;
};

const MINUTE = 60_000;

/** What the rules read of a tournament's schedule; times as Dates or ISO strings. */
export interface Schedule {
  date: Date | string;
  maxParticipants?: number | null;
  registrationOpensAt?: Moment;
  registrationClosesAt?: Moment;
  checkInEnabled?: boolean;
  checkInOpensAt?: Moment;
  checkInClosesAt?: Moment;
  /** Set once the end of check-in was carried out. */
  checkInClosedAt?: Moment;
}

/** The check-in window as it applies: the admin's times, or 60 and 10 minutes before the start. */
export function checkInWindow(schedule: Schedule): { opensAt: Date; closesAt: Date } {
  const start = ms(schedule.date) ?? 0;
  return {
    opensAt: new Date(ms(schedule.checkInOpensAt) ?? start - CHECK_IN_OPENS_BEFORE_MINUTES * MINUTE),
    closesAt: new Date(ms(schedule.checkInClosesAt) ?? start - CHECK_IN_CLOSES_BEFORE_MINUTES * MINUTE),
  };
}

/** Why applications are refused at this moment by the registration window, or null while it is open. */
export function registrationRefusal(schedule: Schedule, now: Date): 'registrationNotOpen' | 'registrationClosed' | null {
  const opens = ms(schedule.registrationOpensAt);
  const closes = ms(schedule.registrationClosesAt);
  if (opens !== null && now.getTime() < opens) return 'registrationNotOpen';
  if (closes !== null && now.getTime() >= closes) return 'registrationClosed';
  return null;
}

export type CheckInPhase = 'disabled' | 'notOpen' | 'open' | 'closed';

/** Where check-in stands at this moment; closed also once its end was carried out. */
export function checkInPhase(schedule: Schedule, now: Date): CheckInPhase {
  if (!schedule.checkInEnabled) return 'disabled';
  if (ms(schedule.checkInClosedAt) !== null) return 'closed';
  const { opensAt, closesAt } = checkInWindow(schedule);
  if (now < opensAt) return 'notOpen';
  return now < closesAt ? 'open' : 'closed';
}

/** Places still free under the cap; Infinity without one. Never negative (a cap lowered below the taken places). */
export const placesLeft = (maxParticipants: number | null | undefined, taken: number): number =>
  maxParticipants === null || maxParticipants === undefined ? Infinity : Math.max(0, maxParticipants - taken);

/** The status a new application gets: a place while one is free, else the waitlist. */
export const statusOnApply = (maxParticipants: number | null | undefined, taken: number): 'pending' | 'waitlisted' =>
  placesLeft(maxParticipants, taken) > 0 ? 'pending' : 'waitlisted';

/** An application as the promotion rules see it. */
export interface Entry {
  id: string;
  status: ApplicationStatus;
  createdAt: Date | string;
  checkedInAt?: Moment;
}

const byArrival = (a: Entry, b: Entry) => (ms(a.createdAt) ?? 0) - (ms(b.createdAt) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The waitlisted applications that take the free places, earliest first. */
export function promotions(entries: readonly Entry[], maxParticipants: number | null | undefined): Entry[] {
  const taken = entries.filter((e) => takesPlace(e.status)).length;
  const free = placesLeft(maxParticipants, taken);
  return entries
    .filter((e) => e.status === 'waitlisted')
    .sort(byArrival)
    .slice(0, free === Infinity ? undefined : free);
}

/**
 * The end of check-in: approved participants who did not check in are dropped; waitlisted ones who
 * did take the places that frees (and any others free), earliest first; the rest of the waitlist stays.
 */
export function checkInClose(entries: readonly Entry[], maxParticipants: number | null | undefined): { dropped: Entry[]; promoted: Entry[] } {
  const checkedIn = (e: Entry) => ms(e.checkedInAt) !== null;
  const dropped = entries.filter((e) => e.status === 'approved' && !checkedIn(e));
  const staying = entries.filter((e) => !dropped.includes(e));
  const taken = staying.filter((e) => takesPlace(e.status)).length;
  const free = placesLeft(maxParticipants, taken);
  const promoted = staying
    .filter((e) => e.status === 'waitlisted' && checkedIn(e))
    .sort(byArrival)
    .slice(0, free === Infinity ? undefined : free);
  return { dropped, promoted };
}

export type ScheduleProblem = 'registrationWindow' | 'checkInWindow' | 'checkInPassed';

/**
 * What is wrong with a tournament's windows, or null: each opens before it closes, and closes no
 * later than the start. Check-in is judged with its defaults filled in, and only when it is on.
 */
export function scheduleProblem(schedule: Schedule): ScheduleProblem | null {
  const start = ms(schedule.date);
  if (start === null) return null;
  const opens = ms(schedule.registrationOpensAt);
  const closes = ms(schedule.registrationClosesAt);
  if (opens !== null && opens >= (closes ?? start)) return 'registrationWindow';
  if (closes !== null && closes > start) return 'registrationWindow';
  if (schedule.checkInEnabled) {
    const { opensAt, closesAt } = checkInWindow(schedule);
    if (opensAt >= closesAt || closesAt.getTime() > start) return 'checkInWindow';
  }
  return null;
}

/**
 * Whether an edit would put a check-in close not yet carried out in the past: check-in turned on,
 * or its window or the start moved, after the close. The close would then drop every participant
 * at once, none of whom could have checked in; the edit is refused instead. An edit that leaves an
 * already passed close as it was changes nothing here (the sweep carries it out).
 */
export function closesInThePast(before: Schedule | null, after: Schedule, now: Date): boolean {
  const closesBy = (s: Schedule) => Boolean(s.checkInEnabled) && ms(s.checkInClosedAt) === null && checkInWindow(s).closesAt.getTime() <= now.getTime();
  return closesBy(after) && !(before && closesBy(before));
}
