/**
 * What an audit row keeps of the thing it changed, before and after (issue 23). The names are the
 * ones at the time: a row outlives its match (a redrawn stage), its team's name and its actor, so
 * the history reads the same later. The writers (server/services) build these; the history's
 * wording (components/audit-words.ts) reads them.
 */
import type { ApplicationStatus } from './application-rules.ts';
import type { Slot, StageFormat } from './stage/format.ts';

/** A match's result as the log keeps it; null scores for a winner entered without one (the SPEC bracket). */
export interface ResultSnapshot {
  scoreA: number | null;
  scoreB: number | null;
  /** The winning side; null for a draw. */
  winner: Slot | null;
  /** The side that forfeited, if any. */
  forfeit: Slot | null;
}

/** A match before or after a change of its result: its sides' names and its result, or none. */
export interface MatchSnapshot {
  a: string | null;
  b: string | null;
  result: ResultSnapshot | null;
}

/**
 * An application before or after a decision. `deleted`: an organiser deleted it. `automatic`: the
 * server moved it (a place freed for the waitlist, the check-in close), not a person.
 */
export interface ApplicationSnapshot {
  status: ApplicationStatus | 'deleted';
  /** Left out for guests where the application was approved neither before nor after (server/services/competition/audit.ts). */
  applicant?: string;
  automatic?: boolean;
}

/**
 * A participant an organiser added (issue 60: an import of participants): their application made
 * approved at once, with no decision before it.
 */
export interface ParticipantAddedSnapshot {
  participant: string;
  status: ApplicationStatus;
}

/** A participant's check-in, as an organiser set it; `status` when it brought back someone dropped at the close. */
export interface CheckInSnapshot {
  checkedIn: boolean;
  participant: string;
  status?: ApplicationStatus;
}

/** Check-in's close, moved later by an organiser. */
export interface CheckInCloseSnapshot {
  closesAt: string;
}

/** A stage created, or withdrawn with its results (`results`: how many were played). */
export interface StageSnapshot {
  name: string;
  number: number;
  format: StageFormat;
  participants: number;
  results?: number;
}

/** A disqualification: whom, and how many of their matches it forfeited at once. */
export interface DisqualifiedSnapshot {
  participant: string;
  forfeits: number;
}

/**
 * A free-for-all lobby's game as an organiser entered it (issue 59): which lobby and game, and the
 * names in their placements' order at the time (a proposal is not a change, so it has no row).
 */
export interface LobbyGameSnapshot {
  round: number;
  lobby: number;
  /** The stage's last round of a single lobby: the history calls it «Фінал». */
  final: boolean;
  game: number;
  /** Names by placement, first place first. */
  order: string[];
}

/** The tournament's winner; `finished` when the same change finished the tournament. */
export interface WinnerSnapshot {
  winner: string | null;
  finished?: boolean;
}

/** A tournament's organiser added or removed. */
export interface StaffSnapshot {
  username: string;
}

/** A tournament's venue network (issue 57, decision 035) asked for, decided or withdrawn: as it was after (before, for a withdrawal). */
export interface VenueSnapshot {
  networks: string[];
  note: string;
  status: string;
}
