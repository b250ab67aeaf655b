import type { BracketSide } from '../../lib/domain/stage/format.ts';
import { fromLocalInputValue, toLocalInputValue } from '../../lib/domain/tournament-dates.ts';
import { SITE_TIME_ZONE } from '../../lib/i18n/format.ts';
import type { MatchSection } from './sections.ts';

/**
 * A match's time in the editor: `<input type="datetime-local">` holds the wall time of the screen's
 * zone (Kyiv's unless given: the tournament's own, or the reader's), the API takes an ISO moment
 * with that zone's offset at that moment.
 */

/** The input's value for a stored moment; empty when the match has no time. */
export const scheduleInputValue = (iso: string | null, timeZone: string = SITE_TIME_ZONE): string => (iso ? toLocalInputValue(iso, timeZone) : '');

/**
 * The ISO moment, with the zone's offset at that moment («2030-05-01T18:00:00+03:00» in Kyiv), of an
 * input value read as that zone's wall time; null for an empty input (no time), undefined for an
 * unreadable one, or a wall time the zone skips (a day-saving gap) or rolls over (31 June).
 */
export function scheduleToIso(value: string, timeZone: string = SITE_TIME_ZONE): string | null | undefined {
  const text = value.trim();
  if (text === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  const moment = match ? fromLocalInputValue(text, timeZone) : null;
  if (!match || !moment) return undefined;
  const [, y, mo, d, h, mi] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  if (toLocalInputValue(moment, timeZone) !== text) return undefined;
  const offset = Math.round((wall - Date.parse(moment)) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${text}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** A round the schedule form offers: its title and the API's scope for it. */
export interface ScheduleRound {
  key: string;
  title: string;
  round: number;
  side?: BracketSide;
  group?: number;
}

/**
 * The rounds of a stage as the schedule form lists them, in board order: an elimination stage's by
 * bracket side, a table stage's by group when it has several (otherwise every group's round at once).
 */
export function scheduleRounds(sections: readonly MatchSection[]): ScheduleRound[] {
  return sections.flatMap((section) =>
    section.rounds.flatMap((block): ScheduleRound[] => {
      const first = block.matches[0]?.match;
      if (!first) return [];
      return [
        {
          key: block.key,
          // A lone section (a single elimination's winners' side, one group) needs no name of its own.
          title: section.title && sections.length > 1 ? `${section.title}: ${block.title}` : block.title,
          round: first.round,
          ...(first.side ? { side: first.side } : {}),
          ...(section.title && first.group !== null ? { group: first.group } : {}),
        },
      ];
    }),
  );
}
