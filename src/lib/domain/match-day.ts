/**
 * Match day (issue 22): the words the registration, check-in, reporting and notice rules share.
 * Each list is the one owner of its names; the schema, the zod shapes and the islands read them.
 */

/** Check-in opens this long before the start, and closes this long before it, unless the admin set other times. */
export const CHECK_IN_OPENS_BEFORE_MINUTES = 60;
export const CHECK_IN_CLOSES_BEFORE_MINUTES = 10;
/** A report the other side does not answer is confirmed after this many minutes, unless the tournament says otherwise. */
export const DEFAULT_CONFIRMATION_MINUTES = 15;
export const MAX_CONFIRMATION_MINUTES = 24 * 60;

/** A match's players' reports: waiting for the other side, or disputed (the admin decides). */
export const REPORT_STATES = ['reported', 'disputed'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

/** What can happen to a match, as its history records it. */
export const MATCH_ACTIONS = ['report', 'confirm', 'autoConfirm', 'dispute', 'result', 'reset', 'call', 'callAnswered', 'checkIn', 'noShow', 'lobby'] as const;
export type MatchAction = (typeof MATCH_ACTIONS)[number];

/** How a match's check-in ended (issue 58): both sides came, one forfeited by not coming, or neither came (the organisers decide). */
export const CHECK_IN_OUTCOMES = ['both', 'forfeit', 'noShow'] as const;
export type CheckInOutcome = (typeof CHECK_IN_OUTCOMES)[number];
/** The longest a match's check-in may run, in minutes. */
export const MAX_MATCH_CHECK_IN_MINUTES = 120;
/** Who puts a match's lobby details: the organisers, or the higher seed (as its host). */
export const LOBBY_HOSTS = ['organiser', 'higherSeed'] as const;
export type LobbyHost = (typeof LOBBY_HOSTS)[number];

/** The notices of match day (and of followed organisations), each in the bell and by email unless the user turned that kind off. */
export const NOTICE_KINDS = [
  'applicationApproved',
  'applicationRejected',
  'applicationWaitlisted',
  'applicationPromoted',
  'checkInOpen',
  'matchReady',
  'scoreReported',
  'disputeResolved',
  'tournamentFinished',
  // Issue 56: an organisation the reader follows published a tournament.
  'organisationTournament',
  // Issue 57: a participant dropped at check-in's close; and, for the organisers, a dispute or a call for help.
  'checkInMissed',
  'matchDisputed',
  'matchCalled',
  // A correction withdrew the result of a match the reader played.
  'matchReset',
  // Issue 58: neither side of a match checked in in time: the organisers decide.
  'matchNoShow',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * Where a notice goes: the bell, a letter, the reader's devices by web push and their Telegram
 * (issue 60: on where the site has push or a bot and the reader subscribed a device or linked a chat).
 */
export const NOTICE_CHANNELS = ['bell', 'email', 'push', 'telegram'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

/** The kinds a user turned off, per channel; a kind not listed is on. */
export type NoticeSettings = Partial<Record<NoticeChannel, NoticeKind[]>>;

export const isNoticeOn = (settings: NoticeSettings, channel: NoticeChannel, kind: NoticeKind): boolean => !(settings[channel] ?? []).includes(kind);
