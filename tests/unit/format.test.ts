import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatTime } from '../../src/lib/domain/chat.ts';
import { formatWinRate } from '../../src/lib/domain/leaderboard.ts';
import { formatDay } from '../../src/lib/domain/tournament-dates.ts';
import { formatDate, formatDateTime, formatNumber, formatPercent, formatTime } from '../../src/lib/i18n/format.ts';

const CYRILLIC = /\p{Script=Cyrillic}/u;
// Moments from 1970 to 2200, to the minute: winter and summer time in Kyiv alike.
const moments = fc.integer({ min: 0, max: 7_258_118_400_000 }).map((ms) => new Date(ms - (ms % 60_000)));

describe('dates in the reader’s language', () => {
  it('write Ukrainian the Ukrainian way, in Kyiv time', () => {
    expect(formatDate('2026-10-25T10:00:00Z', { locale: 'uk' })).toBe('25 жовтня 2026 р.');
    expect(formatDateTime('2030-07-15T16:00:00Z', { locale: 'uk' })).toMatch(/^15 липня 2030 р\.,? о 19:00$/);
    expect(formatDate('2025-05-14T22:30:00Z', { locale: 'uk' })).toBe('15 травня 2025 р.');
  });

  it('write English with the day first and the month in words: never mistaken for another day', () => {
    expect(formatDate('2026-10-25T10:00:00Z', { locale: 'en' })).toBe('25 October 2026');
    expect(formatDateTime('2030-07-15T16:00:00Z', { locale: 'en' })).toBe('15 July 2030 at 19:00');
    expect(formatDateTime('2030-01-15T17:00:00Z', { locale: 'en', month: 'short' })).toBe('15 Jan 2030, 19:00');
  });

  it('never leave a Ukrainian word in an English date, and always name the year in a Ukrainian one', () => {
    fc.assert(
      fc.property(moments, (moment) => {
        for (const text of [formatDate(moment, { locale: 'en' }), formatDateTime(moment, { locale: 'en' }), formatDateTime(moment, { locale: 'en', month: 'short' })]) {
          expect(text).not.toMatch(CYRILLIC);
          expect(text).not.toContain('р.');
        }
        expect(formatDate(moment, { locale: 'uk' })).toMatch(/^\d{1,2} \p{Script=Cyrillic}+ \d{4} р\.$/u);
      }),
    );
  });

  it('name the same Kyiv day in both languages as the tournament cards do', () => {
    fc.assert(
      fc.property(moments, (moment) => {
        const [year, , day] = formatDay(moment).split('-').map(Number);
        for (const locale of ['uk', 'en'] as const) expect(formatDate(moment, { locale })).toMatch(new RegExp(`^${day} \\S+ ${year}`));
      }),
    );
  });

  it('keep the time on the 24-hour clock in both languages, and say nothing for a non-date', () => {
    expect(formatTime('2025-03-08T14:05:00Z', { locale: 'en' })).toBe('16:05');
    expect(formatTime('2025-03-08T14:05:00Z', { locale: 'uk' })).toBe('16:05');
    for (const format of [formatDate, formatDateTime, formatTime]) expect(format('not a date')).toBe('');
    expect(chatTime('2025-07-08T23:30:00Z', 'Europe/Kyiv')).toBe('02:30');
  });

  it('use the current language when none is given (Ukrainian outside a request)', () => {
    expect(formatDate('2026-10-25T10:00:00Z')).toBe('25 жовтня 2026 р.');
  });
});

describe('numbers in the reader’s language', () => {
  it('group thousands and mark decimals as each language does', () => {
    expect(formatNumber(12345.5, { locale: 'uk' })).toBe('12\u00a0345,5');
    expect(formatNumber(12345.5, { locale: 'en' })).toBe('12,345.5');
    expect(formatNumber(1523, { locale: 'en' })).toBe('1,523');
  });

  it('write percentages of 0–100 with the language’s decimal mark', () => {
    expect(formatPercent(66.6667, { locale: 'uk', fractionDigits: 1 })).toBe('66,7%');
    expect(formatPercent(66.6667, { locale: 'en', fractionDigits: 1 })).toBe('66.7%');
    expect(formatWinRate(100, 'en')).toBe('100.0%');
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), (rate) => {
        expect(formatWinRate(rate, 'en')).toMatch(/^\d{1,3}\.\d%$/);
        expect(formatWinRate(rate, 'uk')).toMatch(/^\d{1,3},\d%$/);
      }),
    );
  });
});
