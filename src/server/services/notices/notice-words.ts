/**
 * How a match-day notice reads (issue 22): the one place that turns a kind and its stored
 * parameters into the bell's line and the letter's words, in the reader's language. Notices are
 * stored as kind + parameters, so a reader who switches language reads the bell in the new one.
 *
 * The parameters each kind is announced with (`announce` in notices.ts):
 * - every kind: `tournament` (the tournament's title);
 * - `matchReady`: `opponent`, and `time` (ISO) when the match is scheduled, with `timeZone` (IANA) when
 *   the tournament has its own (issue 57; Kyiv's otherwise); `checkInBy` (ISO) when its sides check in to it (issue 58);
 * - `scoreReported`, `disputeResolved`: `opponent` and `score` ("2:1"; or `scoreA` and `scoreB`);
 * - `tournamentFinished`: `place` ("1", "3–4"), absent when the place is not known;
 * - `organisationTournament`: `organisation` (the name of the organisation that published it);
 * - `matchDisputed`, `matchCalled`, `matchNoShow`: `match` (the match as the organisers know it: "A – B");
 * - `matchReset`: `opponent`, and `match` (the number of the match whose change withdrew the result: "M3").
 * A missing parameter reads as empty, never as a raw `{placeholder}`.
 */
import type { NoticeKind } from '../../../lib/domain/match-day.ts';
import { formatDateTime, SITE_TIME_ZONE } from '../../../lib/i18n/format.ts';
import { zoneMark } from '../../../lib/i18n/zone-mark.ts';
import { translate, type Locale } from '../../../lib/i18n/index.ts';

export type NoticeParams = Record<string, string | number>;

export interface NoticeWords {
  /** The bell's line. */
  bell: string;
  subject: string;
  /** The letter's first paragraph. */
  lead: string;
  /** The letter's button. */
  action: string;
}

const FILLED = ['tournament', 'opponent', 'score', 'place', 'organisation', 'match'] as const;

/** The parameters as the texts use them: dates and places worded for `locale`, every placeholder present. */
function wordedParams(locale: Locale, kind: NoticeKind, params: NoticeParams): Record<string, string> {
  const words: Record<string, string> = Object.fromEntries(FILLED.map((name) => [name, params[name] === undefined ? '' : String(params[name])]));
  if (!words.score && params.scoreA !== undefined && params.scoreB !== undefined) words.score = `${params.scoreA}:${params.scoreB}`;
  if (kind === 'tournamentFinished') {
    words.place = words.place ? translate(locale, 'notices.place', { place: words.place }) : translate(locale, 'notices.placeUnknown');
  }
  return words;
}

/** The words of one notice in `locale`. */
export function noticeWords(locale: Locale, kind: NoticeKind, params: NoticeParams = {}): NoticeWords {
  const filled = wordedParams(locale, kind, params);
  const say = (part: 'bell' | 'subject' | 'lead' | 'action') => translate(locale, `notices.${kind}.${part}`, filled);
  // A scheduled match says when, in the reader's language and the tournament's zone (Kyiv's unless it has its own), named.
  const timeZone = typeof params.timeZone === 'string' && params.timeZone ? params.timeZone : SITE_TIME_ZONE;
  const time = typeof params.time === 'string' ? formatDateTime(params.time, { locale, timeZone }) : '';
  const zone = zoneMark(timeZone, locale);
  const at = time ? ` ${translate(locale, 'notices.at', { time, zone })}` : '';
  const by =
    typeof params.checkInBy === 'string'
      ? ` ${translate(locale, 'notices.checkInBy', { time: formatDateTime(params.checkInBy, { locale, timeZone }), zone })}`
      : '';
  return { bell: say('bell') + at + by, subject: say('subject'), lead: say('lead') + at + by, action: say('action') };
}
